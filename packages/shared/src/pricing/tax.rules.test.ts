import { describe, expect, it } from 'vitest';
import { effectiveTaxSet, hasTaxSet, isTaxCharged, lineTax } from './tax.rules.ts';

const taxable = { ContactId: 7, IsTaxExempt: false };

describe('tax sets (decision 0011): rate percent of the net plus a flat amount per unit', () => {
  it.each([
    // worked examples of docs/decisions/0011-tax-sets.md
    ['8.25% of $19.99 x 1', 1999, 1, { Rate: 8.25 }, 165],
    ['7% of $25.00 plus $1.50 per ticket x 2', 5000, 2, { Rate: 7, FloatAmount: 150 }, 650],
    ['flat only, $2.00 per night x 3', 45000, 3, { Rate: 0, FloatAmount: 200 }, 600],
    ['a fully discounted line carries no tax', 0, 2, { Rate: 7, FloatAmount: 150 }, 0],
    ['no set, no tax', 1000, 1, null, 0],
    ['half a cent rounds away from zero: 5% of $0.10', 10, 1, { Rate: '5' }, 1],
  ])('%s', (_, net, quantity, set, expected) => {
    expect(lineTax(net, quantity, set)).toBe(expected);
  });

  it('knows when a set charges anything', () => {
    expect(hasTaxSet({ Rate: '', FloatAmount: null })).toBe(false);
    expect(hasTaxSet({ Rate: '0', FloatAmount: 0 })).toBe(false);
    expect(hasTaxSet({ Rate: null, FloatAmount: 5 })).toBe(true);
    expect(hasTaxSet(undefined)).toBe(false);
    expect(lineTax(1000, 1, { Rate: '', FloatAmount: 25 })).toBe(25);
  });

  it('spec 000 §5: "Tax is not charged if the contact is tax exempt or there is no contact."', () => {
    expect(isTaxCharged({ ContactId: 1 })).toBe(true);
    expect(isTaxCharged({ ContactId: 1, IsTaxExempt: true })).toBe(false);
    expect(isTaxCharged({ ContactId: null })).toBe(false);
    expect(isTaxCharged({})).toBe(false);
    expect(isTaxCharged({ ContactId: 0 })).toBe(false);
  });

  it('uses the item set, limited to its regions, replaced by the contact set', () => {
    const line = { TaxSetId: 3, ItemTaxSetRate: 6, ItemTaxSetFloatAmount: null, RegionIds: [10, 11] };
    expect(effectiveTaxSet(line, { ...taxable, TaxRegionId: 10 })).toEqual({ Rate: 6, FloatAmount: null });
    expect(effectiveTaxSet(line, { ...taxable, TaxRegionId: 12 })).toBeNull();
    expect(effectiveTaxSet(line, { ...taxable, TaxRegionId: null })).toEqual({ Rate: 6, FloatAmount: null });
    expect(effectiveTaxSet({ ...line, RegionIds: [] }, { ...taxable, TaxRegionId: 12 })).not.toBeNull();
    expect(effectiveTaxSet(line, { ...taxable, TaxRegionId: 10, ContactTaxSetRate: 9.5 })).toEqual({
      Rate: 9.5,
      FloatAmount: null,
    });
    expect(effectiveTaxSet(line, { ...taxable, ContactTaxSetFloatAmount: 100 })).toEqual({
      Rate: null,
      FloatAmount: 100,
    });
    expect(effectiveTaxSet({ TaxSetId: null }, taxable)).toBeNull();
    expect(effectiveTaxSet({ ItemTaxSetRate: 5 }, taxable)).toEqual({ Rate: 5, FloatAmount: null });
    expect(effectiveTaxSet(line, { ContactId: null })).toBeNull();
  });
});
