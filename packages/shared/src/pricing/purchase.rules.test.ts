import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculatePurchase, itemDiscount, type PurchaseInput, purchaseDiscount } from './purchase.rules.ts';

const TODAY = '2026-05-15';

describe('purchase totals (spec 000 §3, §5)', () => {
  it('works the example of decision 0011 end to end', () => {
    const purchase: PurchaseInput = {
      ContactId: 42,
      IsTaxExempt: false,
      TaxRegionId: 1,
      PurchaseItems: [
        {
          Price: 2500,
          Quantity: 2,
          TaxSetId: 1,
          ItemTaxSetRate: 7,
          ItemTaxSetFloatAmount: 150,
          RegionIds: [1],
        },
        { Price: 10000, Quantity: 1, ItemDiscountPercent: 10, TaxSetId: null },
        { Price: 9999, Quantity: 3, isDeleted: true, TaxSetId: 1, ItemTaxSetRate: 7 },
      ],
      DiscountItems: [
        { StartDate: '2026-05-01', EndDate: '2026-05-31', DiscountAmount: 1400 },
        { StartDate: '2026-01-01', EndDate: '2026-01-31', DiscountPercent: 50 },
      ],
      CreditItems: [{ Amount: 1000, Quantity: 1 }],
    };
    const totals = calculatePurchase(purchase, { today: TODAY });
    expect(totals.Subtotal).toBe(15000);
    expect(totals.ItemDiscountTotal).toBe(1000);
    expect(totals.PurchaseDiscountTotal).toBe(1400);
    expect(totals.Lines.map((line) => line.TotalDiscount)).toEqual([500, 1900, 0]);
    // line 1 net 4500: 7% = 315, plus 2 x 150 = 300
    expect(totals.Lines.map((line) => line.TaxAmount)).toEqual([615, 0, 0]);
    expect(totals.Lines.map((line) => line.Total)).toEqual([5115, 8100, 0]);
    expect(totals.TaxAmount).toBe(615);
    expect(totals.ItemsTotal).toBe(13215);
    expect(totals.CreditTotal).toBe(1000);
    expect(totals.Total).toBe(12215);
  });

  it('"Tax is not charged if the contact is tax exempt or there is no contact."', () => {
    const items = [{ Price: 1000, Quantity: 1, TaxSetId: 1, ItemTaxSetRate: 10 }];
    expect(calculatePurchase({ ContactId: 1, PurchaseItems: items }, { today: TODAY }).TaxAmount).toBe(100);
    expect(
      calculatePurchase({ ContactId: 1, IsTaxExempt: true, PurchaseItems: items }, { today: TODAY })
        .TaxAmount,
    ).toBe(0);
    expect(calculatePurchase({ ContactId: null, PurchaseItems: items }, { today: TODAY }).TaxAmount).toBe(0);
  });

  it('"An item total is floored at 0" and credits never make the total negative', () => {
    const totals = calculatePurchase(
      {
        ContactId: 1,
        PurchaseItems: [{ Price: 1000, Quantity: 1, ItemDiscountAmount: 5000 }],
        CreditItems: [{ Amount: 300, Quantity: 2 }],
      },
      { today: TODAY },
    );
    expect(totals.Lines[0]?.Total).toBe(0);
    expect(totals.Lines[0]?.TotalDiscount).toBe(1000);
    expect(totals.CreditTotal).toBe(0);
    expect(totals.Total).toBe(0);
  });

  it('counts nothing for deleted items and treats odd quantities as whole units', () => {
    const totals = calculatePurchase(
      {
        ContactId: 1,
        PurchaseItems: [
          { Price: 1000, Quantity: 2.9 },
          { Price: 1000, Quantity: -3 },
          { Price: 1000, Quantity: Number.NaN },
          { Price: 500, Quantity: 1, isDeleted: true },
        ],
      },
      { today: new Date('2026-05-15T12:00:00Z'), timeZone: 'America/New_York' },
    );
    expect(totals.Subtotal).toBe(2000);
    expect(totals.Lines[3]).toMatchObject({ isDeleted: true, Gross: 0, Total: 0 });
  });

  it('item and purchase discounts', () => {
    expect(
      itemDiscount({ Price: 1000, Quantity: 3, ItemDiscountPercent: '10', ItemDiscountAmount: 50 }),
    ).toBe(350);
    expect(
      itemDiscount({ Price: 1000, Quantity: 1, ItemDiscountPercent: '', ItemDiscountAmount: null }),
    ).toBe(0);
    expect(purchaseDiscount(10000, [{ DiscountPercent: 10 }, { DiscountAmount: 500 }], TODAY)).toBe(1500);
    expect(purchaseDiscount(1000, [{ DiscountAmount: 5000 }], TODAY)).toBe(1000);
    expect(purchaseDiscount(1000, [{ DiscountAmount: 500, EndDate: '2026-01-01' }], TODAY)).toBe(0);
  });

  const itemArb = fc.record({
    Price: fc.integer({ min: -1000, max: 1_000_000 }),
    Quantity: fc.integer({ min: -2, max: 50 }),
    ItemDiscountAmount: fc.option(fc.integer({ min: -100, max: 2_000_000 })),
    ItemDiscountPercent: fc.option(fc.integer({ min: 0, max: 100 })),
    TaxSetId: fc.option(fc.integer({ min: 1, max: 3 })),
    ItemTaxSetRate: fc.option(
      fc.double({ min: 0, max: 25, noNaN: true }).map((rate) => Number(rate.toFixed(3))),
    ),
    ItemTaxSetFloatAmount: fc.option(fc.integer({ min: 0, max: 500 })),
    RegionIds: fc.option(fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 3 })),
    isDeleted: fc.boolean(),
  });
  const purchaseArb = fc.record({
    ContactId: fc.option(fc.integer({ min: 1, max: 100 })),
    IsTaxExempt: fc.boolean(),
    TaxRegionId: fc.option(fc.integer({ min: 1, max: 4 })),
    ContactTaxSetRate: fc.option(fc.integer({ min: 0, max: 15 })),
    PurchaseItems: fc.array(itemArb, { maxLength: 8 }),
    DiscountItems: fc.array(
      fc.record({
        DiscountAmount: fc.option(fc.integer({ min: 0, max: 100_000 })),
        DiscountPercent: fc.option(fc.integer({ min: 0, max: 100 })),
      }),
      { maxLength: 3 },
    ),
    CreditItems: fc.array(
      fc.record({
        Amount: fc.integer({ min: -100, max: 100_000 }),
        Quantity: fc.integer({ min: 0, max: 5 }),
      }),
      { maxLength: 3 },
    ),
  });

  it('property: every total is a whole number of cents and never negative', () => {
    fc.assert(
      fc.property(purchaseArb, (purchase) => {
        const totals = calculatePurchase(purchase, { today: TODAY });
        for (const line of totals.Lines) {
          expect(Number.isSafeInteger(line.Total)).toBe(true);
          expect(line.Total).toBeGreaterThanOrEqual(0);
          expect(line.TaxAmount).toBeGreaterThanOrEqual(0);
          expect(line.TotalDiscount).toBeLessThanOrEqual(line.Gross);
        }
        expect(totals.Total).toBeGreaterThanOrEqual(0);
        expect(totals.ItemsTotal).toBe(totals.Lines.reduce((sum, line) => sum + line.Total, 0));
        expect(totals.Total).toBe(totals.ItemsTotal - totals.CreditTotal);
        expect(totals.ItemsTotal).toBe(totals.Subtotal - totals.DiscountTotal + totals.TaxAmount);
      }),
    );
  });

  it('property: no tax when exempt or without a contact', () => {
    fc.assert(
      fc.property(purchaseArb, fc.boolean(), (purchase, exempt) => {
        const untaxed = exempt ? { ...purchase, IsTaxExempt: true } : { ...purchase, ContactId: null };
        const totals = calculatePurchase(untaxed, { today: TODAY });
        expect(totals.TaxAmount).toBe(0);
        for (const line of totals.Lines) expect(line.TaxAmount).toBe(0);
      }),
    );
  });

  it('property: deleted items count for nothing', () => {
    fc.assert(
      fc.property(purchaseArb, itemArb, (purchase, extra) => {
        const withDeleted = {
          ...purchase,
          PurchaseItems: [...purchase.PurchaseItems, { ...extra, isDeleted: true }],
        };
        const a = calculatePurchase(purchase, { today: TODAY });
        const b = calculatePurchase(withDeleted, { today: TODAY });
        expect(b.Total).toBe(a.Total);
        expect(b.TaxAmount).toBe(a.TaxAmount);
      }),
    );
  });
});
