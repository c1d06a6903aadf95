/** The answer shape of Guildhall's server-side validators (spec 000 section 7: Data.Valid, Data.ErrorMessages). */
export interface ValidationResult {
  Valid: boolean;
  ErrorMessages: string[];
}

export function validationResult(errorMessages: readonly string[]): ValidationResult {
  return { Valid: errorMessages.length === 0, ErrorMessages: [...errorMessages] };
}

/**
 * "Invalid marks the field invalid and shows the server's messages joined by commas." (spec 000 section 5)
 * Empty messages are skipped.
 */
export function joinWithCommas(messages: readonly string[]): string {
  return messages
    .map((message) => message.trim())
    .filter((message) => message !== '')
    .join(', ');
}

/**
 * "A server 400 with an errors map shows the messages joined." (spec 000 section 5) Every field's messages, in the
 * map's order, one per line, without repeats.
 */
export function joinErrorsMap(
  errors: Readonly<Record<string, readonly string[] | string>> | null | undefined,
): string {
  if (!errors) return '';
  const seen = new Set<string>();
  for (const value of Object.values(errors)) {
    for (const message of typeof value === 'string' ? [value] : value) {
      const trimmed = message.trim();
      if (trimmed !== '') seen.add(trimmed);
    }
  }
  return [...seen].join('\n');
}
