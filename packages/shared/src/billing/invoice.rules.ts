/**
 * Invoice rules (decision 0120): the status an invoice's amounts give it, due dates from terms, numbers from the
 * tenant's counter, and the aging bucket of an open invoice.
 */
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
