import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateByWeights,
  allocateEvenly,
  assertCents,
  centsToDecimalString,
  currencyCode,
  currencySymbol,
  formatMoney,
  fromCents,
  multiplyCents,
  parseDecimal,
  percentOf,
  ratioOf,
  roundDiv,
  roundToNearestOnes,
  sumCents,
  toCents,
  tryToCents,
} from './money.ts';

describe('money: integer cents, one rounding point, half away from zero (decision 0010)', () => {
  it.each([
    [5n, 2n, 3n],
    [-5n, 2n, -3n],
    [5n, -2n, -3n],
    [7n, 3n, 2n],
    [8n, 3n, 3n],
    [-8n, 3n, -3n],
    [0n, 7n, 0n],
    [24999n, 10000n, 2n],
    [25000n, 10000n, 3n],
  ])('roundDiv(%s, %s) = %s', (n, d, expected) => {
    expect(roundDiv(n, d)).toBe(expected);
  });

  it('refuses to divide by zero', () => {
    expect(() => roundDiv(1n, 0n)).toThrow(RangeError);
  });

  it.each([
    ['12.50', 1250],
    [12.5, 1250],
    ['1.005', 101],
    [1.005, 101],
    ['-1.005', -101],
    ['0.125', 13],
    ['-0.125', -13],
    ['0.124', 12],
    [0.1 + 0.2, 30],
    ['1e2', 10000],
    ['1.5e-1', 15],
    ['.5', 50],
    ['5.', 500],
    ['+3', 300],
    ['  7.25 ', 725],
  ])('tryToCents(%j) = %j', (input, expected) => {
    expect(tryToCents(input)).toBe(expected);
  });

  it.each([
    ['abc'],
    [''],
    ['.'],
    ['1.2.3'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    ['1e999'],
    ['1,000'],
    [1e21],
  ])('tryToCents(%j) is null', (input) => {
    expect(tryToCents(input)).toBeNull();
  });

  it('tryToCents of null or undefined is null; toCents throws on non-decimals', () => {
    expect(tryToCents(null)).toBeNull();
    expect(tryToCents(undefined)).toBeNull();
    expect(() => toCents('x')).toThrow(RangeError);
    expect(toCents('19.99')).toBe(1999);
  });

  it('parseDecimal keeps the exact digits', () => {
    expect(parseDecimal('0.1')).toEqual({ units: 1n, scale: 1 });
    expect(parseDecimal(-2.5)).toEqual({ units: -25n, scale: 1 });
    expect(parseDecimal('3e2')).toEqual({ units: 300n, scale: 0 });
  });

  it('converts back for JSON, SQL and people', () => {
    expect(fromCents(1250)).toBe(12.5);
    expect(centsToDecimalString(-5)).toBe('-0.05');
    expect(centsToDecimalString(123456)).toBe('1234.56');
    expect(centsToDecimalString(0)).toBe('0.00');
    expect(formatMoney(123450)).toBe('$1,234.50');
    expect(formatMoney(-500)).toBe('-$5.00');
    expect(formatMoney(1000, { currency: 'EUR', locale: 'de-DE' })).toMatch(/10,00/);
    expect(formatMoney(1000, { currency: 'EUR' })).toBe('€10.00');
    expect(formatMoney(250, { currency: 'EUR' })).toBe('€2.50');
  });

  it("reads an association's currency setting, USD when it names none", () => {
    expect(currencyCode('EUR')).toBe('EUR');
    expect(currencyCode(' gbp ')).toBe('GBP');
    expect(currencyCode('EURO')).toBe('USD');
    expect(currencyCode('euro')).toBe('USD');
    expect(currencyCode(null)).toBe('USD');
    expect(currencyCode(undefined)).toBe('USD');
    expect(currencySymbol()).toBe('$');
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('CHF')).toBe('CHF');
    expect(() => fromCents(1.5)).toThrow(RangeError);
    expect(() => assertCents(Number.NaN)).toThrow(RangeError);
  });

  it.each([
    [1999, 7.25, 145],
    [1999, '8.875', 177],
    [200, 2.5, 5],
    [-200, 2.5, -5],
    [10000, 0.1, 10],
    [5, 10, 1],
    [4, 12.5, 1],
  ])('percentOf(%i, %j) = %i', (cents, percent, expected) => {
    expect(percentOf(cents, percent)).toBe(expected);
  });

  it('multiplies and takes ratios with one rounding', () => {
    expect(multiplyCents(333, '1.5')).toBe(500);
    expect(multiplyCents(100, 0.125)).toBe(13);
    expect(ratioOf(1000, 1, 3)).toBe(333);
    expect(ratioOf(1000, 2, 3)).toBe(667);
    expect(() => multiplyCents(1, 'x')).toThrow(RangeError);
    expect(() => percentOf(1, 'x')).toThrow(RangeError);
    expect(() => multiplyCents(Number.MAX_SAFE_INTEGER, 10)).toThrow(RangeError);
  });

  it.each([
    [12350, 12400],
    [12349, 12300],
    [-12350, -12400],
    [50, 100],
    [49, 0],
  ])('roundToNearestOnes(%i) = %i', (cents, expected) => {
    expect(roundToNearestOnes(cents)).toBe(expected);
  });

  it('sums and splits exactly', () => {
    expect(sumCents([1, 2, 3])).toBe(6);
    expect(allocateEvenly(1000, 3)).toEqual([334, 333, 333]);
    expect(allocateEvenly(-1000, 3)).toEqual([-334, -333, -333]);
    expect(allocateEvenly(0, 2)).toEqual([0, 0]);
    expect(() => allocateEvenly(100, 0)).toThrow(RangeError);
    expect(allocateByWeights(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateByWeights(1000, [500, 300, 200])).toEqual([500, 300, 200]);
    expect(allocateByWeights(10, [0, 3, 0])).toEqual([0, 10, 0]);
    expect(allocateByWeights(10, [0, 0])).toEqual([5, 5]);
    expect(allocateByWeights(-7, [1, 1])).toEqual([-4, -3]);
    expect(allocateByWeights(5, [])).toEqual([]);
    expect(() => allocateByWeights(5, [-1])).toThrow(RangeError);
  });

  it('property: an even split adds up and parts differ by at most one cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 1, max: 60 }), (total, parts) => {
        const shares = allocateEvenly(total, parts);
        expect(sumCents(shares)).toBe(total);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('property: a weighted split adds up and gives nothing to zero weights', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 20 }),
        (total, weights) => {
          const shares = allocateByWeights(total, weights);
          expect(sumCents(shares)).toBe(total);
          if (weights.some((weight) => weight > 0)) {
            weights.forEach((weight, index) => {
              if (weight === 0) expect(shares[index]).toBe(0);
            });
          }
        },
      ),
    );
  });

  it('property: a two-decimal text converts to cents exactly and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(toCents(centsToDecimalString(cents))).toBe(cents);
        expect(toCents(fromCents(cents))).toBe(cents);
      }),
    );
  });

  it('property: rounding is symmetric around zero', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (n, d) => {
          expect(roundDiv(-n, d)).toBe(-roundDiv(n, d));
        },
      ),
    );
  });
});
