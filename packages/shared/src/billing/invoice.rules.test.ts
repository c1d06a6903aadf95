import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agingBucket,
  calendarDaysBetween,
  formatInvoiceNumber,
  invoiceBalance,
  invoiceStatusOf,
  isOpenStatus,
  isOverdue,
  revenuePeriod,
  shiftDate,
} from './invoice.rules.ts';

describe('invoice status', () => {
  it.each([
    ['open', 1000, 0, 0, 'open'],
    ['open', 1000, 400, 0, 'partially_paid'],
    ['partially_paid', 1000, 1000, 0, 'paid'],
    ['paid', 1000, 0, 0, 'open'],
    ['open', 1000, 300, 700, 'written_off'],
    ['open', 1000, 0, 200, 'partially_paid'],
    ['open', 0, 0, 0, 'paid'],
    ['draft', 1000, 0, 0, 'draft'],
    ['void', 1000, 0, 0, 'void'],
  ] as const)(
    '%s with total %i, applied %i, written off %i is %s',
    (current, totalCents, appliedCents, writtenOffCents, expected) => {
      expect(invoiceStatusOf(current, { totalCents, appliedCents, writtenOffCents })).toBe(expected);
    },
  );

  it('the balance is the total minus applications and write-offs, never negative', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 1e9 }),
        fc.nat({ max: 1e9 }),
        fc.nat({ max: 1e9 }),
        (totalCents, appliedCents, writtenOffCents) => {
          const balance = invoiceBalance({ totalCents, appliedCents, writtenOffCents });
          expect(balance).toBeGreaterThanOrEqual(0);
          expect(balance).toBe(Math.max(0, totalCents - appliedCents - writtenOffCents));
        },
      ),
    );
  });

  it('open statuses owe money', () => {
    expect(isOpenStatus('open')).toBe(true);
    expect(isOpenStatus('partially_paid')).toBe(true);
    expect(isOpenStatus('paid')).toBe(false);
  });
});

describe('dates, numbers and aging', () => {
  it('adds days across months and leap years', () => {
    expect(shiftDate('2026-11-01', 30)).toBe('2026-12-01');
    expect(shiftDate('2028-02-28', 1)).toBe('2028-02-29');
    expect(shiftDate('2026-12-31', 1)).toBe('2027-01-01');
    expect(calendarDaysBetween('2026-11-01', '2026-12-01')).toBe(30);
  });

  it('numbers invoices with the prefix and at least six digits', () => {
    expect(formatInvoiceNumber('INV-', 42)).toBe('INV-000042');
    expect(formatInvoiceNumber('', 1234567)).toBe('1234567');
  });

  it.each([
    ['2026-11-30', '2026-11-30', 'current'],
    ['2026-11-30', '2026-12-01', '1-30'],
    ['2026-11-30', '2026-12-30', '1-30'],
    ['2026-11-30', '2026-12-31', '31-60'],
    ['2026-11-30', '2027-01-29', '31-60'],
    ['2026-11-30', '2027-01-30', '61-90'],
    ['2026-11-30', '2027-02-28', '61-90'],
    ['2026-11-30', '2027-03-01', '90+'],
  ] as const)('due %s, on %s: %s', (due, asOf, bucket) => {
    expect(agingBucket(due, asOf)).toBe(bucket);
  });

  it('an open invoice is overdue after its due date; a paid one never', () => {
    expect(isOverdue('open', '2026-11-01', '2026-11-02')).toBe(true);
    expect(isOverdue('open', '2026-11-01', '2026-11-01')).toBe(false);
    expect(isOverdue('paid', '2026-11-01', '2027-11-01')).toBe(false);
  });
});

describe('revenuePeriod', () => {
  // 2026-03-15 at 03:00 UTC is still March 14 in Chicago.
  const now = new Date('2026-03-15T03:00:00Z');
  it("resolves a date-range option in the association's time zone", () => {
    expect(revenuePeriod({ range: 1 }, now, 'America/Chicago')).toEqual({
      from: '2026-03-14',
      to: '2026-03-14',
    });
    expect(revenuePeriod({ range: 1 }, now, 'Europe/Warsaw')).toEqual({
      from: '2026-03-15',
      to: '2026-03-15',
    });
    expect(revenuePeriod({ range: 7, from: '2020-01-01' }, now, 'UTC')).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(revenuePeriod({ range: 11 }, now, 'UTC')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
  });
  it('takes the days given for Custom or no option, and twelve months to today without them', () => {
    expect(revenuePeriod({ range: 0, from: '2026-01-01', to: '2026-01-31' }, now, 'UTC')).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(revenuePeriod({}, now, 'UTC')).toEqual({ from: '2025-04-01', to: '2026-03-15' });
    expect(revenuePeriod({ to: '2026-01-10' }, now, 'UTC')).toEqual({ from: '2025-02-01', to: '2026-01-10' });
  });
});
