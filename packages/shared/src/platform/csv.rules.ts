/**
 * CSV cells that are safe to open in a spreadsheet (OWASP "CSV injection"): a value starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is a formula to Excel and LibreOffice (`=cmd|' /C calc'!A0`,
 * `=HYPERLINK(...)`), so it is written with a leading apostrophe, which spreadsheets show as text. A plain number
 * (`-12.50`) is not a formula and stays a number. The database's `gh_csv_field` applies the same rule to exports.
 */

/** Written first in every CSV file so that Excel reads it as UTF-8 ("Montréal", not "MontrÃ©al"). */
export const UTF8_BOM = '\uFEFF';

const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Whether a spreadsheet would read the value as a formula. */
export function isFormula(value: string): boolean {
  return FORMULA_START.has(value.charAt(0)) && !PLAIN_NUMBER.test(value);
}

/** One CSV field: empty for null, a formula defused and quoted, quoted when it holds a comma, quote or line break. */
export function csvField(value: string | null | undefined): string {
  if (value == null) return '';
  if (isFormula(value)) return `"'${value.replaceAll('"', '""')}"`;
  if (NEEDS_QUOTES.test(value)) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

/** One CSV line (no line end). */
export function csvLine(values: readonly (string | null | undefined)[]): string {
  return values.map(csvField).join(',');
}
