import { describe, expect, it } from 'vitest';
import {
  activeDiscountMode,
  chooseDiscount,
  discountEditorError,
  discountFromEditor,
  EMPTY_DISCOUNT,
  isDiscountActive,
} from './discount.rules.ts';

describe('discount editor (spec 000 §5)', () => {
  it('"exactly one of percentage, amount or fixed price is active; choosing one clears the others."', () => {
    const percent = chooseDiscount('percentage', 10);
    expect(percent).toEqual({ DiscountPercent: 10, DiscountAmount: null, FixedPrice: null });
    const amount = chooseDiscount('amount', 500);
    expect(amount).toEqual({ DiscountPercent: null, DiscountAmount: 500, FixedPrice: null });
    const fixed = chooseDiscount('fixedPrice', '1500');
    expect(fixed).toEqual({ DiscountPercent: null, DiscountAmount: null, FixedPrice: 1500 });
    expect(chooseDiscount('amount', null)).toEqual(EMPTY_DISCOUNT);
    expect(chooseDiscount('percentage', '')).toEqual(EMPTY_DISCOUNT);
    expect(activeDiscountMode(percent)).toBe('percentage');
    expect(activeDiscountMode(amount)).toBe('amount');
    expect(activeDiscountMode(fixed)).toBe('fixedPrice');
    expect(activeDiscountMode(EMPTY_DISCOUNT)).toBeNull();
  });

  it.each([
    [chooseDiscount('percentage', 10), 2000, 200],
    [chooseDiscount('percentage', 150), 2000, 2000],
    [chooseDiscount('amount', 500), 2000, 500],
    [chooseDiscount('amount', 5000), 2000, 2000],
    [chooseDiscount('fixedPrice', 1500), 2000, 500],
    [chooseDiscount('fixedPrice', 2500), 2000, 0],
    [EMPTY_DISCOUNT, 2000, 0],
  ])('discount of %j on %i is %i', (state, price, expected) => {
    expect(discountFromEditor(price, state)).toBe(expected);
  });

  it('explains unusable states', () => {
    expect(discountEditorError(EMPTY_DISCOUNT)).toBeNull();
    expect(discountEditorError(chooseDiscount('percentage', 15))).toBeNull();
    expect(discountEditorError({ DiscountPercent: 5, DiscountAmount: 100, FixedPrice: null })).toMatch(
      /one of/,
    );
    expect(discountEditorError(chooseDiscount('amount', -1))).toMatch(/negative/);
    expect(discountEditorError(chooseDiscount('percentage', 101))).toMatch(/at most 100/);
  });

  it('"A discount applies only between its StartDate and EndDate", both days included', () => {
    const may = { StartDate: '2026-05-01', EndDate: '2026-05-31' };
    expect(isDiscountActive(may, '2026-05-01')).toBe(true);
    expect(isDiscountActive(may, '2026-05-31')).toBe(true);
    expect(isDiscountActive(may, '2026-04-30')).toBe(false);
    expect(isDiscountActive(may, '2026-06-01')).toBe(false);
    expect(isDiscountActive({}, '2026-06-01')).toBe(true);
    expect(isDiscountActive({ EndDate: null, StartDate: '2026-01-01' }, '2030-01-01')).toBe(true);
    // 2026-06-01T03:00Z is still May 31 in Chicago
    expect(isDiscountActive(may, new Date('2026-06-01T03:00:00Z'))).toBe(true);
    expect(isDiscountActive(may, new Date('2026-06-01T03:00:00Z'), 'UTC')).toBe(false);
  });
});
