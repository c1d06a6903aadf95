import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { todayIn } from '../platform/fields/date-input.rules.ts';
import {
  addDays,
  addMonthsRolling,
  anniversaryTerm,
  applyTransition,
  calendarPeriod,
  daysBetween,
  isExpiringBetween,
  isMembershipStatus,
  joinTerm,
  leadingMembership,
  MEMBERSHIP_STATUSES,
  type MembershipTransition,
  membershipStatusName,
  midTermChange,
  midTermChangeParts,
  prorate,
  renewalInvoiceDay,
  renewalKey,
  renewalTerm,
  staffTransitionsFrom,
  statusByCalendar,
  type TermSettings,
} from './memberships.rules.ts';

describe('calendar days', () => {
  it.each([
    ['2024-01-31', 1, '2024-03-01'],
    ['2025-01-31', 1, '2025-03-01'],
    ['2024-02-29', 12, '2025-03-01'],
    ['2024-02-29', 48, '2028-02-29'],
    ['2024-03-31', 1, '2024-05-01'],
    ['2024-12-15', 1, '2025-01-15'],
    ['2024-06-30', -6, '2023-12-30'],
  ])('%s + %i months rolls to %s', (day, months, expected) => {
    expect(addMonthsRolling(day, months)).toBe(expected);
  });
  it('counts days across a leap day', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2023-02-28', '2023-03-01')).toBe(1);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });
  it('refuses a text that is no day', () => {
    expect(() => addDays('31/12/2024', 1)).toThrow(RangeError);
  });
});

describe('anniversary terms', () => {
  it.each([
    ['2024-03-15', 12, '2025-03-14'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2023-03-01', 12, '2024-02-29'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2025-01-31', 1, '2025-02-28'],
    ['2024-08-31', 6, '2025-02-28'],
    ['2024-01-01', 12, '2024-12-31'],
  ])('joining %s for %i months ends on %s', (start, months, end) => {
    expect(anniversaryTerm(start, months)).toEqual({ start, end });
    expect(joinTerm(start, { TermKind: 'anniversary', DurationMonths: months })).toEqual({
      start,
      end,
      proration: { numerator: 1, denominator: 1 },
    });
  });
  it('a term always ends the day before the next begins (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.constantFrom(1, 2, 3, 4, 6, 12, 24),
        (date, months) => {
          const start = date.toISOString().slice(0, 10);
          const term = anniversaryTerm(start, months);
          const next = renewalTerm(term, term.end, { TermKind: 'anniversary', DurationMonths: months });
          expect(next.start).toBe(addDays(term.end, 1));
          expect(daysBetween(term.start, term.end)).toBeGreaterThanOrEqual(27 * months);
          expect(daysBetween(term.start, term.end)).toBeLessThanOrEqual(31 * months);
        },
      ),
    );
  });
});

const calendarYear: TermSettings = { TermKind: 'calendar', ProrationRule: 'monthly', CutoffDays: 61 };

describe('calendar terms, proration and cut-off', () => {
  it.each([
    ['2024-01-01', '2024-01-01', '2024-12-31'],
    ['2024-12-31', '2024-01-01', '2024-12-31'],
    ['2024-02-29', '2024-01-01', '2024-12-31'],
  ])('%s lies in the calendar year %s to %s', (day, start, end) => {
    expect(calendarPeriod(day, calendarYear)).toEqual({ start, end });
  });
  it('a fiscal year from July', () => {
    expect(calendarPeriod('2025-03-10', { TermKind: 'calendar', CalendarStartMonth: 7 })).toEqual({
      start: '2024-07-01',
      end: '2025-06-30',
    });
    expect(calendarPeriod('2025-07-01', { TermKind: 'calendar', CalendarStartMonth: 7 })).toEqual({
      start: '2025-07-01',
      end: '2026-06-30',
    });
  });
  it('half-year periods', () => {
    expect(calendarPeriod('2025-08-31', { TermKind: 'calendar', DurationMonths: 6 })).toEqual({
      start: '2025-07-01',
      end: '2025-12-31',
    });
  });
  it.each([
    // joining, term end, numerator/denominator of the full price
    ['2024-01-01', '2024-12-31', 12, 12],
    ['2024-01-31', '2024-12-31', 12, 12],
    ['2024-02-29', '2024-12-31', 11, 12],
    ['2024-07-15', '2024-12-31', 6, 12],
    ['2024-10-31', '2024-12-31', 3, 12],
    // within 61 days of the end: the rest of this year free and all of the next, at the full price
    ['2024-11-01', '2025-12-31', 1, 1],
    ['2024-12-31', '2025-12-31', 1, 1],
  ])('monthly proration: joining %s runs to %s and pays %i/%i', (join, end, numerator, denominator) => {
    const term = joinTerm(join, calendarYear);
    expect(term.start).toBe(join);
    expect(term.end).toBe(end);
    expect(term.proration.numerator / term.proration.denominator).toBeCloseTo(numerator / denominator);
  });
  it('daily proration counts the joining day and the leap day', () => {
    const settings: TermSettings = { TermKind: 'calendar', ProrationRule: 'daily' };
    expect(joinTerm('2024-12-31', settings).proration).toEqual({ numerator: 1, denominator: 366 });
    expect(joinTerm('2025-12-31', settings).proration).toEqual({ numerator: 1, denominator: 365 });
    expect(joinTerm('2024-02-29', settings).proration).toEqual({ numerator: 307, denominator: 366 });
    expect(prorate(36_600, { numerator: 307, denominator: 366 })).toBe(30_700);
  });
  it('without proration a late join pays the whole period', () => {
    expect(joinTerm('2024-12-30', { TermKind: 'calendar' })).toEqual({
      start: '2024-12-30',
      end: '2024-12-31',
      proration: { numerator: 1, denominator: 1 },
    });
  });
  it('prorates once, to the cent', () => {
    expect(prorate(25_000, { numerator: 6, denominator: 12 })).toBe(12_500);
    expect(prorate(10_000, { numerator: 1, denominator: 3 })).toBe(3_333);
    expect(prorate(10_000, { numerator: 2, denominator: 3 })).toBe(6_667);
    expect(prorate(999, { numerator: 1, denominator: 1 })).toBe(999);
  });
  it('a prorated amount is never more than the full one (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.constantFrom<TermSettings['ProrationRule']>('none', 'monthly', 'daily'),
        (cents, date, rule) => {
          const term = joinTerm(date.toISOString().slice(0, 10), { ...calendarYear, ProrationRule: rule });
          const share = prorate(cents, term.proration);
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(cents);
          expect(term.end >= term.start).toBe(true);
        },
      ),
    );
  });
});

describe('the tenant timezone decides the day', () => {
  it('an instant near midnight on a DST change is the local day', () => {
    // 2024-11-03 is the end of daylight saving time in Chicago; 05:30 UTC is 23:30 on the 2nd there.
    expect(todayIn('America/Chicago', new Date('2024-11-03T04:30:00Z'))).toBe('2024-11-02');
    expect(todayIn('America/Chicago', new Date('2024-11-03T06:30:00Z'))).toBe('2024-11-03');
    // the spring change: 2024-03-10, clocks jump from 02:00 to 03:00
    expect(todayIn('America/Chicago', new Date('2024-03-10T05:59:00Z'))).toBe('2024-03-09');
    expect(todayIn('America/Chicago', new Date('2024-03-10T06:00:00Z'))).toBe('2024-03-10');
    const term = joinTerm(todayIn('America/Chicago', new Date('2025-01-01T05:30:00Z')), calendarYear);
    expect(term).toMatchObject({ start: '2024-12-31', end: '2025-12-31' });
  });
  it('days between two days ignore the clock change', () => {
    expect(daysBetween('2024-03-09', '2024-03-11')).toBe(2);
    expect(daysBetween('2024-11-02', '2024-11-04')).toBe(2);
  });
});

describe('renewals, grace and lapse', () => {
  const term = { start: '2024-01-01', end: '2024-12-31' };
  it('a renewal paid on time continues the term', () => {
    expect(renewalTerm(term, '2024-12-01', { TermKind: 'calendar' })).toEqual({
      start: '2025-01-01',
      end: '2025-12-31',
    });
    expect(renewalTerm(term, '2025-01-20', { TermKind: 'anniversary', GraceDays: 30 })).toEqual({
      start: '2025-01-01',
      end: '2025-12-31',
    });
  });
  it('after a gap: continue or start from the payment, by setting', () => {
    const late = '2025-04-10';
    expect(renewalTerm(term, late, { TermKind: 'anniversary', GraceDays: 30 })).toEqual({
      start: '2025-01-01',
      end: '2025-12-31',
    });
    expect(
      renewalTerm(term, late, { TermKind: 'anniversary', GraceDays: 30, RenewalAfterGap: 'fromPayment' }),
    ).toEqual({ start: '2025-04-10', end: '2026-04-09' });
    expect(
      renewalTerm(term, late, { TermKind: 'calendar', GraceDays: 30, RenewalAfterGap: 'fromPayment' }),
    ).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });
  it.each([
    ['active', '2024-12-31', '2024-12-31', 30, null],
    ['active', '2024-12-31', '2025-01-01', 30, 'grace'],
    ['active', '2024-12-31', '2025-01-30', 30, 'grace'],
    ['active', '2024-12-31', '2025-01-31', 30, 'lapsed'],
    ['grace', '2024-12-31', '2025-01-15', 30, null],
    ['grace', '2024-12-31', '2025-02-15', 30, 'lapsed'],
    ['active', '2024-12-31', '2025-01-01', 0, 'lapsed'],
    ['pending', '2024-12-31', '2025-06-01', 30, null],
    ['dropped', '2024-12-31', '2025-06-01', 30, null],
    ['lapsed', '2024-12-31', '2025-06-01', 30, null],
    ['active', null, '2025-06-01', 30, null],
  ])('%s ending %s on %s with %i grace days: %s', (status, end, today, grace, expected) => {
    expect(statusByCalendar(status, end, today, grace)).toBe(expected);
  });
  it('renewal invoices are made days before the end, keyed by membership and term', () => {
    expect(renewalInvoiceDay('2025-03-31', 30)).toBe('2025-03-01');
    expect(renewalInvoiceDay('2025-03-31', -5)).toBe('2025-03-31');
    expect(renewalKey(12, '2025-01-01')).toBe('membership:12:term:2025-01-01');
  });
  it('expiring windows include both ends', () => {
    expect(isExpiringBetween('2025-01-31', '2025-01-01', '2025-01-31')).toBe(true);
    expect(isExpiringBetween('2025-02-01', '2025-01-01', '2025-01-31')).toBe(false);
    expect(isExpiringBetween(null, '2025-01-01', '2025-01-31')).toBe(false);
  });
});

describe('mid-term upgrade and downgrade', () => {
  const term = { start: '2025-01-01', end: '2025-12-31' };
  it('charges the difference for the days left', () => {
    expect(midTermChange(20_000, 30_000, term, '2025-01-01')).toBe(10_000);
    expect(midTermChange(20_000, 30_000, term, '2025-07-02')).toBe(5_014);
    expect(midTermChange(30_000, 20_000, term, '2025-07-02')).toBe(-5_014);
    expect(midTermChange(30_000, 20_000, term, '2026-02-01')).toBe(0);
    expect(midTermChange(30_000, 30_000, term, '2025-03-01')).toBe(0);
  });
});

describe('mid-term change as a credit note and an invoice', () => {
  const term = { start: '2025-01-01', end: '2025-12-31' };
  it.each([
    // old, new, today: credit, charge, days left
    [20_000, 30_000, '2025-01-01', 20_000, 30_000, 365],
    [20_000, 30_000, '2025-07-02', 10_027, 15_041, 183],
    [30_000, 20_000, '2025-07-02', 15_041, 10_027, 183],
    [30_000, 20_000, '2025-12-31', 82, 55, 1],
    [30_000, 20_000, '2026-01-01', 0, 0, 0],
    [30_000, 20_000, '2024-12-01', 30_000, 20_000, 365],
  ])('%i to %i on %s: credit %i, invoice %i (%i days)', (from, to, today, credit, charge, days) => {
    const parts = midTermChangeParts(from, to, term, today);
    expect(parts).toEqual({
      creditCents: credit,
      chargeCents: charge,
      netCents: charge - credit,
      daysLeft: days,
      daysInTerm: 365,
    });
    // The net never strays more than a cent from the single-rounding rule.
    expect(Math.abs(parts.netCents - midTermChange(from, to, term, today))).toBeLessThanOrEqual(1);
  });
  it("keeps a leap year's 366 days", () => {
    expect(
      midTermChangeParts(36_600, 73_200, { start: '2024-01-01', end: '2024-12-31' }, '2024-02-29'),
    ).toMatchObject({ creditCents: 30_700, chargeCents: 61_400, daysLeft: 307, daysInTerm: 366 });
  });
});

describe('status transitions', () => {
  const all: MembershipTransition[] = ['approve', 'paid', 'startGrace', 'lapse', 'drop', 'reinstate'];
  it.each([
    ['pending', 'approve', 'active'],
    ['pending', 'paid', 'active'],
    ['grace', 'paid', 'active'],
    ['lapsed', 'paid', 'active'],
    ['active', 'startGrace', 'grace'],
    ['grace', 'lapse', 'lapsed'],
    ['active', 'drop', 'dropped'],
    ['lapsed', 'reinstate', 'active'],
    ['dropped', 'reinstate', 'active'],
  ] as const)('%s --%s--> %s', (from, transition, to) => {
    expect(applyTransition(from, transition)).toEqual({ ok: true, status: to });
  });
  it.each([
    ['active', 'approve', 'An active membership cannot be approved.'],
    ['dropped', 'drop', 'A dropped membership cannot be dropped.'],
    ['active', 'reinstate', 'An active membership cannot be reinstated.'],
    ['dropped', 'paid', 'A dropped membership cannot be activated by a payment.'],
    ['pending', 'lapse', 'A pending membership cannot be lapsed.'],
  ] as const)('refuses %s --%s-- with a message', (from, transition, message) => {
    expect(applyTransition(from, transition)).toEqual({ ok: false, message });
  });
  it('every transition leads to a known status and dropped is left only by reinstating', () => {
    for (const status of MEMBERSHIP_STATUSES.map((s) => s.Id)) {
      for (const transition of all) {
        const result = applyTransition(status, transition);
        if (result.ok) expect(isMembershipStatus(result.status)).toBe(true);
        if (status === 'dropped' && result.ok) expect(transition).toBe('reinstate');
      }
    }
  });
  it('offers staff the transitions of each status', () => {
    expect(staffTransitionsFrom('pending')).toEqual(['approve', 'drop']);
    expect(staffTransitionsFrom('active')).toEqual(['drop']);
    expect(staffTransitionsFrom('lapsed')).toEqual(['drop', 'reinstate']);
    expect(staffTransitionsFrom('dropped')).toEqual(['reinstate']);
    expect(membershipStatusName('grace')).toBe('Grace');
    expect(membershipStatusName('other')).toBe('other');
    expect(isMembershipStatus('nope')).toBe(false);
  });
});

describe('the membership a member is told about first', () => {
  const m = (Status: string, TermEnd: string | null, StatusDate: string, Name: string) => ({
    Status,
    TermEnd,
    StatusDate,
    Name,
  });

  it('is one that gives membership now, the longest running; else the one that ended last', () => {
    const lapsed = m('lapsed', '2025-12-31', '2026-01-31', 'old');
    const dropped = m('dropped', '2026-06-30', '2026-03-01', 'dropped');
    const grace = m('grace', '2026-10-31', '2026-11-01', 'grace');
    const active = m('active', '2026-12-31', '2026-01-01', 'active');
    const longer = m('active', '2027-12-31', '2026-01-01', 'longer');
    expect(leadingMembership([lapsed, grace, active])?.Name).toBe('active');
    expect(leadingMembership([active, longer])?.Name).toBe('longer');
    expect(leadingMembership([lapsed, grace])?.Name).toBe('grace');
    expect(leadingMembership([lapsed, dropped])?.Name).toBe('dropped');
    expect(leadingMembership([])).toBeNull();
  });
});
