import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPhone, isCompletePhone, PHONE_MESSAGES, parsePhone, phoneDigits } from './phone.rules.ts';

describe('North American numbers (spec 000 §5: "Phone inputs keep digits only, at most 10, displayed as (xxx) xxx-xxxx")', () => {
  it.each([
    ['', ''],
    ['5', '(5'],
    ['555', '(555'],
    ['5551', '(555) 1'],
    ['555123', '(555) 123'],
    ['5551234', '(555) 123-4'],
    ['5551234567', '(555) 123-4567'],
    ['5551234567 x89', '(555) 123-4567 ext. 89'],
    [null, ''],
  ])('formatPhone(%j) = %j', (input, expected) => {
    expect(formatPhone(input)).toBe(expected);
  });

  it.each([
    ['(312) 555-0100', '3125550100'],
    ['312.555.0100', '3125550100'],
    ['1 312 555 0100', '3125550100'],
    ['+1 312 555 0100', '3125550100'],
    ['555-123-4567 ext 89', '5551234567 x89'],
    ['555-123-4567 x 89', '5551234567 x89'],
    ['', null],
  ])('parsePhone(%j) stores %j', (input, stored) => {
    expect(parsePhone(input)).toEqual({ ok: true, value: stored });
  });

  it('refuses an incomplete number, too many digits and letters, with a message', () => {
    expect(parsePhone('555-1234')).toEqual({ ok: false, error: PHONE_MESSAGES.northAmerican });
    expect(parsePhone('(555) 123-45678')).toEqual({ ok: false, error: PHONE_MESSAGES.northAmerican });
    expect(parsePhone('call me')).toEqual({ ok: false, error: PHONE_MESSAGES.characters });
    expect(parsePhone('555 CALL NOW')).toEqual({ ok: false, error: PHONE_MESSAGES.characters });
  });
});

describe('numbers of other countries keep their own format, country code and extension', () => {
  it('stores E.164 and shows the international format', () => {
    expect(parsePhone('+44 20 7946 0958')).toEqual({ ok: true, value: '+442079460958' });
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
    expect(parsePhone('+44 20 7946 0958 ext. 12')).toEqual({ ok: true, value: '+442079460958 x12' });
    expect(formatPhone('+442079460958 x12')).toBe('+44 20 7946 0958 ext. 12');
    expect(parsePhone('0033 1 42 68 53 00')).toEqual({ ok: true, value: '+33142685300' });
    expect(formatPhone('+33142685300')).toBe('+33 1 42 68 53 00');
    expect(parsePhone('+49 30 901820')).toEqual({ ok: true, value: '+4930901820' });
  });

  it('is never rewritten into a North American number', () => {
    expect(formatPhone('+44 20 7946 0958')).not.toContain('(442)');
    expect(parsePhone('+44 20 7946 0958').ok && parsePhone('+44 20 7946 0958')).not.toMatchObject({
      value: '4420794609',
    });
  });

  it('is checked against its country', () => {
    expect(parsePhone('+44 20 79')).toEqual({ ok: false, error: PHONE_MESSAGES.international });
    expect(parsePhone('+999 123456')).toEqual({ ok: false, error: PHONE_MESSAGES.international });
    expect(isCompletePhone('+44 20 7946 0958')).toBe(true);
    expect(isCompletePhone('555-1234')).toBe(false);
  });
});

describe('properties', () => {
  it('formatting is idempotent and never empties what was typed', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const once = formatPhone(input);
        expect(formatPhone(once)).toBe(once);
        if (input.trim() !== '') expect(once).not.toBe('');
      }),
    );
  });

  it('a stored number parses back to itself and its display parses back to it too', () => {
    const northAmerican = fc.stringMatching(/^[2-9]\d{9}$/);
    fc.assert(
      fc.property(
        northAmerican,
        fc.option(fc.integer({ min: 1, max: 99999 }), { nil: null }),
        (digits, ext) => {
          const stored = `${digits}${ext === null ? '' : ` x${ext}`}`;
          expect(parsePhone(stored)).toEqual({ ok: true, value: stored });
          expect(parsePhone(formatPhone(stored))).toEqual({ ok: true, value: stored });
        },
      ),
    );
  });

  it('phoneDigits keeps the digits in order, at most ten', () => {
    expect(phoneDigits('+1 (555) 123-4567')).toBe('1555123456');
    expect(phoneDigits(undefined)).toBe('');
  });
});
