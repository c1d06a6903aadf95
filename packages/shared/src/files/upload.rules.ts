/** "Image and file upload limit 50 MB" (spec 001 section 9), counted in binary megabytes. */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** "Image upload: ... extensions jpg, gif, jpeg, png, bmp" (spec 001 section 5). */
export const IMAGE_UPLOAD_EXTENSIONS = ['jpg', 'gif', 'jpeg', 'png', 'bmp'] as const;

/** "File upload: ... extensions mp3, wav, ac3, jpg, gif, png, bmp, doc, docx, xls, xlsx, pdf, txt, html". */
export const FILE_UPLOAD_EXTENSIONS = [
  'mp3',
  'wav',
  'ac3',
  'jpg',
  'gif',
  'png',
  'bmp',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'pdf',
  'txt',
  'html',
] as const;

/** Upload error codes (spec 001 section 8). */
export const UPLOAD_ERROR_CODES = { FileTooLarge: -600, ExtensionNotAllowed: -601 } as const;

export type UploadKind = 'image' | 'file';

export type UploadCheck =
  | { ok: true; extension: string }
  | { ok: false; code: number; extension: string; message: string };

/** The lower-case extension of a file name, without the dot; empty when it has none. */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 || dot === base.length - 1 ? '' : base.slice(dot + 1).toLowerCase();
}

/**
 * The message for an upload error code (spec 001 section 8): -600 "File '{file}' is too large", -601 "You cannot
 * upload files with an '{ext}' extension ('{file}')", any other code shows the message it came with.
 */
export function uploadErrorMessage(
  code: number,
  fileName: string,
  fallbackMessage = 'The upload failed.',
): string {
  if (code === UPLOAD_ERROR_CODES.FileTooLarge) return `File '${fileName}' is too large`;
  if (code === UPLOAD_ERROR_CODES.ExtensionNotAllowed) {
    return `You cannot upload files with an '${fileExtension(fileName)}' extension ('${fileName}')`;
  }
  return fallbackMessage;
}

export function allowedExtensions(kind: UploadKind): readonly string[] {
  return kind === 'image' ? IMAGE_UPLOAD_EXTENSIONS : FILE_UPLOAD_EXTENSIONS;
}

/**
 * Checks a file before it is sent: its extension against the kind's list, then its size against 50 MB. The
 * server repeats the check and decides the type from the bytes.
 */
export function checkUpload(file: { name: string; size: number }, kind: UploadKind): UploadCheck {
  const extension = fileExtension(file.name);
  if (!allowedExtensions(kind).includes(extension)) {
    const code = UPLOAD_ERROR_CODES.ExtensionNotAllowed;
    return { ok: false, code, extension, message: uploadErrorMessage(code, file.name) };
  }
  if (!(file.size <= UPLOAD_MAX_BYTES)) {
    const code = UPLOAD_ERROR_CODES.FileTooLarge;
    return { ok: false, code, extension, message: uploadErrorMessage(code, file.name) };
  }
  return { ok: true, extension };
}

/** File upload field statuses (spec 001 section 4). */
export const FILE_UPLOAD_STATUS = {
  Uploading: 'uploading',
  Completed: 'COMPLETED',
  Failed: 'FAILED',
} as const;

/** "'% DONE' while transferring, then COMPLETED or FAILED." */
export function fileUploadStatusText(state: {
  status: 'uploading' | 'completed' | 'failed';
  percent?: number;
}): string {
  if (state.status === 'completed') return FILE_UPLOAD_STATUS.Completed;
  if (state.status === 'failed') return FILE_UPLOAD_STATUS.Failed;
  const percent = Math.min(100, Math.max(0, Math.round(state.percent ?? 0)));
  return `${percent}% DONE`;
}

/** "When the field is read-only or archived, Delete and Upload are hidden." */
export function canChangeUploadField(field: {
  readOnly?: boolean | null;
  IsArchived?: boolean | null;
}): boolean {
  return !field.readOnly && !field.IsArchived;
}

/** File entries: "Type (1 means folder, otherwise file)" (spec 001 section 3). */
export const FILE_ENTRY_FOLDER_TYPE = 1;

export function isFolderEntry(entry: { Type: number }): boolean {
  return entry.Type === FILE_ENTRY_FOLDER_TYPE;
}
