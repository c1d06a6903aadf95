import { TZDate } from '@date-fns/tz';
// Each function from its own module: the package's index loads every module of date-fns (about 2 s at each start).
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';

/** "Default timezone fallback America/Chicago." (spec 000 section 9) */
export const DEFAULT_TIMEZONE = 'America/Chicago';

/** "Date type values: DateOnly 0, DateAndTime 1, TimeOnly 2, DateOnlyNonUTC 3." (spec 000 section 9) */
export const DATE_TYPES = { DateOnly: 0, DateAndTime: 1, TimeOnly: 2, DateOnlyNonUTC: 3 } as const;
export type DateType = (typeof DATE_TYPES)[keyof typeof DATE_TYPES];

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The names already checked, and what each resolved to: building an Intl.DateTimeFormat to check a name costs about a
 * millisecond, and a request may resolve its tenant's timezone several times. Bounded (a name is a tenant's setting or
 * a request's parameter); the oldest name goes first.
 */
const resolvedZones = new Map<string, string>();
const MAX_RESOLVED_ZONES = 1000;

/** The tenant's timezone when it is a real IANA name, otherwise America/Chicago. */
export function resolveTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return DEFAULT_TIMEZONE;
  const known = resolvedZones.get(timeZone);
  if (known !== undefined) return known;
  let resolved: string;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    resolved = timeZone;
  } catch {
    resolved = DEFAULT_TIMEZONE;
  }
  if (resolvedZones.size >= MAX_RESOLVED_ZONES)
    resolvedZones.delete(resolvedZones.keys().next().value as string);
  resolvedZones.set(timeZone, resolved);
  return resolved;
}

function toInstant(value: string | Date): Date {
  const instant = typeof value === 'string' ? parseISO(value) : value;
  if (!isValid(instant)) throw new RangeError(`Not a date: ${String(value)}`);
  return instant;
}

/**
 * The calendar day (`yyyy-MM-dd`) of a value in the tenant's timezone. A bare `yyyy-MM-dd` is already a calendar
 * day and is kept; an instant (a Date, or an ISO text with a time) is converted to the timezone.
 */
export function calendarDay(value: string | Date, timeZone: string = DEFAULT_TIMEZONE): string {
  if (typeof value === 'string' && CALENDAR_DAY.test(value)) return value;
  const instant = toInstant(value);
  const zone = resolveTimeZone(timeZone);
  const year = instant.getUTCFullYear();
  // Years 2..9998 (a day's zone cannot move it out of 1..9999): one formatter per zone, kept; others as date-fns says.
  if (year > 1 && year < 9999) {
    const parts = dayFormatOf(zone).formatToParts(instant);
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
    return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
  }
  return format(new TZDate(instant.getTime(), zone), 'yyyy-MM-dd');
}

/** The formatter of a zone's calendar day, by zone (building one costs about a millisecond; a day is asked often). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormatOf(zone: string): Intl.DateTimeFormat {
  let found = dayFormats.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      calendar: 'gregory',
      numberingSystem: 'latn',
    });
    if (dayFormats.size >= MAX_RESOLVED_ZONES) dayFormats.delete(dayFormats.keys().next().value as string);
    dayFormats.set(zone, found);
  }
  return found;
}

/** Today's calendar day in the tenant's timezone. */
export function todayIn(timeZone: string = DEFAULT_TIMEZONE, now: Date = new Date()): string {
  return calendarDay(now, timeZone);
}

/** True when `yyyy-MM-dd` names a day that exists (no February 30). */
export function isCalendarDay(value: string): boolean {
  const match = CALENDAR_DAY.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export interface DateInputOptions {
  /** Refuse days before today. */
  disallowPast?: boolean;
  /** Refuse today itself. */
  disallowToday?: boolean;
  /** The tenant's today (`yyyy-MM-dd`) or an instant; defaults to now. */
  today?: string | Date;
  timeZone?: string;
}

export type DateInputResult = { ok: true; value: string | null } | { ok: false; error: string };

export const DATE_INPUT_MESSAGES = {
  format: 'Enter the date as month/day/year, for example 3/31/2026.',
  noSuchDay: 'That day does not exist in the calendar.',
  past: 'Choose today or a later date.',
  today: 'Choose a date other than today.',
  futureOnly: 'Choose a date after today.',
} as const;

const DATE_TEXT = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$/;

/**
 * "Date picker inputs accept month/day/year with slashes, dots or dashes; past dates and today may each be
 * disallowed by option." (spec 000 section 5). One separator throughout; a two-digit year falls in the window
 * from 79 years before to 20 years after today's year. Empty text is a valid empty value. The answer is a
 * calendar day `yyyy-MM-dd`.
 */
export function parseDateInput(text: string, options: DateInputOptions = {}): DateInputResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const match = DATE_TEXT.exec(trimmed);
  if (!match) return { ok: false, error: DATE_INPUT_MESSAGES.format };
  const [, monthText = '', , dayText = '', yearText = ''] = match;
  const timeZone = options.timeZone ?? DEFAULT_TIMEZONE;
  const today = calendarDay(options.today ?? new Date(), timeZone);
  let year = Number(yearText);
  if (yearText.length === 2) {
    const thisYear = Number(today.slice(0, 4));
    year += Math.floor(thisYear / 100) * 100;
    if (year > thisYear + 20) year -= 100;
  }
  const value = `${String(year).padStart(4, '0')}-${monthText.padStart(2, '0')}-${dayText.padStart(2, '0')}`;
  if (!isCalendarDay(value)) return { ok: false, error: DATE_INPUT_MESSAGES.noSuchDay };
  if (options.disallowPast && value < today) {
    return {
      ok: false,
      error: options.disallowToday ? DATE_INPUT_MESSAGES.futureOnly : DATE_INPUT_MESSAGES.past,
    };
  }
  if (options.disallowToday && value === today) {
    return {
      ok: false,
      error: options.disallowPast ? DATE_INPUT_MESSAGES.futureOnly : DATE_INPUT_MESSAGES.today,
    };
  }
  return { ok: true, value };
}

/** `yyyy-MM-dd` to the text the date picker shows: `03/05/2026`. */
export function formatDateInput(day: string): string {
  const match = CALENDAR_DAY.exec(day);
  if (!match) throw new RangeError(`Not a calendar day: ${day}`);
  return `${match[2]}/${match[3]}/${match[1]}`;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A month `yyyy-MM` as a report's column names it: `Mar 2026`. */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? MONTH_NAMES[Number(match[2]) - 1] : undefined;
  if (!match || !name) throw new RangeError(`Not a month: ${month}`);
  return `${name} ${match[1]}`;
}

function toComparable(value: string | Date): number {
  if (typeof value === 'string') {
    const match = CALENDAR_DAY.exec(value);
    if (match) return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  }
  return toInstant(value).getTime();
}

/**
 * "Date pairs: a lower-than / higher-than field marks invalid when its date is later/earlier than its limit."
 * (spec 000 section 5). Equal dates are valid; a missing value or limit never fails.
 */
export function isDateWithinLimits(
  value: string | Date | null | undefined,
  limits: { lowerThan?: string | Date | null; higherThan?: string | Date | null },
): boolean {
  if (value === null || value === undefined || value === '') return true;
  const at = toComparable(value);
  if (limits.lowerThan && at > toComparable(limits.lowerThan)) return false;
  if (limits.higherThan && at < toComparable(limits.higherThan)) return false;
  return true;
}

const labels = new Map<string, Intl.DateTimeFormat>();
/** The zone's short name at that instant, as people read it beside a time: "CST", "CDT", "GMT+1". */
export function timeZoneLabel(value: string | Date, timeZone: string | null | undefined): string {
  const zone = resolveTimeZone(timeZone);
  let f = labels.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    labels.set(zone, f);
  }
  return f.formatToParts(toInstant(value)).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/**
 * An instant as every screen shows it (decision 0091): in the given timezone (the user's, else the association's),
 * always with that zone's name, so no time is read in the wrong zone: "11/25/2026 7:05 AM CST". Text that is no
 * instant is shown as it is.
 */
export function formatInstant(
  value: string | Date | null | undefined,
  timeZone: string | null | undefined,
  precision: 'minute' | 'second' = 'minute',
): string {
  if (value === null || value === undefined || value === '') return '';
  const instant = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(instant.getTime())) return String(value);
  const zone = resolveTimeZone(timeZone);
  const pattern = precision === 'second' ? 'MM/dd/yyyy h:mm:ss a' : 'MM/dd/yyyy h:mm a';
  return `${format(new TZDate(instant.getTime(), zone), pattern)} ${timeZoneLabel(instant, zone)}`;
}

/** An instant as a datetime-local input holds it, in the timezone: "2026-07-03T22:30". */
export function zonedDateTimeInput(value: string | Date, timeZone: string | null | undefined): string {
  const instant = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(instant.getTime())) return '';
  return format(new TZDate(instant.getTime(), resolveTimeZone(timeZone)), "yyyy-MM-dd'T'HH:mm");
}

/** True for text that holds an instant (ISO date and time), as APIs answer timestamps. */
export function isInstantText(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)
  );
}

/**
 * Shows a stored value by its date type: DateOnly and DateAndTime and TimeOnly are instants shown in the
 * tenant's timezone; DateOnlyNonUTC is a calendar day shown as stored, with no timezone shift (birthdays).
 */
export function formatDateValue(
  value: string | Date,
  dateType: DateType,
  timeZone: string = DEFAULT_TIMEZONE,
): string {
  const zone = resolveTimeZone(timeZone);
  switch (dateType) {
    case DATE_TYPES.DateOnlyNonUTC: {
      const day =
        typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)
          ? value.slice(0, 10)
          : toInstant(value).toISOString().slice(0, 10);
      return formatDateInput(day);
    }
    case DATE_TYPES.DateOnly:
      return formatDateInput(calendarDay(value, zone));
    case DATE_TYPES.DateAndTime:
      return `${format(new TZDate(toInstant(value).getTime(), zone), 'MM/dd/yyyy h:mm a')} ${timeZoneLabel(value, zone)}`;
    case DATE_TYPES.TimeOnly:
      return format(new TZDate(toInstant(value).getTime(), zone), 'h:mm a');
  }
}

/**
 * The value to store for a day (`yyyy-MM-dd`) and a wall-clock time (`HH:mm`, optional) the user picked:
 * DateOnlyNonUTC keeps the calendar day; the other types become a UTC instant (ISO text) of that wall-clock time
 * in the tenant's timezone (midnight when no time is given).
 */
export function toStoredDateValue(
  day: string,
  time: string | null,
  dateType: DateType,
  timeZone: string = DEFAULT_TIMEZONE,
): string {
  if (!isCalendarDay(day)) throw new RangeError(`Not a calendar day: ${day}`);
  if (dateType === DATE_TYPES.DateOnlyNonUTC) return day;
  const clock = dateType === DATE_TYPES.DateOnly || !time ? '00:00' : time;
  const timeMatch = /^(\d{1,2}):(\d{2})$/.exec(clock);
  const hours = Number(timeMatch?.[1] ?? Number.NaN);
  const minutes = Number(timeMatch?.[2] ?? Number.NaN);
  if (!(hours >= 0 && hours < 24 && minutes >= 0 && minutes < 60))
    throw new RangeError(`Not a time: ${clock}`);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const local = new TZDate(y, m - 1, d, hours, minutes, resolveTimeZone(timeZone));
  return new Date(local.getTime()).toISOString();
}
