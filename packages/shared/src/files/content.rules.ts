import { withoutInvisibleCharacters } from '../platform/file-name.rules.ts';

/**
 * Whether a file's bytes are what its extension says (spec 001 section 5: "the type is also checked by content").
 * `detected` is the extension a signature check (file-type) found in the first bytes, or undefined when it found
 * none; `text` whether the bytes read as UTF-8 text without NUL or other binary control bytes.
 */
const SIGNATURES: Record<string, readonly string[]> = {
  mp3: ['mp3'],
  wav: ['wav'],
  ac3: ['ac3'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  png: ['png'],
  bmp: ['bmp'],
  // Word 97 and Excel 97 files are OLE2 compound files; newer ones are ZIP packages (some writers are not recognised
  // as docx/xlsx beyond the ZIP signature).
  doc: ['cfb', 'doc'],
  xls: ['cfb', 'xls'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pdf: ['pdf'],
};

/** Extensions whose files are text: no signature, and the bytes must be text. */
export const TEXT_EXTENSIONS = ['txt', 'html'] as const;

export function isTextExtension(extension: string): boolean {
  return (TEXT_EXTENSIONS as readonly string[]).includes(extension);
}

export function contentMatchesExtension(
  extension: string,
  detected: string | undefined,
  text: boolean,
): boolean {
  if (isTextExtension(extension)) return detected === undefined && text;
  const accepted = SIGNATURES[extension];
  return accepted !== undefined && detected !== undefined && accepted.includes(detected);
}

/** The content type a file is stored and served with, from its (checked) extension. */
export const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ac3: 'audio/ac3',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  png: 'image/png',
  bmp: 'image/bmp',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

export function contentTypeOf(extension: string): string {
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** What a refused file looks like, for the message ("looks like a zip file"). */
export function contentMismatchMessage(
  fileName: string,
  extension: string,
  detected: string | undefined,
): string {
  const what = detected ? `a ${detected} file` : 'something else';
  return `The content of '${fileName}' is not a ${extension} file (it looks like ${what}).`;
}

/**
 * A client's file name as a label: control, bidi and zero-width characters dropped, at most 200 characters; a name with a folder path in
 * it (`../x`, `C:\x`) is refused by the caller, never cleaned into something else silently.
 */
export function fileLabel(name: string): string {
  // Control, bidirectional (a right-to-left override disguises `x‮fdp.exe` as "xexe.pdf") and zero-width characters.
  return withoutInvisibleCharacters(name).trim().slice(0, 200);
}

export function hasFolderPath(name: string): boolean {
  return /[\\/]/.test(name) || name === '.' || name === '..';
}
