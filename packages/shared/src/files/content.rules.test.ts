import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contentMatchesExtension,
  contentTypeOf,
  fileLabel,
  hasFolderPath,
  isTextExtension,
} from './content.rules.ts';
import { FILE_UPLOAD_EXTENSIONS, IMAGE_UPLOAD_EXTENSIONS } from './upload.rules.ts';

describe('content checked against the extension (spec 001 §5)', () => {
  it.each([
    ['png', 'png', false, true],
    ['jpg', 'jpg', false, true],
    ['jpeg', 'jpg', false, true],
    ['png', 'jpg', false, false],
    ['pdf', undefined, true, false],
    ['docx', 'zip', false, true],
    ['doc', 'cfb', false, true],
    ['xls', 'exe', false, false],
    ['txt', undefined, true, true],
    ['txt', undefined, false, false],
    ['txt', 'exe', false, false],
    ['html', undefined, true, true],
    ['exe', 'exe', false, false],
  ] as const)('%s with %s content (text %s): %s', (ext, detected, text, ok) => {
    expect(contentMatchesExtension(ext, detected, text)).toBe(ok);
  });

  it('every allowed extension has a content rule and a content type', () => {
    for (const ext of [...FILE_UPLOAD_EXTENSIONS, ...IMAGE_UPLOAD_EXTENSIONS]) {
      expect(contentTypeOf(ext)).not.toBe('application/octet-stream');
      const signatures = isTextExtension(ext) ? [undefined] : [ext === 'jpeg' ? 'jpg' : ext];
      expect(signatures.some((d) => contentMatchesExtension(ext, d, d === undefined))).toBe(true);
    }
  });

  it('property: an executable signature never passes as an allowed extension', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FILE_UPLOAD_EXTENSIONS), fc.boolean(), (ext, text) => {
        expect(contentMatchesExtension(ext, 'exe', text)).toBe(false);
        expect(contentMatchesExtension(ext, 'elf', text)).toBe(false);
      }),
    );
  });

  it('file names are labels: control characters dropped, paths detected', () => {
    expect(fileLabel(' minutes\u0000.pdf ')).toBe('minutes.pdf');
    expect(fileLabel('x'.repeat(300))).toHaveLength(200);
    expect(hasFolderPath('../../etc/passwd.txt')).toBe(true);
    expect(hasFolderPath('C:\\Users\\me\\a.pdf')).toBe(true);
    expect(hasFolderPath('minutes 2026.pdf')).toBe(false);
  });
});
