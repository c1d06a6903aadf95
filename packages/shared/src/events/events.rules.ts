/** Event attendee statuses Guildhall relies on. "Event attendee status 4 counts as registered." (spec 000 §9) */
export const EVENT_ATTENDEE_STATUS = { Registered: 4 } as const;

export function isRegisteredAttendee(attendee: { EventAttendeeStatusId: number }): boolean {
  return attendee.EventAttendeeStatusId === EVENT_ATTENDEE_STATUS.Registered;
}

/**
 * The number of registered people: each registered attendee record counts for its RegisteredAttendeesCount
 * (a registration for a party of four counts four), or one when the count is not given.
 */
export function registeredAttendeeCount(
  attendees: readonly { EventAttendeeStatusId: number; RegisteredAttendeesCount?: number | null }[],
): number {
  let count = 0;
  for (const attendee of attendees) {
    if (!isRegisteredAttendee(attendee)) continue;
    const party = attendee.RegisteredAttendeesCount;
    count += party === null || party === undefined ? 1 : Math.max(0, Math.trunc(party));
  }
  return count;
}

/**
 * Every attendee status (EventAttendeeStatusId). Only 4 (registered) counts toward RegisteredAttendeesCount; the
 * statuses that hold a seat are the ones capacity counts: an offer from the waitlist holds its seat until it expires,
 * and a registration waiting for its payment holds it too.
 */
export const EVENT_ATTENDEE_STATUSES = {
  Waitlisted: 1,
  Offered: 2,
  Cancelled: 3,
  Registered: 4,
  Attended: 5,
  NoShow: 6,
  PendingPayment: 7,
} as const;
export type EventAttendeeStatusId = (typeof EVENT_ATTENDEE_STATUSES)[keyof typeof EVENT_ATTENDEE_STATUSES];

export const EVENT_ATTENDEE_STATUS_OPTIONS = [
  { Id: 4, Name: 'Registered' },
  { Id: 7, Name: 'Awaiting payment' },
  { Id: 1, Name: 'Waitlisted' },
  { Id: 2, Name: 'Offered a seat' },
  { Id: 5, Name: 'Attended' },
  { Id: 6, Name: 'No-show' },
  { Id: 3, Name: 'Cancelled' },
] as const;

/** An attendee status's name ("Offered a seat"), as every screen and document writes it. */
export function attendeeStatusName(id: number): string {
  return EVENT_ATTENDEE_STATUS_OPTIONS.find((o) => o.Id === id)?.Name ?? String(id);
}

const SEAT_HOLDING: ReadonlySet<number> = new Set([2, 4, 5, 6, 7]);

/** Whether an attendee of this status takes a seat out of the capacity. */
export function holdsSeat(statusId: number): boolean {
  return SEAT_HOLDING.has(statusId);
}

export const EVENT_STATUSES = [
  { Id: 'draft', Name: 'Draft' },
  { Id: 'published', Name: 'Published' },
  { Id: 'cancelled', Name: 'Cancelled' },
] as const;

export const EVENT_VISIBILITIES = [
  { Id: 'public', Name: 'Public' },
  { Id: 'members', Name: 'Members only' },
] as const;

export const EVENT_DETAIL_STATUSES = [
  { Id: 'scheduled', Name: 'Scheduled' },
  { Id: 'cancelled', Name: 'Cancelled' },
] as const;

/** One limit a registration must fit: a capacity (null: unlimited) and the seats already held under it. */
export interface SeatLimit {
  capacity: number | null;
  taken: number;
}

/** Seats left under every limit at once (null: unlimited). Never negative. */
export function seatsLeft(limits: readonly SeatLimit[]): number | null {
  let left: number | null = null;
  for (const limit of limits) {
    if (limit.capacity === null) continue;
    const here = Math.max(0, limit.capacity - limit.taken);
    left = left === null ? here : Math.min(left, here);
  }
  return left;
}

export type RegistrationOutcome =
  | { outcome: 'registered' }
  | { outcome: 'waitlisted'; message: string }
  | { outcome: 'refused'; message: string };

/**
 * What becomes of a registration for `party` people: registered when every limit has room for the whole party,
 * waitlisted when it has not and the event keeps a waitlist, refused otherwise. A party is never split.
 */
export function decideRegistration(
  limits: readonly SeatLimit[],
  party: number,
  waitlistEnabled: boolean,
): RegistrationOutcome {
  const left = seatsLeft(limits);
  if (left === null || left >= party) return { outcome: 'registered' };
  const seats =
    left === 0 ? 'This event is full' : `Only ${left} ${left === 1 ? 'seat is' : 'seats are'} left`;
  return waitlistEnabled
    ? {
        outcome: 'waitlisted',
        message: `${seats}: you are on the waitlist and will be offered a seat when one frees.`,
      }
    : { outcome: 'refused', message: `${seats}; no more registrations are taken.` };
}

/**
 * Which waitlisted parties a number of freed seats can take, first come first served: each party in order is offered
 * a seat if the whole party fits in what is left; a larger party is skipped, not split, and keeps its place.
 */
export function partiesToPromote(
  waitlist: readonly { id: number; party: number }[],
  free: number | null,
): number[] {
  const chosen: number[] = [];
  let room = free ?? Number.POSITIVE_INFINITY;
  for (const w of waitlist) {
    if (w.party <= room) {
      chosen.push(w.id);
      room -= w.party;
    }
    if (room <= 0) break;
  }
  return chosen;
}

/** A registration type's prices and early-bird discount, in integer cents; early-bird ends at the end of that day. */
export interface RegistrationPricing {
  memberPriceCents: number;
  nonMemberPriceCents: number;
  earlyBirdUntil: string | null;
  earlyBirdDiscountCents: number;
}

/** The unit price and the item discount (never more than the price) of one seat on `today` (yyyy-MM-dd). */
export function registrationPrice(
  pricing: RegistrationPricing,
  buyer: { isMember: boolean; today: string },
): { unitPriceCents: number; discountCents: number } {
  const unitPriceCents = buyer.isMember ? pricing.memberPriceCents : pricing.nonMemberPriceCents;
  const early = pricing.earlyBirdUntil !== null && buyer.today <= pricing.earlyBirdUntil;
  const discountCents = early ? Math.min(unitPriceCents, Math.max(0, pricing.earlyBirdDiscountCents)) : 0;
  return { unitPriceCents, discountCents };
}

/**
 * The association's refund rule for a cancelled registration: all of what was paid back when cancelled at least
 * `fullRefundDays` days before the start, `latePercent` per cent of it afterwards (0 when nothing is refunded late),
 * nothing once the event started. Rounded down to the cent so a refund never exceeds what the rule allows.
 */
export function refundCents(
  paidCents: number,
  rule: { fullRefundDays: number; latePercent: number },
  startsAt: string,
  now: string,
): number {
  const ms = Date.parse(startsAt) - Date.parse(now);
  if (paidCents <= 0 || ms <= 0) return 0;
  if (ms >= rule.fullRefundDays * 86_400_000) return paidCents;
  const pct = Math.min(100, Math.max(0, Math.trunc(rule.latePercent)));
  return Math.floor((paidCents * pct) / 100);
}

/** The Repeats select of an event (its RRULE is derived on the server, events/recurrence.rules.ts). */
export const REPEAT_OPTIONS = [
  { Id: 'none', Name: 'Does not repeat' },
  { Id: 'daily', Name: 'Every day' },
  { Id: 'weekly', Name: 'Every week' },
  { Id: 'biweekly', Name: 'Every two weeks' },
  { Id: 'monthlyDate', Name: 'Every month on the same date' },
  { Id: 'monthlyWeekday', Name: 'Every month on the same weekday (e.g. second Tuesday)' },
  { Id: 'yearly', Name: 'Every year' },
  { Id: 'custom', Name: 'Custom rule (RRULE)' },
] as const;
export type Repeats = (typeof REPEAT_OPTIONS)[number]['Id'];

/**
 * The member's next occurrence (the member area's home): the earliest not yet ended among their registrations that
 * hold or await a seat (registered, awaiting payment, offered a seat, on the waitlist); null when none.
 */
export function nextRegistration<
  R extends { StartsAt: string; EndsAt: string; EventAttendeeStatusId: number },
>(registrations: readonly R[], now: Date): R | null {
  const waiting = new Set<number>([
    EVENT_ATTENDEE_STATUSES.Registered,
    EVENT_ATTENDEE_STATUSES.PendingPayment,
    EVENT_ATTENDEE_STATUSES.Offered,
    EVENT_ATTENDEE_STATUSES.Waitlisted,
  ]);
  let next: R | null = null;
  for (const r of registrations) {
    if (!waiting.has(r.EventAttendeeStatusId) || Date.parse(r.EndsAt) <= now.getTime()) continue;
    if (next === null || Date.parse(r.StartsAt) < Date.parse(next.StartsAt)) next = r;
  }
  return next;
}
