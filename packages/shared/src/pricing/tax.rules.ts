import { type Cents, type DecimalInput, percentOf } from '../platform/fields/money.ts';

/**
 * A tax set as Guildhall applies it: a percentage `Rate` of the taxable amount plus a flat `FloatAmount` (cents)
 * per taxable unit. See docs/decisions/0011-tax-sets.md.
 */
export interface TaxSet {
  /** Percent, e.g. 8.25 for 8.25 %. Null or 0 when the set has no percentage part. */
  Rate?: DecimalInput | null;
  /** Flat amount in cents charged per unit, e.g. 150 for a $1.50 per-ticket levy. */
  FloatAmount?: Cents | null;
}

/** True when the set charges anything at all. */
export function hasTaxSet(set: TaxSet | null | undefined): set is TaxSet {
  if (!set) return false;
  const rate = set.Rate === null || set.Rate === undefined || set.Rate === '' ? 0 : Number(set.Rate);
  return rate !== 0 || (set.FloatAmount ?? 0) !== 0;
}

/**
 * Tax of one line: `round(net * Rate / 100) + FloatAmount * quantity`, with one rounding of the percentage part.
 * A line whose net is zero or less (fully discounted) carries no tax. Never negative.
 */
export function lineTax(netCents: Cents, quantity: number, set: TaxSet | null | undefined): Cents {
  if (!hasTaxSet(set) || netCents <= 0) return 0;
  const rate = set.Rate === null || set.Rate === undefined || set.Rate === '' ? 0 : set.Rate;
  const percentPart = percentOf(netCents, rate);
  const flatPart = (set.FloatAmount ?? 0) * Math.max(0, Math.trunc(quantity));
  return Math.max(0, percentPart + flatPart);
}

/** What decides whether and how a line is taxed in a purchase. */
export interface TaxContext {
  /** A purchase without a contact is never taxed (spec 000 section 5). */
  ContactId?: number | null;
  IsTaxExempt?: boolean | null;
  /** The buyer's tax region. */
  TaxRegionId?: number | null;
  /** The contact's own tax set, which replaces the item's rate and flat amount when present. */
  ContactTaxSetRate?: DecimalInput | null;
  ContactTaxSetFloatAmount?: Cents | null;
}

export interface TaxableLine {
  TaxSetId?: number | null;
  ItemTaxSetRate?: DecimalInput | null;
  ItemTaxSetFloatAmount?: Cents | null;
  /** Regions the item's tax set applies in; empty or absent means every region. */
  RegionIds?: readonly number[] | null;
}

/** "Tax is not charged if the contact is tax exempt or there is no contact." (spec 000 section 5) */
export function isTaxCharged(context: TaxContext): boolean {
  return (
    !context.IsTaxExempt &&
    context.ContactId !== null &&
    context.ContactId !== undefined &&
    context.ContactId > 0
  );
}

/**
 * The tax set that applies to a line, or null when it is not taxed: the purchase must be taxable, the item must
 * carry a tax set, and the buyer's region (when known) must be one of the item's regions (when listed). The
 * contact's tax set, when it has one, replaces the item's.
 */
export function effectiveTaxSet(line: TaxableLine, context: TaxContext): TaxSet | null {
  if (!isTaxCharged(context)) return null;
  const itemSet: TaxSet = {
    Rate: line.ItemTaxSetRate ?? null,
    FloatAmount: line.ItemTaxSetFloatAmount ?? null,
  };
  const itemHasSet =
    (line.TaxSetId !== null && line.TaxSetId !== undefined && line.TaxSetId > 0) || hasTaxSet(itemSet);
  if (!itemHasSet) return null;
  const regions = line.RegionIds ?? [];
  const region = context.TaxRegionId;
  if (
    regions.length > 0 &&
    region !== null &&
    region !== undefined &&
    region > 0 &&
    !regions.includes(region)
  ) {
    return null;
  }
  const contactSet: TaxSet = {
    Rate: context.ContactTaxSetRate ?? null,
    FloatAmount: context.ContactTaxSetFloatAmount ?? null,
  };
  const contactHasSet =
    (context.ContactTaxSetRate !== null && context.ContactTaxSetRate !== undefined) ||
    (context.ContactTaxSetFloatAmount !== null && context.ContactTaxSetFloatAmount !== undefined);
  return contactHasSet ? contactSet : itemSet;
}
