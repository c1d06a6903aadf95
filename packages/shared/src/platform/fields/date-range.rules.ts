import { TZDate } from '@date-fns/tz';
// Each function from its own module: the package's index loads every module of date-fns (about 2 s at each start).
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { addQuarters } from 'date-fns/addQuarters';
import { addWeeks } from 'date-fns/addWeeks';
import { addYears } from 'date-fns/addYears';
import { endOfMonth } from 'date-fns/endOfMonth';
import { endOfQuarter } from 'date-fns/endOfQuarter';
import { endOfWeek } from 'date-fns/endOfWeek';
import { endOfYear } from 'date-fns/endOfYear';
import { format } from 'date-fns/format';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfQuarter } from 'date-fns/startOfQuarter';
import { startOfWeek } from 'date-fns/startOfWeek';
import { startOfYear } from 'date-fns/startOfYear';
import { subDays } from 'date-fns/subDays';
import { subMonths } from 'date-fns/subMonths';
import { subQuarters } from 'date-fns/subQuarters';
import { subWeeks } from 'date-fns/subWeeks';
import { subYears } from 'date-fns/subYears';
import { calendarDay, DEFAULT_TIMEZONE, isCalendarDay, resolveTimeZone } from './date-input.rules.ts';

/**
 * Date range option ids 0-37 in the order of spec 000 section 9: "custom, today, yesterday, this/last week, last
 * two weeks, this/last month, this/last quarter, this/last year, last 7/30/60/90 days, 2-12 months ago, last 3
 * years, next week/two weeks/month/quarter/year, next 7/30/60/90 days, last 365 days".
 * See docs/decisions/0014-date-ranges.md for what each covers.
 */
export const DATE_RANGE_OPTIONS = [
  { Id: 0, Key: 'custom', Name: 'Custom' },
  { Id: 1, Key: 'today', Name: 'Today' },
  { Id: 2, Key: 'yesterday', Name: 'Yesterday' },
  { Id: 3, Key: 'thisWeek', Name: 'This Week' },
  { Id: 4, Key: 'lastWeek', Name: 'Last Week' },
  { Id: 5, Key: 'lastTwoWeeks', Name: 'Last Two Weeks' },
  { Id: 6, Key: 'thisMonth', Name: 'This Month' },
  { Id: 7, Key: 'lastMonth', Name: 'Last Month' },
  { Id: 8, Key: 'thisQuarter', Name: 'This Quarter' },
  { Id: 9, Key: 'lastQuarter', Name: 'Last Quarter' },
  { Id: 10, Key: 'thisYear', Name: 'This Year' },
  { Id: 11, Key: 'lastYear', Name: 'Last Year' },
  { Id: 12, Key: 'last7Days', Name: 'Last 7 Days' },
  { Id: 13, Key: 'last30Days', Name: 'Last 30 Days' },
  { Id: 14, Key: 'last60Days', Name: 'Last 60 Days' },
  { Id: 15, Key: 'last90Days', Name: 'Last 90 Days' },
  { Id: 16, Key: 'twoMonthsAgo', Name: '2 Months Ago' },
  { Id: 17, Key: 'threeMonthsAgo', Name: '3 Months Ago' },
  { Id: 18, Key: 'fourMonthsAgo', Name: '4 Months Ago' },
  { Id: 19, Key: 'fiveMonthsAgo', Name: '5 Months Ago' },
  { Id: 20, Key: 'sixMonthsAgo', Name: '6 Months Ago' },
  { Id: 21, Key: 'sevenMonthsAgo', Name: '7 Months Ago' },
  { Id: 22, Key: 'eightMonthsAgo', Name: '8 Months Ago' },
  { Id: 23, Key: 'nineMonthsAgo', Name: '9 Months Ago' },
  { Id: 24, Key: 'tenMonthsAgo', Name: '10 Months Ago' },
  { Id: 25, Key: 'elevenMonthsAgo', Name: '11 Months Ago' },
  { Id: 26, Key: 'twelveMonthsAgo', Name: '12 Months Ago' },
  { Id: 27, Key: 'last3Years', Name: 'Last 3 Years' },
  { Id: 28, Key: 'nextWeek', Name: 'Next Week' },
  { Id: 29, Key: 'nextTwoWeeks', Name: 'Next Two Weeks' },
  { Id: 30, Key: 'nextMonth', Name: 'Next Month' },
  { Id: 31, Key: 'nextQuarter', Name: 'Next Quarter' },
  { Id: 32, Key: 'nextYear', Name: 'Next Year' },
  { Id: 33, Key: 'next7Days', Name: 'Next 7 Days' },
  { Id: 34, Key: 'next30Days', Name: 'Next 30 Days' },
  { Id: 35, Key: 'next60Days', Name: 'Next 60 Days' },
  { Id: 36, Key: 'next90Days', Name: 'Next 90 Days' },
  { Id: 37, Key: 'last365Days', Name: 'Last 365 Days' },
] as const;
export type DateRangeOptionId = (typeof DATE_RANGE_OPTIONS)[number]['Id'];

export const DATE_RANGE_CUSTOM = 0;

/** A resolved range of whole calendar days in the tenant's timezone, both ends included (`yyyy-MM-dd`). */
export interface CalendarRange {
  StartDate: string;
  EndDate: string;
}

/** "Date range value: Range, StartDate, EndDate" (spec 000 section 3). */
export interface DateRangeValue {
  Range: number;
  StartDate: string | null;
  EndDate: string | null;
}

export interface DateRangeOptions {
  timeZone?: string;
  /** 0 = Sunday (the default, as US associations count weeks), 1 = Monday. */
  weekStartsOn?: 0 | 1 | 2 | 3 | 4 | 5 | 6;
}

const day = (date: Date) => format(date, 'yyyy-MM-dd');

/**
 * The first and last day of a range option for a given now. Null for Custom (0) and for unknown ids: the user's
 * own StartDate and EndDate apply.
 */
export function resolveDateRange(
  id: number,
  now: Date,
  options: DateRangeOptions = {},
): CalendarRange | null {
  const zone = resolveTimeZone(options.timeZone ?? DEFAULT_TIMEZONE);
  const weekStartsOn = options.weekStartsOn ?? 0;
  const today = new TZDate(now.getTime(), zone);
  const week = { weekStartsOn };
  const range = (start: Date, end: Date): CalendarRange => ({ StartDate: day(start), EndDate: day(end) });
  const lastDays = (n: number) => range(subDays(today, n - 1), today);
  const nextDays = (n: number) => range(today, addDays(today, n - 1));
  const monthsAgo = (n: number) => {
    const month = subMonths(today, n);
    return range(startOfMonth(month), endOfMonth(month));
  };
  switch (id) {
    case 1:
      return range(today, today);
    case 2:
      return range(subDays(today, 1), subDays(today, 1));
    case 3:
      return range(startOfWeek(today, week), endOfWeek(today, week));
    case 4:
      return range(startOfWeek(subWeeks(today, 1), week), endOfWeek(subWeeks(today, 1), week));
    case 5:
      return range(startOfWeek(subWeeks(today, 2), week), endOfWeek(subWeeks(today, 1), week));
    case 6:
      return range(startOfMonth(today), endOfMonth(today));
    case 7:
      return monthsAgo(1);
    case 8:
      return range(startOfQuarter(today), endOfQuarter(today));
    case 9:
      return range(startOfQuarter(subQuarters(today, 1)), endOfQuarter(subQuarters(today, 1)));
    case 10:
      return range(startOfYear(today), endOfYear(today));
    case 11:
      return range(startOfYear(subYears(today, 1)), endOfYear(subYears(today, 1)));
    case 12:
      return lastDays(7);
    case 13:
      return lastDays(30);
    case 14:
      return lastDays(60);
    case 15:
      return lastDays(90);
    case 27:
      return range(addDays(subYears(today, 3), 1), today);
    case 28:
      return range(startOfWeek(addWeeks(today, 1), week), endOfWeek(addWeeks(today, 1), week));
    case 29:
      return range(startOfWeek(addWeeks(today, 1), week), endOfWeek(addWeeks(today, 2), week));
    case 30:
      return range(startOfMonth(addMonths(today, 1)), endOfMonth(addMonths(today, 1)));
    case 31:
      return range(startOfQuarter(addQuarters(today, 1)), endOfQuarter(addQuarters(today, 1)));
    case 32:
      return range(startOfYear(addYears(today, 1)), endOfYear(addYears(today, 1)));
    case 33:
      return nextDays(7);
    case 34:
      return nextDays(30);
    case 35:
      return nextDays(60);
    case 36:
      return nextDays(90);
    case 37:
      return lastDays(365);
    default:
      return id >= 16 && id <= 26 ? monthsAgo(id - 14) : null;
  }
}

/**
 * The range a stored Date range value stands for: the option's days, or for Custom the user's own dates (either
 * may be open). Null when a custom value has neither date.
 */
export function dateRangeValueToRange(
  value: DateRangeValue,
  now: Date,
  options: DateRangeOptions = {},
): { StartDate: string | null; EndDate: string | null } | null {
  const resolved = value.Range === DATE_RANGE_CUSTOM ? null : resolveDateRange(value.Range, now, options);
  if (resolved) return resolved;
  const zone = options.timeZone ?? DEFAULT_TIMEZONE;
  const start = value.StartDate ? calendarDay(value.StartDate, zone) : null;
  const end = value.EndDate ? calendarDay(value.EndDate, zone) : null;
  return start || end ? { StartDate: start, EndDate: end } : null;
}

/**
 * The instants that bound a calendar range in the tenant's timezone, for a query:
 * `start <= at < endExclusive`, with start at midnight of StartDate and endExclusive at midnight after EndDate.
 */
export function calendarRangeToInstants(
  range: CalendarRange,
  timeZone: string = DEFAULT_TIMEZONE,
): { start: string; endExclusive: string } {
  if (!isCalendarDay(range.StartDate) || !isCalendarDay(range.EndDate)) {
    throw new RangeError(`Not a calendar range: ${range.StartDate} to ${range.EndDate}`);
  }
  const zone = resolveTimeZone(timeZone);
  const midnight = (text: string, plusDays: number) => {
    const [y, m, d] = text.split('-').map(Number) as [number, number, number];
    return new Date(new TZDate(y, m - 1, d + plusDays, zone).getTime()).toISOString();
  };
  return { start: midnight(range.StartDate, 0), endExclusive: midnight(range.EndDate, 1) };
}

/** "Quick date options: one day, week, month, year." (spec 000 section 9) */
export const QUICK_DATE_OPTIONS = ['day', 'week', 'month', 'year'] as const;
export type QuickDateOption = (typeof QUICK_DATE_OPTIONS)[number];

/** A quick option from a start day: one day is the day itself; a week, month or year ends the day before the
 * same day one period later (3/15 + one month = 3/15 to 4/14). */
export function quickDateRange(startDay: string, option: QuickDateOption): CalendarRange {
  if (!isCalendarDay(startDay)) throw new RangeError(`Not a calendar day: ${startDay}`);
  const [y, m, d] = startDay.split('-').map(Number) as [number, number, number];
  const start = new TZDate(y, m - 1, d, 'UTC');
  const next = {
    day: addDays(start, 1),
    week: addWeeks(start, 1),
    month: addMonths(start, 1),
    year: addYears(start, 1),
  }[option];
  return { StartDate: startDay, EndDate: day(subDays(next, 1)) };
}

/** How much of the calendar a range shortcut shows: one day, one month or one year. */
export type CalendarSpan = 'day' | 'month' | 'year';

/**
 * "Calendar mode with range shortcuts: Today, This Month, Last Month, This Year, Last Year." (spec 000 §2), each
 * with the range option it stands for and the span of the calendar that shows it.
 */
export const CALENDAR_RANGE_SHORTCUTS = [
  { Name: 'Today', Range: 1, Span: 'day' },
  { Name: 'This Month', Range: 6, Span: 'month' },
  { Name: 'Last Month', Range: 7, Span: 'month' },
  { Name: 'This Year', Range: 10, Span: 'year' },
  { Name: 'Last Year', Range: 11, Span: 'year' },
] as const satisfies readonly { Name: string; Range: DateRangeOptionId; Span: CalendarSpan }[];
export type CalendarRangeShortcut = (typeof CALENDAR_RANGE_SHORTCUTS)[number];

/**
 * Where a calendar goes for a range shortcut at a given now: its span and the range's days in the timezone the
 * calendar is drawn in (a calendar in the viewer's own timezone passes that one, not the association's).
 */
export function calendarShortcutTarget(
  shortcut: Pick<CalendarRangeShortcut, 'Range' | 'Span'>,
  now: Date,
  options: DateRangeOptions = {},
): CalendarRange & { Span: CalendarSpan } {
  const range = resolveDateRange(shortcut.Range, now, options);
  // Every shortcut names a fixed option (never Custom), which always resolves.
  if (!range) throw new RangeError(`Not a calendar shortcut: range ${shortcut.Range}`);
  return { ...range, Span: shortcut.Span };
}
