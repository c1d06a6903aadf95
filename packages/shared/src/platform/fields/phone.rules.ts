/** "Phone: 10 digits." (spec 000 section 9) */
export const PHONE_MAX_DIGITS = 10;

/** "Phone inputs keep digits only, at most 10" (spec 000 section 5). */
export function phoneDigits(input: string | null | undefined): string {
  return (input ?? '').replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
}

/**
 * "Displayed as (xxx) xxx-xxxx" (spec 000 section 5), formatting partial input as it is typed:
 * `5` -> `(5`, `5551` -> `(555) 1`, `5551234` -> `(555) 123-4`. Formatting twice changes nothing.
 */
export function formatPhone(input: string | null | undefined): string {
  const digits = phoneDigits(input);
  if (digits.length === 0) return '';
  const area = digits.slice(0, 3);
  if (digits.length <= 3) return `(${area}`;
  const exchange = digits.slice(3, 6);
  if (digits.length <= 6) return `(${area}) ${exchange}`;
  return `(${area}) ${exchange}-${digits.slice(6)}`;
}

/** True when the input holds all ten digits. */
export function isCompletePhone(input: string | null | undefined): boolean {
  return phoneDigits(input).length === PHONE_MAX_DIGITS;
}
