/**
 * Recurring events: a rule (RFC 5545 RRULE) read in the event's own timezone and expanded on the server into
 * occurrences (EventDetails), so an evening meeting stays at 18:30 local time on both sides of a DST change.
 * Expansion uses rrule-temporal (Temporal zoned date-times); instants travel as ISO texts in UTC. Server-only: not
 * exported from the package index, so the web bundle does not carry the Temporal polyfill
 * (`@guildhall/shared/events/recurrence.rules`).
 */
import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';

export { REPEAT_OPTIONS, type Repeats } from './events.rules.ts';

/** How far ahead an open-ended rule is expanded, and the most occurrences one event may have. */
export const RECURRENCE_HORIZON_DAYS = 730;
export const MAX_OCCURRENCES = 520;

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

function zoned(instant: string, timezone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.from(new Date(instant).toISOString()).toZonedDateTimeISO(timezone);
}

/** An instant as every events payload carries it: `2026-03-10T23:30:00.000Z`. */
export function isoInstant(value: string | Date): string {
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}

/**
 * The RRULE of a choice of the Repeats select, for an event starting at `startsAt` in `timezone`, ending on the
 * calendar day `until` (yyyy-MM-dd, included) when given. `custom` keeps the rule typed by the user; `none` has none.
 */
export function recurrenceRuleOf(
  repeats: string | null | undefined,
  startsAt: string,
  timezone: string,
  until: string | null | undefined,
  custom?: string | null,
): string | null {
  if (!repeats || repeats === 'none') return null;
  if (repeats === 'custom') return custom?.trim() ? custom.trim().replace(/^RRULE:/i, '') : null;
  const start = zoned(startsAt, timezone);
  const day = WEEKDAYS[start.dayOfWeek - 1];
  const parts: Record<string, string> = {
    daily: 'FREQ=DAILY',
    weekly: 'FREQ=WEEKLY',
    biweekly: 'FREQ=WEEKLY;INTERVAL=2',
    monthlyDate: `FREQ=MONTHLY;BYMONTHDAY=${start.day}`,
    monthlyWeekday: `FREQ=MONTHLY;BYDAY=${start.day > 28 ? -1 : Math.ceil(start.day / 7)}${day}`,
    yearly: 'FREQ=YEARLY',
  };
  const base = parts[repeats];
  if (!base) return null;
  if (!until) return base;
  // UNTIL is a UTC instant (RFC 5545): the end of the last day in the event's timezone.
  const end = Temporal.PlainDate.from(until)
    .add({ days: 1 })
    .toZonedDateTime({ timeZone: timezone })
    .subtract({ seconds: 1 })
    .toInstant()
    .toString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+/, '');
  return `${base};UNTIL=${end}`;
}

/** Why a rule cannot be used, or null when it can. */
export function recurrenceProblem(rrule: string, startsAt: string, timezone: string): string | null {
  try {
    const rule = new RRuleTemporal({
      rruleString: rrule.replace(/^RRULE:/i, ''),
      dtstart: zoned(startsAt, timezone),
    });
    rule.all((_, i) => i < 2);
    return null;
  } catch (e) {
    return `The repeat rule cannot be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}

export interface Occurrence {
  /** The occurrence as the rule places it: the key an exception (moved, cancelled) is remembered by. */
  originalStartsAt: string;
  startsAt: string;
  endsAt: string;
}

/**
 * The occurrences of an event from `startsAt` (its first) until `horizonEnd`, at most MAX_OCCURRENCES. Each keeps the
 * first occurrence's local time of day in the event's timezone and its exact duration.
 */
export function expandOccurrences(
  event: { startsAt: string; endsAt: string; timezone: string; rrule: string | null },
  horizonEnd: string,
): Occurrence[] {
  const durationMs = Math.max(0, Date.parse(event.endsAt) - Date.parse(event.startsAt));
  const one = (start: string): Occurrence => ({
    originalStartsAt: isoInstant(start),
    startsAt: isoInstant(start),
    endsAt: new Date(Date.parse(start) + durationMs).toISOString(),
  });
  if (!event.rrule) return [one(event.startsAt)];
  const rule = new RRuleTemporal({
    rruleString: event.rrule.replace(/^RRULE:/i, ''),
    dtstart: zoned(event.startsAt, event.timezone),
  });
  const limit = Date.parse(horizonEnd);
  const starts = rule.all((dt, i) => i < MAX_OCCURRENCES && dt.toInstant().epochMilliseconds <= limit);
  return starts.map((dt) => one(new Date(dt.toInstant().epochMilliseconds).toISOString()));
}

/** An occurrence already stored: its rule key, whether staff changed it by hand, whether anyone registered. */
export interface StoredOccurrence {
  id: number;
  originalStartsAt: string;
  isException: boolean;
  hasAttendees: boolean;
}

export interface OccurrencePlan {
  insert: Occurrence[];
  update: { id: number; startsAt: string; endsAt: string }[];
  /** No longer in the rule and nobody registered: removed. */
  remove: number[];
  /** No longer in the rule but people registered: kept, cancelled, so they can be told and refunded. */
  cancel: number[];
}

/**
 * How the stored occurrences follow a changed rule: occurrences the rule still has are moved to its times unless
 * staff changed them by hand (an exception: moved or cancelled stays as it is), new ones are added, and those the
 * rule dropped are removed, or cancelled when someone registered for them.
 */
export function planOccurrences(
  generated: readonly Occurrence[],
  stored: readonly StoredOccurrence[],
): OccurrencePlan {
  const byKey = new Map(stored.map((s) => [isoInstant(s.originalStartsAt), s]));
  const plan: OccurrencePlan = { insert: [], update: [], remove: [], cancel: [] };
  const kept = new Set<number>();
  for (const occurrence of generated) {
    const existing = byKey.get(occurrence.originalStartsAt);
    if (!existing) {
      plan.insert.push(occurrence);
      continue;
    }
    kept.add(existing.id);
    if (!existing.isException)
      plan.update.push({ id: existing.id, startsAt: occurrence.startsAt, endsAt: occurrence.endsAt });
  }
  for (const s of stored) {
    if (kept.has(s.id)) continue;
    if (s.hasAttendees) plan.cancel.push(s.id);
    else plan.remove.push(s.id);
  }
  return plan;
}
