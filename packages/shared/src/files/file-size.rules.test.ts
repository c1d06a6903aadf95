import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size.rules.ts';

describe('file size display (spec 000 §9: "File sizes are displayed as Bytes, KB, MB, GB, TB.")', () => {
  it.each([
    [0, '0 Bytes'],
    [-5, '0 Bytes'],
    [Number.NaN, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [52_428_800, '50 MB'],
    [1_234_567_890, '1.15 GB'],
    [1024 ** 4 * 3, '3 TB'],
    [1024 ** 5, '1024 TB'],
  ])('formatFileSize(%d) = %j', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  it('takes a number of decimals', () => {
    expect(formatFileSize(1_234_567_890, 0)).toBe('1 GB');
    expect(formatFileSize(1_234_567_890, 4)).toBe('1.1498 GB');
  });

  it('property: always a number and one of the five units', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (bytes) => {
        expect(formatFileSize(bytes)).toMatch(/^\d+(\.\d{1,2})? (Bytes|KB|MB|GB|TB)$/);
      }),
    );
  });
});
