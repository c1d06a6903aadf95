/**
 * The name of an uploaded file as the product keeps and shows it: a label, never a path. Only the last path segment
 * is kept; control characters (C0, DEL, C1), bidirectional controls (a right-to-left override makes
 * `invoice‮fdp.exe` show as `invoiceexe.pdf`), zero-width characters and line separators are removed; the rest is
 * NFC-normalized, trimmed and cut to 200 characters. Empty names become the fallback.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;

export const FILE_NAME_MAX_LENGTH = 200;

/** Text without control, bidirectional, zero-width and line-separator characters, NFC-normalized. */
export function withoutInvisibleCharacters(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE, '');
}

export function uploadFileName(name: string | undefined, fallback: string): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = withoutInvisibleCharacters(last).trim();
  return [...clean].slice(0, FILE_NAME_MAX_LENGTH).join('').trim() || fallback;
}
