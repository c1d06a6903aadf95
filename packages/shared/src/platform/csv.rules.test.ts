import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, isFormula } from './csv.rules.ts';

describe('csvField', () => {
  it.each([
    ["=cmd|' /C calc'!A0", `"'=cmd|' /C calc'!A0"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+1+2', `"'+1+2"`],
    ['-1+2', `"'-1+2"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['-12.50', '-12.50'],
    ['-3', '-3'],
    ['Montréal', 'Montréal'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('writes %j as %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('writes null as an empty field', () => {
    expect(csvField(null)).toBe('');
  });

  it('never starts a field with a formula character outside quotes, and defuses every formula', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        const field = csvField(value);
        const unquoted = field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
        expect(isFormula(unquoted)).toBe(false);
        expect(unquoted).toBe(isFormula(value) ? `'${value}` : value);
      }),
    );
  });
});
