import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sumCents } from '../platform/fields/money.ts';
import {
  BILL_FREQUENCY,
  type BillFrequencyOption,
  billFrequencyKind,
  billFrequencyName,
  billsPerTerm,
  changeBillFrequency,
  type FeeItemInput,
  feeItemDiscount,
  feeItemTermAmount,
  isPricedPerBill,
  isValidBillFrequencyId,
  recalculateFeeItem,
  termBillSchedule,
  termTotal,
} from './bill-frequency.rules.ts';

const monthly: BillFrequencyOption = { BillFrequencyTypeId: 1, Name: 'Monthly', PriceChangePercentage: 3 };
const annually: BillFrequencyOption = { BillFrequencyTypeId: 12, Name: 'Annually' };
const fee = (over: Partial<FeeItemInput>): FeeItemInput => ({
  Price: 0,
  OriginalPrice: 0,
  BillFrequencyTypeId: BILL_FREQUENCY.Annually,
  ...over,
});

describe('bill frequency ids (spec 000 §9: "Once Per Term 255, One Time 0, 254 also special; other bill frequency ids divide 12 months")', () => {
  it.each([
    [0, 'oneTime', 'One Time'],
    [255, 'oncePerTerm', 'Once Per Term'],
    [254, 'everyBill', 'Every Bill'],
    [1, 'recurring', 'Monthly'],
    [2, 'recurring', 'Every 2 Months'],
    [3, 'recurring', 'Quarterly'],
    [4, 'recurring', 'Every 4 Months'],
    [6, 'recurring', 'Semi-Annually'],
    [12, 'recurring', 'Annually'],
    [5, null, 'Every 5 months'],
    [24, null, 'Every 24 months'],
  ])('id %i is %s (%s)', (id, kind, name) => {
    expect(billFrequencyKind(id)).toBe(kind);
    expect(isValidBillFrequencyId(id)).toBe(kind !== null);
    expect(billFrequencyName(id)).toBe(name);
  });

  it.each([
    [{ BillFrequencyTypeId: 1 }, 12, 12],
    [{ BillFrequencyTypeId: 3 }, 12, 4],
    [{ BillFrequencyTypeId: 6 }, 12, 2],
    [{ BillFrequencyTypeId: 12 }, 12, 1],
    [{ BillFrequencyTypeId: 12 }, 18, 2],
    [{ BillFrequencyTypeId: 1 }, 0, 12],
    [{ BillFrequencyTypeId: 1, PerBillMultipler: 10 }, 12, 10],
    [{ BillFrequencyTypeId: 1, PerBillMultipler: 0 }, 12, 12],
    [{ BillFrequencyTypeId: 1, PerBillMultipler: 2.5 }, 12, 12],
    [{ BillFrequencyTypeId: 255 }, 12, 1],
  ])('bills per term of %j over %i months = %i', (option, months, expected) => {
    expect(billsPerTerm(option, months)).toBe(expected);
  });
});

describe('"Fee frequency change recalculates the price of each item." (spec 000 §4; decision 0012)', () => {
  it('example 1: $250.00 annual dues billed monthly at +3 %', () => {
    const item = recalculateFeeItem(fee({ OriginalPrice: 25000, Price: 25000 }), monthly);
    expect(item).toMatchObject({
      BillFrequencyTypeId: 1,
      Price: 25750,
      BillFrequency: 12,
      PerBillAmount: 2146,
    });
    expect(termBillSchedule([item], monthly)).toEqual([...Array(10).fill(2146), 2145, 2145]);
  });

  it('example 2: $500.00 dues in 10 school-year payments (PerBillMultipler 10)', () => {
    const tenPayments = { BillFrequencyTypeId: 1, PerBillMultipler: 10 };
    const item = recalculateFeeItem(fee({ OriginalPrice: 50000 }), tenPayments);
    expect(item).toMatchObject({ Price: 50000, BillFrequency: 10, PerBillAmount: 5000 });
  });

  it('example 3: an Every Bill processing fee of $1.50 costs $18.00 a year monthly, $1.50 annually', () => {
    const processing = fee({ BillFrequencyTypeId: 254, PerBillAmount: 150 });
    expect(recalculateFeeItem(processing, monthly)).toMatchObject({
      BillFrequencyTypeId: 254,
      Price: 1800,
      BillFrequency: 12,
      PerBillAmount: 150,
    });
    expect(recalculateFeeItem(processing, annually)).toMatchObject({ Price: 150, BillFrequency: 1 });
    expect(recalculateFeeItem(fee({ BillFrequencyTypeId: 254 }), monthly).Price).toBe(0);
  });

  it('a recurring fee entered per bill (CalcPerBillAmount false) is multiplied, not split', () => {
    const perMonth = fee({ BillFrequencyTypeId: 1, CalcPerBillAmount: false, PerBillAmount: 2500 });
    expect(isPricedPerBill(perMonth)).toBe(true);
    expect(recalculateFeeItem(perMonth, { BillFrequencyTypeId: 3 })).toMatchObject({
      BillFrequencyTypeId: 3,
      Price: 10000,
      BillFrequency: 4,
      PerBillAmount: 2500,
    });
  });

  it('example 4: One Time and Once Per Term fees keep their price', () => {
    const application = fee({ BillFrequencyTypeId: 0, OriginalPrice: 2500, Price: 9 });
    const chapter = fee({ BillFrequencyTypeId: 255, OriginalPrice: 3000 });
    expect(recalculateFeeItem(application, monthly)).toMatchObject({
      Price: 2500,
      BillFrequency: 1,
      PerBillAmount: 2500,
    });
    expect(recalculateFeeItem(chapter, monthly)).toMatchObject({ Price: 3000, BillFrequency: 1 });
    expect(recalculateFeeItem(fee({ BillFrequencyTypeId: 77, OriginalPrice: 100 }), monthly).Price).toBe(100);
  });

  it('example 5: RoundToNearestOnes rounds the changed price to whole dollars', () => {
    const item = recalculateFeeItem(fee({ OriginalPrice: 24999 }), monthly, { roundToNearestOnes: true });
    expect(item.Price).toBe(25700);
    expect(
      recalculateFeeItem(fee({ OriginalPrice: 24999 }), annually, { roundToNearestOnes: true }).Price,
    ).toBe(25000);
  });

  it('a negative price change discounts the term, never below zero', () => {
    const yearlySaving = { BillFrequencyTypeId: 12, PriceChangePercentage: '-5' };
    expect(recalculateFeeItem(fee({ OriginalPrice: 20000 }), yearlySaving).Price).toBe(19000);
    expect(
      recalculateFeeItem(fee({ OriginalPrice: 20000 }), { ...yearlySaving, PriceChangePercentage: -150 })
        .Price,
    ).toBe(0);
    expect(
      recalculateFeeItem(fee({ OriginalPrice: 20000 }), { ...yearlySaving, PriceChangePercentage: '' }).Price,
    ).toBe(20000);
  });

  it('an item collected with the first payment shows its whole term as its bill', () => {
    const item = recalculateFeeItem(
      fee({ OriginalPrice: 12000, IsCollectedWithFirstPayment: true }),
      monthly,
    );
    expect(item.PerBillAmount).toBe(12360);
    expect(termBillSchedule([item], monthly)).toEqual([12360, ...Array(11).fill(0)]);
  });

  it('discounts and quantity apply to the term amount unless the item is excluded from discounts', () => {
    const item = fee({ Price: 10000, Quantity: 3, CurrentDiscountPercent: 10, CurrentDiscountAmount: 500 });
    expect(feeItemDiscount(item)).toBe(3500);
    expect(feeItemTermAmount(item)).toBe(26500);
    expect(feeItemTermAmount({ ...item, IsExcludedFromDiscounts: true })).toBe(30000);
    expect(feeItemTermAmount({ ...item, CurrentDiscountAmount: 1_000_000 })).toBe(0);
    expect(feeItemTermAmount({ ...item, Quantity: Number.NaN })).toBe(0);
    expect(feeItemDiscount({ ...item, CurrentDiscountPercent: '' })).toBe(500);
  });

  it('example 6: the first monthly bill of a new member carries the one-time and once-per-term fees', () => {
    const items = changeBillFrequency(
      [
        fee({ OriginalPrice: 25000 }),
        fee({ BillFrequencyTypeId: 254, PerBillAmount: 150 }),
        fee({ BillFrequencyTypeId: 0, OriginalPrice: 2500 }),
        fee({ BillFrequencyTypeId: 255, OriginalPrice: 3000 }),
      ],
      monthly,
      { durationMonths: 12 },
    );
    const first = termBillSchedule(items, monthly, { durationMonths: 12 });
    expect(first[0]).toBe(7796);
    expect(first.slice(1, 10)).toEqual(Array(9).fill(2296));
    expect(first.slice(10)).toEqual([2295, 2295]);
    expect(sumCents(first)).toBe(33050);
    expect(termTotal(items)).toBe(33050);
    const renewal = termBillSchedule(items, monthly, { firstTerm: false });
    expect(renewal[0]).toBe(5296);
    expect(sumCents(renewal)).toBe(termTotal(items, false));
  });

  const itemArb = fc.record({
    Price: fc.constant(0),
    OriginalPrice: fc.integer({ min: 0, max: 5_000_000 }),
    BillFrequencyTypeId: fc.constantFrom(0, 1, 2, 3, 4, 6, 12, 254, 255),
    Quantity: fc.option(fc.integer({ min: 0, max: 10 })),
    IsCollectedWithFirstPayment: fc.boolean(),
    IsExcludedFromDiscounts: fc.boolean(),
    CurrentDiscountPercent: fc.option(fc.integer({ min: 0, max: 100 })),
    CurrentDiscountAmount: fc.option(fc.integer({ min: 0, max: 100_000 })),
    CalcPerBillAmount: fc.option(fc.boolean()),
    PerBillAmount: fc.option(fc.integer({ min: 0, max: 100_000 })),
  });
  const optionArb = fc.record({
    BillFrequencyTypeId: fc.constantFrom(1, 2, 3, 4, 6, 12),
    PriceChangePercentage: fc.option(fc.integer({ min: -50, max: 50 })),
    PerBillMultipler: fc.option(fc.integer({ min: 0, max: 24 })),
  });

  it('property: the per-bill amounts add up to the term price after rounding', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 6 }),
        optionArb,
        fc.constantFrom(6, 12, 24),
        fc.boolean(),
        fc.boolean(),
        (raw, option, durationMonths, roundToNearestOnes, firstTerm) => {
          const items = changeBillFrequency(raw, option, { durationMonths, roundToNearestOnes });
          const bills = termBillSchedule(items, option, { durationMonths, firstTerm });
          expect(bills).toHaveLength(billsPerTerm(option, durationMonths));
          expect(sumCents(bills)).toBe(termTotal(items, firstTerm));
          for (const bill of bills) expect(bill).toBeGreaterThanOrEqual(0);
          for (const item of items) {
            expect(item.Price).toBeGreaterThanOrEqual(0);
            if (roundToNearestOnes && !isPricedPerBill(item)) expect(item.Price % 100).toBe(0);
          }
        },
      ),
    );
  });

  it('property: a spread item bills within one cent of equal amounts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), optionArb, (price, option) => {
        const [item] = changeBillFrequency([fee({ OriginalPrice: price, BillFrequencyTypeId: 1 })], option);
        const bills = termBillSchedule(item ? [item] : [], option);
        expect(Math.max(...bills) - Math.min(...bills)).toBeLessThanOrEqual(1);
        expect(bills[0]).toBe(item?.PerBillAmount);
      }),
    );
  });
});
