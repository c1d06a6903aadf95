/**
 * Invoice rules (decision 0120): the status an invoice's amounts give it, due dates from terms, numbers from the
 * tenant's counter, and the aging bucket of an open invoice.
 */
import { calendarDay } from '../platform/fields/date-input.rules.ts';
import { DATE_RANGE_CUSTOM, resolveDateRange } from '../platform/fields/date-range.rules.ts';
import type { Cents } from '../platform/fields/money.ts';

export const INVOICE_STATUSES = ['draft', 'open', 'partially_paid', 'paid', 'void', 'written_off'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  open: 'Open',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  void: 'Void',
  written_off: 'Written off',
};

export interface InvoiceAmounts {
  totalCents: Cents;
  appliedCents: Cents;
  writtenOffCents: Cents;
}

/** What is still owed: the total minus applications and write-offs, never below 0. */
export function invoiceBalance(amounts: InvoiceAmounts): Cents {
  return Math.max(0, amounts.totalCents - amounts.appliedCents - amounts.writtenOffCents);
}

/**
 * The status of an issued invoice from its amounts: written off when a write-off closed it, paid when nothing is
 * owed, partially paid when something was applied, open otherwise. Drafts and voids keep their status.
 */
export function invoiceStatusOf(current: InvoiceStatus, amounts: InvoiceAmounts): InvoiceStatus {
  if (current === 'draft' || current === 'void') return current;
  const balance = invoiceBalance(amounts);
  if (balance > 0) return amounts.appliedCents > 0 || amounts.writtenOffCents > 0 ? 'partially_paid' : 'open';
  return amounts.writtenOffCents > 0 ? 'written_off' : 'paid';
}

/** Statuses that owe money. */
export function isOpenStatus(status: InvoiceStatus): boolean {
  return status === 'open' || status === 'partially_paid';
}

/** A calendar date (YYYY-MM-DD) plus whole days, without time zones (both are calendar days). */
export function shiftDate(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const t = Date.UTC(y, m - 1, d) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (calendar dates). */
export function calendarDaysBetween(from: string, to: string): number {
  const ms = (iso: string) => {
    const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((ms(to) - ms(from)) / 86_400_000);
}

/** The invoice number a person reads: the prefix and the counter's value on at least six digits. */
export function formatInvoiceNumber(prefix: string, value: number): string {
  return `${prefix}${String(value).padStart(6, '0')}`;
}

export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export const AGING_BUCKET_LABELS: Record<AgingBucket, string> = {
  current: 'Current',
  '1-30': '1-30 days',
  '31-60': '31-60 days',
  '61-90': '61-90 days',
  '90+': 'Over 90 days',
};

/** The aging bucket of an open invoice on `asOf`: current until its due date, then by days past due. */
export function agingBucket(dueDate: string, asOf: string): AgingBucket {
  const late = calendarDaysBetween(dueDate, asOf);
  if (late <= 0) return 'current';
  if (late <= 30) return '1-30';
  if (late <= 60) return '31-60';
  if (late <= 90) return '61-90';
  return '90+';
}

/** True when an open invoice is past its due date on `asOf`. */
export function isOverdue(status: InvoiceStatus, dueDate: string, asOf: string): boolean {
  return isOpenStatus(status) && calendarDaysBetween(dueDate, asOf) > 0;
}

/** The most months the revenue report spans (the longest date-range option, Last 3 Years, touches 37). */
export const REVENUE_REPORT_MAX_MONTHS = 37;

/**
 * The period of the revenue report: a date-range option (the 0-37 options the lists' date filters use, resolved in
 * the association's time zone), else the days given, else the twelve months to today (from the first of the month
 * eleven months back). A Custom range (0) or none uses the days given.
 */
export function revenuePeriod(
  input: { range?: number | undefined; from?: string | undefined; to?: string | undefined },
  now: Date,
  timeZone: string,
): { from: string; to: string } {
  const resolved =
    input.range !== undefined && input.range !== DATE_RANGE_CUSTOM
      ? resolveDateRange(input.range, now, { timeZone })
      : null;
  if (resolved) return { from: resolved.StartDate, to: resolved.EndDate };
  const to = input.to ?? calendarDay(now, timeZone);
  const from = input.from ?? `${shiftDate(`${to.slice(0, 7)}-01`, -334).slice(0, 7)}-01`;
  return { from, to };
}
