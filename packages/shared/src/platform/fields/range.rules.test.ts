import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bitmaskToKeys,
  DECIMAL_RANGE_OPEN_END,
  DECIMAL_RANGE_OPEN_START,
  describeDecimalRange,
  fromDecimalRange,
  isFlagKey,
  isInDecimalRange,
  isValidDecimalRange,
  keysToBitmask,
  MAX_FLAG_BIT,
  parseDecimalRange,
  toDecimalRange,
  toggleFlag,
} from './range.rules.ts';

describe('decimal range (spec 001 §3: "An open start is stored as -2147483647 and an open end as 2147483647.")', () => {
  it('stores open bounds as the sentinels and reads them back as open', () => {
    expect(DECIMAL_RANGE_OPEN_START).toBe(-2147483647);
    expect(DECIMAL_RANGE_OPEN_END).toBe(2147483647);
    expect(toDecimalRange({ start: null, end: 10.5 })).toEqual({ StartValue: -2147483647, EndValue: 10.5 });
    expect(toDecimalRange({ start: 1, end: null })).toEqual({ StartValue: 1, EndValue: 2147483647 });
    expect(fromDecimalRange({ StartValue: -2147483647, EndValue: 2147483647 })).toEqual({
      start: null,
      end: null,
    });
    expect(fromDecimalRange({ StartValue: 0, EndValue: 3 })).toEqual({ start: 0, end: 3 });
    expect(isInDecimalRange(5, toDecimalRange({ start: null, end: 5 }))).toBe(true);
    expect(isInDecimalRange(6, toDecimalRange({ start: null, end: 5 }))).toBe(false);
    expect(isValidDecimalRange({ StartValue: 2, EndValue: 1 })).toBe(false);
    expect(isValidDecimalRange({ StartValue: 1, EndValue: 1 })).toBe(true);
  });

  it('property: a range round-trips', () => {
    const bound = fc.option(fc.double({ min: -1e9, max: 1e9, noNaN: true }));
    fc.assert(
      fc.property(bound, bound, (start, end) => {
        expect(fromDecimalRange(toDecimalRange({ start, end }))).toEqual({ start, end });
      }),
    );
  });
});

describe('decimal range as a client sends it', () => {
  it('takes an empty side as open, text as a number, and refuses what is not a number or past the open ends', () => {
    expect(parseDecimalRange({ StartValue: null, EndValue: '12.5' })).toEqual({
      value: { StartValue: DECIMAL_RANGE_OPEN_START, EndValue: 12.5 },
    });
    expect(parseDecimalRange({ StartValue: 3, EndValue: '' })).toEqual({
      value: { StartValue: 3, EndValue: DECIMAL_RANGE_OPEN_END },
    });
    expect(parseDecimalRange({})).toEqual({
      value: { StartValue: DECIMAL_RANGE_OPEN_START, EndValue: DECIMAL_RANGE_OPEN_END },
    });
    expect(parseDecimalRange({ StartValue: 'ten', EndValue: 3 })).toEqual({ error: 'shape' });
    expect(parseDecimalRange({ StartValue: -3e9, EndValue: 3 })).toEqual({ error: 'shape' });
    expect(parseDecimalRange([1, 2])).toEqual({ error: 'shape' });
    expect(parseDecimalRange({ StartValue: 4, EndValue: 3 })).toEqual({ error: 'order' });
  });

  it('round-trips every range a form can hold, open sides included', () => {
    const side = fc.option(fc.double({ min: -1e9, max: 1e9, noNaN: true }), { nil: null });
    fc.assert(
      fc.property(side, side, (a, b) => {
        const [start, end] = a !== null && b !== null && a > b ? [b, a] : [a, b];
        const stored = toDecimalRange({ start, end });
        const parsed = parseDecimalRange({ StartValue: start, EndValue: end });
        expect(parsed).toEqual({ value: stored });
        expect(fromDecimalRange(stored)).toEqual({ start, end });
      }),
    );
  });

  it('reads open sides in words', () => {
    expect(describeDecimalRange(toDecimalRange({ start: null, end: null }))).toBe('any');
    expect(describeDecimalRange(toDecimalRange({ start: 2, end: null }))).toBe('at least 2');
    expect(describeDecimalRange(toDecimalRange({ start: null, end: 9 }))).toBe('at most 9');
    expect(describeDecimalRange(toDecimalRange({ start: 2, end: 9 }))).toBe('2 – 9');
  });
});

describe('multi-select models (spec 001 §3: "a flags-style model is an integer bitmask; an array-style model is a list of keys")', () => {
  it.each([
    [0, []],
    [1, [1]],
    [13, [1, 4, 8]],
    [65536, [65536]],
    [65537, [1, 65536]],
    [-1, []],
    [1.5, []],
  ])('bitmaskToKeys(%d) = %j', (mask, keys) => {
    expect(bitmaskToKeys(mask)).toEqual(keys);
  });

  it('builds masks from keys, ignoring repeats and non-flags', () => {
    expect(keysToBitmask([8, 1, 4, 4])).toBe(13);
    expect(keysToBitmask([3, 0, -2, 2.5, 2])).toBe(2);
    expect(keysToBitmask([2 ** MAX_FLAG_BIT])).toBe(2 ** 52);
    expect(isFlagKey(2 ** 53)).toBe(false);
    expect(toggleFlag(13, 4)).toBe(9);
    expect(toggleFlag(9, 4)).toBe(13);
    expect(toggleFlag(9, 3)).toBe(9);
  });

  const flag = fc.integer({ min: 0, max: MAX_FLAG_BIT }).map((bit) => 2 ** bit);

  it('property: mask -> keys -> mask round-trips', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (mask) => {
        expect(keysToBitmask(bitmaskToKeys(mask))).toBe(mask);
      }),
    );
  });

  it('property: keys -> mask -> keys gives the sorted distinct keys', () => {
    fc.assert(
      fc.property(fc.array(flag, { maxLength: 20 }), (keys) => {
        const expected = [...new Set(keys)].sort((a, b) => a - b);
        expect(bitmaskToKeys(keysToBitmask(keys))).toEqual(expected);
      }),
    );
  });
});
