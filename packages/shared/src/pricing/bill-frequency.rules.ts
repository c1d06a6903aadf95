import {
  allocateEvenly,
  type Cents,
  type DecimalInput,
  percentOf,
  roundToNearestOnes,
  sumCents,
} from '../platform/fields/money.ts';
import type { UnitFormula } from './unit-formula.rules.ts';

/**
 * Bill frequency ids (spec 000 section 9: "Once Per Term 255, One Time 0, 254 also special; other bill frequency
 * ids divide 12 months"). A recurring id is the number of months between bills. 254 is "Every Bill": a fixed
 * amount added to each bill. See docs/decisions/0012-bill-frequencies.md.
 */
export const BILL_FREQUENCY = {
  OneTime: 0,
  Monthly: 1,
  EveryTwoMonths: 2,
  Quarterly: 3,
  EveryFourMonths: 4,
  SemiAnnually: 6,
  Annually: 12,
  EveryBill: 254,
  OncePerTerm: 255,
} as const;

/** Months between bills that Guildhall accepts: the divisors of 12. */
export const RECURRING_FREQUENCY_MONTHS = [1, 2, 3, 4, 6, 12] as const;

export const BILL_FREQUENCY_NAMES: Readonly<Record<number, string>> = {
  0: 'One Time',
  1: 'Monthly',
  2: 'Every 2 Months',
  3: 'Quarterly',
  4: 'Every 4 Months',
  6: 'Semi-Annually',
  12: 'Annually',
  254: 'Every Bill',
  255: 'Once Per Term',
};

export type BillFrequencyKind = 'oneTime' | 'oncePerTerm' | 'everyBill' | 'recurring';

/** The kind of a frequency id, or null when the id is not one Guildhall knows. */
export function billFrequencyKind(id: number): BillFrequencyKind | null {
  if (id === BILL_FREQUENCY.OneTime) return 'oneTime';
  if (id === BILL_FREQUENCY.OncePerTerm) return 'oncePerTerm';
  if (id === BILL_FREQUENCY.EveryBill) return 'everyBill';
  return (RECURRING_FREQUENCY_MONTHS as readonly number[]).includes(id) ? 'recurring' : null;
}

export function isValidBillFrequencyId(id: number): boolean {
  return billFrequencyKind(id) !== null;
}

export function billFrequencyName(id: number): string {
  return BILL_FREQUENCY_NAMES[id] ?? `Every ${id} months`;
}

/** A frequency a member may choose for a membership (spec 000 section 3: "Bill frequency option"). */
export interface BillFrequencyOption {
  /** A recurring id (months between bills). */
  BillFrequencyTypeId: number;
  Name?: string | null;
  /** Percent added to (or, when negative, taken from) the term price of recurring fees. */
  PriceChangePercentage?: DecimalInput | null;
  /** Bills per term; when absent, the term's months divided by the months between bills, rounded up. */
  PerBillMultipler?: number | null;
}

export const DEFAULT_TERM_MONTHS = 12;

/** How many bills a term is split into under a frequency option. At least one. */
export function billsPerTerm(
  option: BillFrequencyOption,
  durationMonths: number = DEFAULT_TERM_MONTHS,
): number {
  const multiplier = option.PerBillMultipler;
  if (multiplier !== null && multiplier !== undefined && Number.isInteger(multiplier) && multiplier > 0) {
    return multiplier;
  }
  if (billFrequencyKind(option.BillFrequencyTypeId) !== 'recurring') return 1;
  const months = durationMonths > 0 ? durationMonths : DEFAULT_TERM_MONTHS;
  return Math.max(1, Math.ceil(months / option.BillFrequencyTypeId));
}

/** A fee on a membership (spec 000 section 3: "Fee item"). Money fields are integer cents. */
export interface FeeItemInput {
  FeeId?: number | null;
  Name?: string | null;
  /** Unit price per term at the chosen frequency (computed by `recalculateFeeItem`). */
  Price: Cents;
  /** Unit price per term as set up on the fee, before any frequency price change. */
  OriginalPrice: Cents;
  BillFrequencyTypeId: number;
  /** Bills per term for this item (computed). */
  BillFrequency?: number | null;
  IsExcludedFromDiscounts?: boolean | null;
  /** The whole term amount is charged on the first bill of each term instead of being spread. */
  IsCollectedWithFirstPayment?: boolean | null;
  UnitFormulas?: readonly UnitFormula[] | null;
  DurationMonths?: number | null;
  Quantity?: number | null;
  /** Cents off the term amount. */
  CurrentDiscountAmount?: Cents | null;
  CurrentDiscountPercent?: DecimalInput | null;
  /** True (the default): PerBillAmount is computed from Price. False: Price is computed from PerBillAmount. */
  CalcPerBillAmount?: boolean | null;
  /** Cents per bill. */
  PerBillAmount?: Cents | null;
}

function quantityOf(item: FeeItemInput): number {
  const quantity = item.Quantity ?? 1;
  return Number.isFinite(quantity) ? Math.max(0, Math.trunc(quantity)) : 0;
}

/** True when the item's price is entered per bill (Every Bill, or CalcPerBillAmount switched off). */
export function isPricedPerBill(item: FeeItemInput): boolean {
  const kind = billFrequencyKind(item.BillFrequencyTypeId);
  return kind === 'everyBill' || (kind === 'recurring' && item.CalcPerBillAmount === false);
}

/** The fee's discount for a term, in cents; none when the item is excluded from discounts. */
export function feeItemDiscount(item: FeeItemInput): Cents {
  if (item.IsExcludedFromDiscounts) return 0;
  const gross = Math.max(0, item.Price) * quantityOf(item);
  const percent = item.CurrentDiscountPercent;
  const byPercent =
    percent === null || percent === undefined || percent === '' ? 0 : Math.max(0, percentOf(gross, percent));
  return Math.min(gross, byPercent + Math.max(0, item.CurrentDiscountAmount ?? 0));
}

/** What the item costs for a whole term: Price x Quantity less its discount, never negative. */
export function feeItemTermAmount(item: FeeItemInput): Cents {
  return Math.max(0, item.Price) * quantityOf(item) - feeItemDiscount(item);
}

export interface RecalculateOptions {
  durationMonths?: number | null;
  roundToNearestOnes?: boolean | null;
}

/**
 * "Fee frequency change recalculates the price of each item." (spec 000 section 4)
 * - One Time and Once Per Term items keep their price and are billed once.
 * - Every Bill items, and recurring items priced per bill, cost PerBillAmount x bills per term.
 * - Other recurring items take the option's frequency; Price = OriginalPrice + PriceChangePercentage % of it,
 *   rounded to whole units when RoundToNearestOnes; PerBillAmount is the first bill of the even split.
 */
export function recalculateFeeItem<T extends FeeItemInput>(
  item: T,
  option: BillFrequencyOption,
  options: RecalculateOptions = {},
): T {
  const kind = billFrequencyKind(item.BillFrequencyTypeId);
  const roundOnes = (cents: Cents) => (options.roundToNearestOnes ? roundToNearestOnes(cents) : cents);
  const duration = item.DurationMonths ?? options.durationMonths ?? DEFAULT_TERM_MONTHS;
  if (kind === 'oneTime' || kind === 'oncePerTerm' || kind === null) {
    const next = { ...item, Price: roundOnes(item.OriginalPrice), BillFrequency: 1 };
    return { ...next, PerBillAmount: feeItemTermAmount(next) };
  }
  const bills = billsPerTerm(option, duration);
  if (isPricedPerBill(item)) {
    const perBill = item.PerBillAmount ?? 0;
    return {
      ...item,
      BillFrequencyTypeId: kind === 'everyBill' ? item.BillFrequencyTypeId : option.BillFrequencyTypeId,
      Price: perBill * bills,
      BillFrequency: bills,
      PerBillAmount: perBill,
    };
  }
  const change = option.PriceChangePercentage;
  const changed =
    change === null || change === undefined || change === ''
      ? item.OriginalPrice
      : item.OriginalPrice + percentOf(item.OriginalPrice, change);
  const next: T = {
    ...item,
    BillFrequencyTypeId: option.BillFrequencyTypeId,
    Price: Math.max(0, roundOnes(changed)),
    BillFrequency: bills,
  };
  const firstBill = allocateEvenly(feeItemTermAmount(next), bills)[0] ?? 0;
  return { ...next, PerBillAmount: item.IsCollectedWithFirstPayment ? feeItemTermAmount(next) : firstBill };
}

/** Recalculates every item for a newly chosen frequency option. */
export function changeBillFrequency<T extends FeeItemInput>(
  items: readonly T[],
  option: BillFrequencyOption,
  options: RecalculateOptions = {},
): T[] {
  return items.map((item) => recalculateFeeItem(item, option, options));
}

/**
 * The bills of one term, in cents: recurring and Every Bill items are spread evenly (leftover cents on the first
 * bills); Once Per Term items and items collected with the first payment land on the first bill; One Time items
 * land on the first bill of the first term only. The bills add up exactly to the items' term amounts.
 */
export function termBillSchedule(
  items: readonly FeeItemInput[],
  option: BillFrequencyOption,
  options: { durationMonths?: number | null; firstTerm?: boolean } = {},
): Cents[] {
  const bills = billsPerTerm(option, options.durationMonths ?? DEFAULT_TERM_MONTHS);
  const schedule: Cents[] = Array.from({ length: bills }, () => 0);
  const firstTerm = options.firstTerm ?? true;
  for (const item of items) {
    const amount = feeItemTermAmount(item);
    const kind = billFrequencyKind(item.BillFrequencyTypeId);
    if (kind === 'oneTime') {
      if (firstTerm) schedule[0] = (schedule[0] ?? 0) + amount;
    } else if (kind === 'oncePerTerm' || kind === null || item.IsCollectedWithFirstPayment) {
      schedule[0] = (schedule[0] ?? 0) + amount;
    } else {
      allocateEvenly(amount, bills).forEach((share, index) => {
        schedule[index] = (schedule[index] ?? 0) + share;
      });
    }
  }
  return schedule;
}

/** The total of a term's bills. */
export function termTotal(items: readonly FeeItemInput[], firstTerm = true): Cents {
  return sumCents(
    items
      .filter((item) => firstTerm || billFrequencyKind(item.BillFrequencyTypeId) !== 'oneTime')
      .map(feeItemTermAmount),
  );
}
