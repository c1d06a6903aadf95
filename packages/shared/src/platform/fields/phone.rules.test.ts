import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPhone, isCompletePhone, phoneDigits } from './phone.rules.ts';

describe('phone input (spec 000 §5: "Phone inputs keep digits only, at most 10, displayed as (xxx) xxx-xxxx")', () => {
  it.each([
    ['', ''],
    ['5', '(5'],
    ['555', '(555'],
    ['5551', '(555) 1'],
    ['555123', '(555) 123'],
    ['5551234', '(555) 123-4'],
    ['5551234567', '(555) 123-4567'],
    ['555-123-4567 ext 89', '(555) 123-4567'],
    ['(555) 123-45678', '(555) 123-4567'],
    ['abc', ''],
    [null, ''],
  ])('formatPhone(%j) = %j', (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });

  it('keeps digits only and knows a complete number', () => {
    expect(phoneDigits('+1 (555) 123-4567')).toBe('1555123456');
    expect(phoneDigits(undefined)).toBe('');
    expect(isCompletePhone('(555) 123-4567')).toBe(true);
    expect(isCompletePhone('555-1234')).toBe(false);
  });

  it('property: formatting is idempotent, keeps at most 10 digits and keeps them in order', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const once = formatPhone(input);
        expect(formatPhone(once)).toBe(once);
        expect(phoneDigits(once)).toBe(phoneDigits(input));
        expect(phoneDigits(once).length).toBeLessThanOrEqual(10);
      }),
    );
  });
});
