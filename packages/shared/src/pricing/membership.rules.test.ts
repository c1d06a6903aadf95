import { describe, expect, it } from 'vitest';
import { sumCents } from '../platform/fields/money.ts';
import {
  type FeePriceRow,
  feeListsByKind,
  levelFromCustomFieldValue,
  membershipName,
  priceMembership,
  selectFeePrices,
} from './membership.rules.ts';
import type { UnitFormula } from './unit-formula.rules.ts';

/** The chamber-of-commerce dues table of docs/decisions/0013-unit-formulas.md. */
const employeeDues: UnitFormula[] = [
  { MinUnits: 1, MaxUnits: 10, BaseAmount: 30000 },
  { MinUnits: 11, MaxUnits: 50, BaseAmount: 30000, PerUnitAmount: 600, UnitsIncluded: 10 },
  { MinUnits: 51, MaxUnits: null, BaseAmount: 54000, PerUnitAmount: 400, UnitsIncluded: 50 },
];

describe('membership model (spec 000 §3)', () => {
  it.each([
    [{ TypeName: 'Business', LevelName: 'Gold', ChapterName: 'North' }, 'Business - Gold - North'],
    [{ TypeName: 'Business', LevelName: null, ChapterName: 'North' }, 'Business - North'],
    [{ TypeName: 'Individual', LevelName: '  ', ChapterName: undefined }, 'Individual'],
    [{}, ''],
  ])('"Name (built as type - level - chapter)": %j -> %j', (parts, expected) => {
    expect(membershipName(parts)).toBe(expected);
  });

  it('sorts fees into the recurring, once-per-term and one-time lists', () => {
    const lists = feeListsByKind([
      { Price: 1, OriginalPrice: 1, BillFrequencyTypeId: 12 },
      { Price: 2, OriginalPrice: 2, BillFrequencyTypeId: 255 },
      { Price: 3, OriginalPrice: 3, BillFrequencyTypeId: 0 },
      { Price: 4, OriginalPrice: 4, BillFrequencyTypeId: 254 },
    ]);
    expect(lists.FeeItems.map((item) => item.Price)).toEqual([1, 4]);
    expect(lists.OncePerTermFeeItems.map((item) => item.Price)).toEqual([2]);
    expect(lists.OneTimeFeeItems.map((item) => item.Price)).toEqual([3]);
  });

  const row = (
    FeeId: number,
    Price: number,
    MembershipLevelId?: number,
    ChapterId?: number,
  ): FeePriceRow => ({
    FeeId,
    Price,
    OriginalPrice: Price,
    BillFrequencyTypeId: 12,
    MembershipLevelId: MembershipLevelId ?? null,
    ChapterId: ChapterId ?? null,
  });
  const rows = [
    row(1, 100),
    row(1, 200, 5),
    row(1, 300, 5, 9),
    row(1, 400, undefined, 9),
    row(2, 50),
    row(3, 70, 6),
  ];

  it.each([
    [{ MembershipLevelId: 5, ChapterId: 9, HasLevelPricing: true, HasChapterPricing: true }, [300, 50]],
    [{ MembershipLevelId: 5, ChapterId: 8, HasLevelPricing: true, HasChapterPricing: true }, [200, 50]],
    [{ MembershipLevelId: 4, ChapterId: 9, HasLevelPricing: true, HasChapterPricing: true }, [400, 50]],
    [{ MembershipLevelId: 5, ChapterId: 9, HasLevelPricing: false, HasChapterPricing: false }, [100, 50]],
    [{ MembershipLevelId: 6, HasLevelPricing: true }, [100, 50, 70]],
  ])('level and chapter pricing for %j', (selection, prices) => {
    expect(selectFeePrices(rows, selection).map((selected) => selected.Price)).toEqual(prices);
  });

  it('picks the level from the level-selection custom field', () => {
    const rules = [
      { MembershipLevelId: 1, MinValue: 1, MaxValue: 10 },
      { MembershipLevelId: 2, MinValue: 11, MaxValue: null },
      { MembershipLevelId: 3, Values: ['Nonprofit', 'Government'] },
    ];
    expect(levelFromCustomFieldValue(rules, 4)).toBe(1);
    expect(levelFromCustomFieldValue(rules, '25')).toBe(2);
    expect(levelFromCustomFieldValue(rules, ' nonprofit ')).toBe(3);
    expect(levelFromCustomFieldValue(rules, 'Retail')).toBeNull();
    expect(levelFromCustomFieldValue(rules, 0)).toBeNull();
    expect(levelFromCustomFieldValue(rules, '')).toBeNull();
    expect(levelFromCustomFieldValue(rules, null)).toBeNull();
    expect(levelFromCustomFieldValue([{ MembershipLevelId: 9, MaxValue: 3 }], -2)).toBe(9);
  });

  it('prices a formula-based business membership billed quarterly', () => {
    const price = priceMembership(
      {
        TypeName: 'Business',
        LevelName: 'Standard',
        ChapterName: null,
        FormulaBasedPricing: true,
        HasLevelPricing: true,
        LevelSelectionCustomFieldId: 31,
        LevelSelectionRules: [
          { MembershipLevelId: 1, MinValue: 1, MaxValue: 50 },
          { MembershipLevelId: 2, MinValue: 51 },
        ],
        MembershipLevelId: 1,
        DurationMonths: 12,
        RoundToNearestOnes: true,
        FeesList: [
          { ...row(10, 0), UnitFormulas: employeeDues },
          {
            ...row(10, 0, 2),
            UnitFormulas: employeeDues.map((f) => ({ ...f, BaseAmount: f.BaseAmount + 5000 })),
          },
          { ...row(11, 2500), BillFrequencyTypeId: 0 },
          { ...row(12, 0), UnitFormulas: [{ MinUnits: 500, BaseAmount: 1 }] },
        ],
      },
      { frequency: { BillFrequencyTypeId: 3, PriceChangePercentage: 2 }, units: 120, levelFieldValue: '120' },
    );
    expect(price.Name).toBe('Business - Standard');
    expect(price.MembershipLevelId).toBe(2);
    // level 2 formula: 54000 + 5000 + 400 x 70 = 87000; +2 % = 88740; rounded to 88700
    expect(price.FeeItems[0]).toMatchObject({
      FeeId: 10,
      Price: 88700,
      BillFrequency: 4,
      PerBillAmount: 22175,
    });
    expect(price.OneTimeFeeItems[0]).toMatchObject({ FeeId: 11, Price: 2500 });
    expect(price.UnpricedFeeIds).toEqual([12]);
    expect(price.Bills).toEqual([24675, 22175, 22175, 22175]);
    expect(price.TermTotal).toBe(sumCents(price.Bills));
    expect(price.DurationMonths).toBe(12);
  });

  it('a renewal leaves out one-time fees; no formula pricing keeps the set price', () => {
    const price = priceMembership(
      {
        FeesList: [
          { ...row(1, 12000), UnitFormulas: employeeDues },
          { ...row(2, 2500), BillFrequencyTypeId: 0 },
        ],
        DurationMonths: 0,
      },
      { frequency: { BillFrequencyTypeId: 12 }, firstTerm: false },
    );
    expect(price.Bills).toEqual([12000]);
    expect(price.TermTotal).toBe(12000);
    expect(price.MembershipLevelId).toBeNull();
  });
});
