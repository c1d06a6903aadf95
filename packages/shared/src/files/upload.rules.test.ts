import { describe, expect, it } from 'vitest';
import {
  canChangeUploadField,
  checkUpload,
  FILE_UPLOAD_EXTENSIONS,
  fileExtension,
  fileUploadStatusText,
  IMAGE_UPLOAD_EXTENSIONS,
  isFolderEntry,
  UPLOAD_MAX_BYTES,
  uploadErrorMessage,
} from './upload.rules.ts';

describe('upload checks (spec 001 §5, §8)', () => {
  it('lists the extensions of the specification', () => {
    expect(IMAGE_UPLOAD_EXTENSIONS).toEqual(['jpg', 'gif', 'jpeg', 'png', 'bmp']);
    expect(FILE_UPLOAD_EXTENSIONS).toEqual([
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
    ]);
    expect(UPLOAD_MAX_BYTES).toBe(52_428_800);
  });

  it.each([
    ['photo.JPG', 'jpg'],
    ['archive.tar.gz', 'gz'],
    ['C:\\Users\\me\\report.PDF', 'pdf'],
    ['folder/notes.txt', 'txt'],
    ['.env', ''],
    ['README', ''],
    ['trailing.', ''],
  ])('fileExtension(%j) = %j', (name, expected) => {
    expect(fileExtension(name)).toBe(expected);
  });

  it.each([
    [{ name: 'logo.png', size: 1000 }, 'image', { ok: true, extension: 'png' }],
    [{ name: 'logo.jpeg', size: UPLOAD_MAX_BYTES }, 'image', { ok: true }],
    [
      { name: 'minutes.docx', size: 10 },
      'image',
      { ok: false, code: -601, message: "You cannot upload files with an 'docx' extension ('minutes.docx')" },
    ],
    [{ name: 'minutes.docx', size: 10 }, 'file', { ok: true }],
    [{ name: 'logo.jpeg', size: 10 }, 'file', { ok: false, code: -601 }],
    [
      { name: 'huge.png', size: UPLOAD_MAX_BYTES + 1 },
      'image',
      { ok: false, code: -600, message: "File 'huge.png' is too large" },
    ],
    [{ name: 'odd.pdf', size: Number.NaN }, 'file', { ok: false, code: -600 }],
    [
      { name: 'noext', size: 1 },
      'file',
      { ok: false, code: -601, message: "You cannot upload files with an '' extension ('noext')" },
    ],
  ] as const)('checkUpload(%j, %s)', (file, kind, expected) => {
    expect(checkUpload(file, kind)).toMatchObject(expected);
  });

  it('"Any other upload code: the message text is shown"', () => {
    expect(uploadErrorMessage(-200, 'a.pdf', 'HTTP Error.')).toBe('HTTP Error.');
    expect(uploadErrorMessage(-200, 'a.pdf')).toBe('The upload failed.');
  });

  it('"\'% DONE\' while transferring, then COMPLETED or FAILED"', () => {
    expect(fileUploadStatusText({ status: 'uploading', percent: 42.4 })).toBe('42% DONE');
    expect(fileUploadStatusText({ status: 'uploading', percent: 140 })).toBe('100% DONE');
    expect(fileUploadStatusText({ status: 'uploading' })).toBe('0% DONE');
    expect(fileUploadStatusText({ status: 'completed' })).toBe('COMPLETED');
    expect(fileUploadStatusText({ status: 'failed' })).toBe('FAILED');
  });

  it('"When the field is read-only or archived, Delete and Upload are hidden."', () => {
    expect(canChangeUploadField({})).toBe(true);
    expect(canChangeUploadField({ readOnly: true })).toBe(false);
    expect(canChangeUploadField({ IsArchived: true })).toBe(false);
  });

  it('"Type (1 means folder, otherwise file)"', () => {
    expect(isFolderEntry({ Type: 1 })).toBe(true);
    expect(isFolderEntry({ Type: 2 })).toBe(false);
  });
});
