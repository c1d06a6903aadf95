/**
 * Membership terms and lifecycle (decision 0130): term dates (anniversary or calendar), the proration of a late
 * join with its cut-off, grace and lapse, renewal after a gap, and the status transitions staff and the system may
 * make. Pure: calendar days are `yyyy-MM-dd` texts in the association's timezone (`todayIn` gives today's).
 */
import { type Cents, ratioOf } from '../platform/fields/money.ts';

export const MEMBERSHIP_STATUSES = [
  { Id: 'pending', Name: 'Pending' },
  { Id: 'active', Name: 'Active' },
  { Id: 'grace', Name: 'Grace' },
  { Id: 'lapsed', Name: 'Lapsed' },
  { Id: 'dropped', Name: 'Dropped' },
] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number]['Id'];

export function isMembershipStatus(value: unknown): value is MembershipStatus {
  return MEMBERSHIP_STATUSES.some((s) => s.Id === value);
}

export function membershipStatusName(status: string): string {
  return MEMBERSHIP_STATUSES.find((s) => s.Id === status)?.Name ?? status;
}

/** What moves a membership from one status to another: staff actions, and the system's (payments, the calendar). */
export const MEMBERSHIP_TRANSITIONS = {
  /** Staff approve an application (the first invoice may still be open). */
  approve: { from: ['pending'], to: 'active', by: 'staff' },
  /** The first or a renewal invoice is paid. */
  paid: { from: ['pending', 'active', 'grace', 'lapsed'], to: 'active', by: 'system' },
  /** The term ended and the renewal is unpaid. */
  startGrace: { from: ['active'], to: 'grace', by: 'system' },
  /** The grace period ended unpaid. */
  lapse: { from: ['grace'], to: 'lapsed', by: 'system' },
  /** Staff (or the member) end it, with a reason. */
  drop: { from: ['pending', 'active', 'grace', 'lapsed'], to: 'dropped', by: 'staff' },
  /** Staff bring a lapsed or dropped membership back. */
  reinstate: { from: ['lapsed', 'dropped'], to: 'active', by: 'staff' },
} as const satisfies Record<
  string,
  { from: readonly MembershipStatus[]; to: MembershipStatus; by: 'staff' | 'system' }
>;
export type MembershipTransition = keyof typeof MEMBERSHIP_TRANSITIONS;

export const MEMBERSHIP_MESSAGES = {
  notAllowed: (transition: MembershipTransition, status: string) => {
    const name = membershipStatusName(status).toLowerCase();
    return `${/^[aeiou]/.test(name) ? 'An' : 'A'} ${name} membership cannot be ${TRANSITION_PAST[transition]}.`;
  },
  reasonRequired: 'Give a reason for dropping the membership.',
  notFound: 'This membership does not exist.',
} as const;

const TRANSITION_PAST: Record<MembershipTransition, string> = {
  approve: 'approved',
  paid: 'activated by a payment',
  startGrace: 'moved to grace',
  lapse: 'lapsed',
  drop: 'dropped',
  reinstate: 'reinstated',
};

/** The status a transition leads to, or an error message when the current status does not allow it. */
export function applyTransition(
  status: string,
  transition: MembershipTransition,
): { ok: true; status: MembershipStatus } | { ok: false; message: string } {
  const rule = MEMBERSHIP_TRANSITIONS[transition];
  if (!(rule.from as readonly string[]).includes(status)) {
    return { ok: false, message: MEMBERSHIP_MESSAGES.notAllowed(transition, status) };
  }
  return { ok: true, status: rule.to };
}

/** The staff transitions a membership in a status offers (its record's buttons). */
export function staffTransitionsFrom(status: string): MembershipTransition[] {
  return (Object.keys(MEMBERSHIP_TRANSITIONS) as MembershipTransition[]).filter(
    (t) =>
      MEMBERSHIP_TRANSITIONS[t].by === 'staff' &&
      (MEMBERSHIP_TRANSITIONS[t].from as readonly string[]).includes(status),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Calendar days

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(day: string): [number, number, number] {
  const match = DAY.exec(day);
  if (!match) throw new RangeError(`Not a calendar day: ${day}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function toDay(utc: number): string {
  return new Date(utc).toISOString().slice(0, 10);
}

function utcOf(day: string): number {
  const [y, m, d] = parts(day);
  return Date.UTC(y, m - 1, d);
}

export function addDays(day: string, days: number): string {
  return toDay(utcOf(day) + days * 86_400_000);
}

/** Days from `from` to `to` (0 on the same day, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcOf(to) - utcOf(from)) / 86_400_000);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The same day `months` later. A day the target month lacks (31 January + 1 month, 29 February + 12 months) rolls
 * to the 1st of the month after, so that the term before it ends on the target month's last day.
 */
export function addMonthsRolling(day: string, months: number): string {
  const [y, m, d] = parts(day);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  if (d > daysInMonth(year, month)) return toDay(Date.UTC(year, month, 1));
  return toDay(Date.UTC(year, month - 1, d));
}

// ---------------------------------------------------------------------------------------------------------------
// Terms

export const TERM_KINDS = [
  { Id: 'anniversary', Name: 'Anniversary (from the joining date)' },
  { Id: 'calendar', Name: 'Calendar (a fixed period)' },
] as const;
export type TermKind = (typeof TERM_KINDS)[number]['Id'];

export const PRORATION_RULES = [
  { Id: 'none', Name: 'No proration (full price)' },
  { Id: 'monthly', Name: 'By remaining months' },
  { Id: 'daily', Name: 'By remaining days' },
] as const;
export type ProrationRule = (typeof PRORATION_RULES)[number]['Id'];

export interface TermSettings {
  TermKind: TermKind;
  /** Months in a term (12 unless set). */
  DurationMonths?: number | null;
  /** Calendar terms: the month (1-12) a period starts in (January unless set). */
  CalendarStartMonth?: number | null;
  /** Calendar terms: how a late join is priced. */
  ProrationRule?: ProrationRule | null;
  /**
   * Calendar terms: joining within this many days of the period's end starts the membership in the next period,
   * the remaining days given free, at the full price (so joining on 31 December does not buy one day).
   */
  CutoffDays?: number | null;
  /** Days after the term's end before an unpaid renewal lapses. */
  GraceDays?: number | null;
}

export interface Term {
  /** First day of the term. */
  start: string;
  /** Last day of the term (inclusive). */
  end: string;
}

/** The share of a full term's price a join pays: numerator / denominator (1/1 when not prorated). */
export interface Proration {
  numerator: number;
  denominator: number;
}

export interface JoinTerm extends Term {
  proration: Proration;
}

function duration(settings: Pick<TermSettings, 'DurationMonths'>): number {
  const months = settings.DurationMonths;
  return months && Number.isInteger(months) && months > 0 ? months : 12;
}

/** An anniversary term starting on `start`: to the day before the same day `DurationMonths` later. */
export function anniversaryTerm(start: string, durationMonths = 12): Term {
  return { start, end: addDays(addMonthsRolling(start, durationMonths), -1) };
}

/** The calendar period (of `DurationMonths`, starting in `CalendarStartMonth`) that holds `day`. */
export function calendarPeriod(day: string, settings: TermSettings): Term {
  const months = duration(settings);
  const startMonth = Math.min(12, Math.max(1, settings.CalendarStartMonth ?? 1));
  const [y, m] = parts(day);
  const index = y * 12 + (m - 1);
  const anchor = y * 12 + (startMonth - 1);
  const offset = (((index - anchor) % months) + months) % months;
  const startIndex = index - offset;
  const start = toDay(Date.UTC(Math.floor(startIndex / 12), startIndex % 12, 1));
  return { start, end: addDays(addMonthsRolling(start, months), -1) };
}

/** The first term of a membership joining on `joinDay`, with the share of the full price it pays. */
export function joinTerm(joinDay: string, settings: TermSettings): JoinTerm {
  const months = duration(settings);
  if (settings.TermKind === 'anniversary') {
    return { ...anniversaryTerm(joinDay, months), proration: { numerator: 1, denominator: 1 } };
  }
  const period = calendarPeriod(joinDay, settings);
  const remainingDays = daysBetween(joinDay, period.end) + 1;
  const cutoff = Math.max(0, settings.CutoffDays ?? 0);
  if (cutoff > 0 && remainingDays <= cutoff) {
    const next = calendarPeriod(addDays(period.end, 1), settings);
    return { start: joinDay, end: next.end, proration: { numerator: 1, denominator: 1 } };
  }
  const rule = settings.ProrationRule ?? 'none';
  if (rule === 'daily') {
    const periodDays = daysBetween(period.start, period.end) + 1;
    return {
      start: joinDay,
      end: period.end,
      proration: { numerator: remainingDays, denominator: periodDays },
    };
  }
  if (rule === 'monthly') {
    const [py, pm] = parts(period.start);
    const [jy, jm] = parts(joinDay);
    const elapsed = jy * 12 + jm - (py * 12 + pm);
    return {
      start: joinDay,
      end: period.end,
      proration: { numerator: months - elapsed, denominator: months },
    };
  }
  return { start: joinDay, end: period.end, proration: { numerator: 1, denominator: 1 } };
}

/** A full-term amount under a proration, rounded once to the cent. */
export function prorate(cents: Cents, proration: Proration): Cents {
  if (proration.numerator === proration.denominator) return cents;
  return ratioOf(cents, proration.numerator, proration.denominator);
}

export const RENEWAL_AFTER_GAP = [
  { Id: 'continue', Name: 'Continue the old term (the gap is paid for)' },
  { Id: 'fromPayment', Name: 'Start a new term on the payment date' },
] as const;
export type RenewalAfterGap = (typeof RENEWAL_AFTER_GAP)[number]['Id'];

/**
 * The term a paid renewal buys. Paid before the old term's end (or in its grace), or when the setting continues the
 * old term, it follows the old term without a gap; paid after the grace with `fromPayment`, a new term starts on
 * the payment day (an anniversary term) or in the period holding it (a calendar term).
 */
export function renewalTerm(
  previous: Term,
  paidOn: string,
  settings: TermSettings & { RenewalAfterGap?: RenewalAfterGap | null },
): Term {
  const months = duration(settings);
  const graceEnd = addDays(previous.end, Math.max(0, settings.GraceDays ?? 0));
  const gap = daysBetween(graceEnd, paidOn) > 0;
  if (gap && settings.RenewalAfterGap === 'fromPayment') {
    if (settings.TermKind === 'calendar') return calendarPeriod(paidOn, settings);
    return anniversaryTerm(paidOn, months);
  }
  const start = addDays(previous.end, 1);
  if (settings.TermKind === 'calendar') return calendarPeriod(start, settings);
  return anniversaryTerm(start, months);
}

/**
 * The status the calendar gives a membership on `today`: an active one past its term's end moves to grace, and
 * past the grace days to lapsed; null when the calendar changes nothing (pending and dropped ones never move).
 */
export function statusByCalendar(
  status: string,
  termEnd: string | null,
  today: string,
  graceDays: number,
): MembershipStatus | null {
  if (!termEnd || (status !== 'active' && status !== 'grace')) return null;
  const overdue = daysBetween(termEnd, today);
  if (overdue <= 0) return null;
  const target: MembershipStatus = overdue > Math.max(0, graceDays) ? 'lapsed' : 'grace';
  return target === status ? null : target;
}

/** The day a renewal invoice is due to be made: `daysBefore` days before the term's end. */
export function renewalInvoiceDay(termEnd: string, daysBefore: number): string {
  return addDays(termEnd, -Math.max(0, daysBefore));
}

/** "Expiring" windows of the memberships list: term ends between two days (inclusive). */
export function isExpiringBetween(termEnd: string | null, from: string, to: string): boolean {
  return termEnd !== null && termEnd >= from && termEnd <= to;
}

/**
 * Prorated credit (negative) or charge (positive) when a membership changes to another price mid-term: the
 * difference of the two term prices for the days left, today included.
 */
export function midTermChange(oldTermCents: Cents, newTermCents: Cents, term: Term, today: string): Cents {
  const total = daysBetween(term.start, term.end) + 1;
  const left = Math.min(total, Math.max(0, daysBetween(today, term.end) + 1));
  return ratioOf(newTermCents - oldTermCents, left, total);
}

/**
 * A mid-term upgrade or downgrade billed as two documents: a credit note for the unused part of the old term's
 * price and an invoice for the same days at the new price (days left include today). `netCents` is their
 * difference; a day after the term's end leaves nothing either way.
 */
export function midTermChangeParts(
  oldTermCents: Cents,
  newTermCents: Cents,
  term: Term,
  today: string,
): { creditCents: Cents; chargeCents: Cents; netCents: Cents; daysLeft: number; daysInTerm: number } {
  const total = daysBetween(term.start, term.end) + 1;
  const left = Math.min(total, Math.max(0, daysBetween(today, term.end) + 1));
  const creditCents = ratioOf(Math.max(0, oldTermCents), left, total);
  const chargeCents = ratioOf(Math.max(0, newTermCents), left, total);
  return { creditCents, chargeCents, netCents: chargeCents - creditCents, daysLeft: left, daysInTerm: total };
}

/** A unique key per membership and term: the renewal invoice's idempotency key. */
export function renewalKey(membershipId: number, termStart: string): string {
  return `membership:${membershipId}:term:${termStart}`;
}

/**
 * The membership a member is told about first (the member area's home): one that gives them membership now
 * (active, then in grace, then pending), the one whose term runs longest; else the one that ended last.
 */
export function leadingMembership<M extends { Status: string; TermEnd: string | null; StatusDate: string }>(
  memberships: readonly M[],
): M | null {
  const rank = (m: M) => ({ active: 0, grace: 1, pending: 2 })[m.Status] ?? 3;
  return (
    [...memberships].sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (b.TermEnd ?? '').localeCompare(a.TermEnd ?? '') ||
        b.StatusDate.localeCompare(a.StatusDate),
    )[0] ?? null
  );
}
