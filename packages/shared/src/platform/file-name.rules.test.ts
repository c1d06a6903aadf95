import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_NAME_MAX_LENGTH, uploadFileName } from './file-name.rules.ts';

describe('uploadFileName', () => {
  it.each([
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['a\u2066b\u2069c\u200F.csv', 'abc.csv'],
    ['zero\u200Bwidth\uFEFF.csv', 'zerowidth.csv'],
    ['line\u2028break.csv', 'linebreak.csv'],
    ['tab\tand\u0085next.csv', 'tabandnext.csv'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\x\\contacts.csv', 'contacts.csv'],
    ['  Montre\u0301al.csv  ', 'Montréal.csv'],
    ['\u202E', 'import.csv'],
    ['', 'import.csv'],
  ])('keeps %j as %j', (name, expected) => {
    expect(uploadFileName(name, 'import.csv')).toBe(expected);
  });

  it('never keeps a control, bidi or zero-width character, a path separator, or more than 200 characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 250 }), (name) => {
        const kept = uploadFileName(name, 'x');
        expect(kept).not.toMatch(
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is checked
          /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff/\\]/,
        );
        expect([...kept].length).toBeLessThanOrEqual(FILE_NAME_MAX_LENGTH);
        expect(kept.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});
