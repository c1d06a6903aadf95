import { calendarDay, DEFAULT_TIMEZONE } from '../platform/fields/date-input.rules.ts';
import {
  allocateByWeights,
  type Cents,
  type DecimalInput,
  percentOf,
  sumCents,
} from '../platform/fields/money.ts';
import { type DatedDiscount, isDiscountActive } from './discount.rules.ts';
import { effectiveTaxSet, lineTax, type TaxableLine, type TaxContext } from './tax.rules.ts';

/**
 * A purchase line as the rules read it (spec 000 section 3). Money fields are integer cents; convert at the edge
 * with `toCents`. The computed fields (TotalDiscount, TaxAmount, Total) are ignored on input.
 */
export interface PurchaseItemInput extends TaxableLine {
  /** Unit price in cents. */
  Price: Cents;
  /** Whole units; anything below zero counts as zero. */
  Quantity: number;
  /** Discount in cents off the whole line. */
  ItemDiscountAmount?: Cents | null;
  /** Percent off the line's gross amount. */
  ItemDiscountPercent?: DecimalInput | null;
  isDeleted?: boolean | null;
}

/** A credit applied to the purchase: `Amount` cents times `Quantity`. */
export interface CreditItemInput {
  Amount: Cents;
  Quantity: number;
}

export interface PurchaseInput extends TaxContext {
  PurchaseItems: readonly PurchaseItemInput[];
  /** Purchase-level discounts; each applies only between its StartDate and EndDate. */
  DiscountItems?: readonly DatedDiscount[] | null;
  CreditItems?: readonly CreditItemInput[] | null;
}

export interface PurchaseLineResult {
  /** Index of the line in `PurchaseItems`. */
  index: number;
  isDeleted: boolean;
  /** Price times quantity. */
  Gross: Cents;
  /** The line's own discount plus its share of the purchase-level discounts. */
  TotalDiscount: Cents;
  TaxAmount: Cents;
  /** Gross minus discount plus tax, floored at 0. */
  Total: Cents;
}

export interface PurchaseTotals {
  Lines: PurchaseLineResult[];
  /** Sum of the non-deleted lines' gross amounts. */
  Subtotal: Cents;
  /** Sum of the line discounts. */
  ItemDiscountTotal: Cents;
  /** Purchase-level discounts actually taken (capped at what was left after line discounts). */
  PurchaseDiscountTotal: Cents;
  DiscountTotal: Cents;
  TaxAmount: Cents;
  /** Sum of the line totals, before credits. */
  ItemsTotal: Cents;
  /** Credits actually applied (never more than ItemsTotal). */
  CreditTotal: Cents;
  /** What the buyer owes; never negative. */
  Total: Cents;
}

function wholeQuantity(quantity: number): number {
  return Number.isFinite(quantity) ? Math.max(0, Math.trunc(quantity)) : 0;
}

function isSetPercent(value: DecimalInput | null | undefined): value is DecimalInput {
  return value !== null && value !== undefined && value !== '' && Number(value) !== 0;
}

/** The line's own discount: a percent of its gross plus a flat amount, never more than the gross. */
export function itemDiscount(item: PurchaseItemInput): Cents {
  const gross = Math.max(0, item.Price) * wholeQuantity(item.Quantity);
  const percent = isSetPercent(item.ItemDiscountPercent) ? percentOf(gross, item.ItemDiscountPercent) : 0;
  const amount = item.ItemDiscountAmount ?? 0;
  return Math.min(gross, Math.max(0, percent) + Math.max(0, amount));
}

/** Purchase-level discounts active on `today`, in cents, against the amount left after line discounts. */
export function purchaseDiscount(
  base: Cents,
  discounts: readonly DatedDiscount[],
  today: string | Date,
  timeZone: string = DEFAULT_TIMEZONE,
): Cents {
  let total = 0;
  for (const discount of discounts) {
    if (!isDiscountActive(discount, today, timeZone)) continue;
    if (isSetPercent(discount.DiscountPercent))
      total += Math.max(0, percentOf(base, discount.DiscountPercent));
    total += Math.max(0, discount.DiscountAmount ?? 0);
  }
  return Math.min(Math.max(0, base), total);
}

/**
 * Computes a purchase (docs/decisions/0010 and 0011):
 * 1. each non-deleted line: gross = Price x Quantity, minus its own discount;
 * 2. active purchase-level discounts are taken from what is left and shared out over the lines in proportion
 *    to their net (largest remainder), so tax is charged on the discounted amount;
 * 3. tax per line from its effective tax set, none when exempt or without a contact;
 * 4. line total = gross - discount + tax, floored at 0; credits come off the sum, which is floored at 0.
 */
export function calculatePurchase(
  purchase: PurchaseInput,
  options: { today: string | Date; timeZone?: string },
): PurchaseTotals {
  const timeZone = options.timeZone ?? DEFAULT_TIMEZONE;
  const today = calendarDay(options.today, timeZone);
  const live = purchase.PurchaseItems.map((item, index) => {
    const isDeleted = Boolean(item.isDeleted);
    const gross = isDeleted ? 0 : Math.max(0, item.Price) * wholeQuantity(item.Quantity);
    const ownDiscount = isDeleted ? 0 : itemDiscount(item);
    return { item, index, isDeleted, gross, ownDiscount, net: gross - ownDiscount };
  });
  const netAfterItems = sumCents(live.map((line) => line.net));
  const orderDiscount = purchaseDiscount(netAfterItems, purchase.DiscountItems ?? [], today, timeZone);
  const shares = allocateByWeights(
    orderDiscount,
    live.map((line) => line.net),
  );
  const lines: PurchaseLineResult[] = live.map((line, position) => {
    const share = shares[position] ?? 0;
    const net = line.net - share;
    const taxSet = line.isDeleted ? null : effectiveTaxSet(line.item, purchase);
    const tax = lineTax(net, wholeQuantity(line.item.Quantity), taxSet);
    return {
      index: line.index,
      isDeleted: line.isDeleted,
      Gross: line.gross,
      TotalDiscount: line.ownDiscount + share,
      TaxAmount: tax,
      Total: Math.max(0, net + tax),
    };
  });
  const itemsTotal = sumCents(lines.map((line) => line.Total));
  const credits = sumCents(
    (purchase.CreditItems ?? []).map((credit) => Math.max(0, credit.Amount) * wholeQuantity(credit.Quantity)),
  );
  const creditApplied = Math.min(itemsTotal, credits);
  const itemDiscountTotal = sumCents(live.map((line) => line.ownDiscount));
  return {
    Lines: lines,
    Subtotal: sumCents(live.map((line) => line.gross)),
    ItemDiscountTotal: itemDiscountTotal,
    PurchaseDiscountTotal: orderDiscount,
    DiscountTotal: itemDiscountTotal + orderDiscount,
    TaxAmount: sumCents(lines.map((line) => line.TaxAmount)),
    ItemsTotal: itemsTotal,
    CreditTotal: creditApplied,
    Total: itemsTotal - creditApplied,
  };
}
