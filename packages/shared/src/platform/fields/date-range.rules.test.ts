import { describe, expect, it } from 'vitest';
import {
  CALENDAR_RANGE_SHORTCUTS,
  calendarRangeToInstants,
  calendarShortcutTarget,
  DATE_RANGE_OPTIONS,
  dateRangeValueToRange,
  quickDateRange,
  resolveDateRange,
} from './date-range.rules.ts';

// Friday 15 May 2026, 10:00 in Chicago
const now = new Date('2026-05-15T15:00:00Z');

describe('date range options 0-37 (spec 000 §9; decision 0014)', () => {
  it('has the 38 options in the order of the specification', () => {
    expect(DATE_RANGE_OPTIONS.map((option) => option.Id)).toEqual(
      Array.from({ length: 38 }, (_, index) => index),
    );
    expect(DATE_RANGE_OPTIONS[0].Key).toBe('custom');
    expect(DATE_RANGE_OPTIONS[16].Name).toBe('2 Months Ago');
    expect(DATE_RANGE_OPTIONS[26].Name).toBe('12 Months Ago');
    expect(DATE_RANGE_OPTIONS[27].Key).toBe('last3Years');
    expect(DATE_RANGE_OPTIONS[37].Key).toBe('last365Days');
  });

  it.each([
    [1, 'today', '2026-05-15', '2026-05-15'],
    [2, 'yesterday', '2026-05-14', '2026-05-14'],
    [3, 'this week (Sunday to Saturday)', '2026-05-10', '2026-05-16'],
    [4, 'last week', '2026-05-03', '2026-05-09'],
    [5, 'last two weeks', '2026-04-26', '2026-05-09'],
    [6, 'this month', '2026-05-01', '2026-05-31'],
    [7, 'last month', '2026-04-01', '2026-04-30'],
    [8, 'this quarter', '2026-04-01', '2026-06-30'],
    [9, 'last quarter', '2026-01-01', '2026-03-31'],
    [10, 'this year', '2026-01-01', '2026-12-31'],
    [11, 'last year', '2025-01-01', '2025-12-31'],
    [12, 'last 7 days', '2026-05-09', '2026-05-15'],
    [13, 'last 30 days', '2026-04-16', '2026-05-15'],
    [14, 'last 60 days', '2026-03-17', '2026-05-15'],
    [15, 'last 90 days', '2026-02-15', '2026-05-15'],
    [16, '2 months ago', '2026-03-01', '2026-03-31'],
    [17, '3 months ago', '2026-02-01', '2026-02-28'],
    [21, '7 months ago', '2025-10-01', '2025-10-31'],
    [26, '12 months ago', '2025-05-01', '2025-05-31'],
    [27, 'last 3 years', '2023-05-16', '2026-05-15'],
    [28, 'next week', '2026-05-17', '2026-05-23'],
    [29, 'next two weeks', '2026-05-17', '2026-05-30'],
    [30, 'next month', '2026-06-01', '2026-06-30'],
    [31, 'next quarter', '2026-07-01', '2026-09-30'],
    [32, 'next year', '2027-01-01', '2027-12-31'],
    [33, 'next 7 days', '2026-05-15', '2026-05-21'],
    [34, 'next 30 days', '2026-05-15', '2026-06-13'],
    [35, 'next 60 days', '2026-05-15', '2026-07-13'],
    [36, 'next 90 days', '2026-05-15', '2026-08-12'],
    [37, 'last 365 days', '2025-05-16', '2026-05-15'],
  ])('%i (%s) = %s to %s', (id, _, start, end) => {
    expect(resolveDateRange(id, now)).toEqual({ StartDate: start, EndDate: end });
  });

  it('custom and unknown ids have no range of their own', () => {
    expect(resolveDateRange(0, now)).toBeNull();
    expect(resolveDateRange(38, now)).toBeNull();
    expect(resolveDateRange(-1, now)).toBeNull();
  });

  it('uses the tenant timezone for today and can start weeks on Monday', () => {
    const lateFriday = new Date('2026-05-16T03:00:00Z');
    expect(resolveDateRange(1, lateFriday)).toEqual({ StartDate: '2026-05-15', EndDate: '2026-05-15' });
    expect(resolveDateRange(1, lateFriday, { timeZone: 'UTC' })).toEqual({
      StartDate: '2026-05-16',
      EndDate: '2026-05-16',
    });
    expect(resolveDateRange(3, now, { weekStartsOn: 1 })).toEqual({
      StartDate: '2026-05-11',
      EndDate: '2026-05-17',
    });
  });

  it('resolves stored date range values', () => {
    expect(dateRangeValueToRange({ Range: 7, StartDate: null, EndDate: null }, now)).toEqual({
      StartDate: '2026-04-01',
      EndDate: '2026-04-30',
    });
    expect(dateRangeValueToRange({ Range: 0, StartDate: '2026-01-01', EndDate: null }, now)).toEqual({
      StartDate: '2026-01-01',
      EndDate: null,
    });
    expect(
      dateRangeValueToRange({ Range: 0, StartDate: null, EndDate: '2026-02-01T12:00:00Z' }, now),
    ).toEqual({
      StartDate: null,
      EndDate: '2026-02-01',
    });
    expect(dateRangeValueToRange({ Range: 0, StartDate: null, EndDate: null }, now)).toBeNull();
  });

  it('turns a range into query instants across daylight saving time', () => {
    expect(calendarRangeToInstants({ StartDate: '2026-03-08', EndDate: '2026-03-08' })).toEqual({
      start: '2026-03-08T06:00:00.000Z',
      endExclusive: '2026-03-09T05:00:00.000Z',
    });
    expect(calendarRangeToInstants({ StartDate: '2026-12-31', EndDate: '2026-12-31' }, 'UTC')).toEqual({
      start: '2026-12-31T00:00:00.000Z',
      endExclusive: '2027-01-01T00:00:00.000Z',
    });
    expect(() => calendarRangeToInstants({ StartDate: 'x', EndDate: '2026-01-01' })).toThrow(RangeError);
  });
});

describe('quick date options (spec 000 §9: "one day, week, month, year")', () => {
  it.each([
    ['day', '2026-03-15', '2026-03-15'],
    ['week', '2026-03-15', '2026-03-21'],
    ['month', '2026-03-15', '2026-04-14'],
    ['month', '2026-01-31', '2026-02-27'],
    ['year', '2026-03-15', '2027-03-14'],
    ['year', '2028-02-29', '2029-02-27'],
  ] as const)('one %s from %s ends %s', (option, start, end) => {
    expect(quickDateRange(start, option)).toEqual({ StartDate: start, EndDate: end });
  });

  it('refuses a start that is not a day', () => {
    expect(() => quickDateRange('2026-02-30', 'day')).toThrow(RangeError);
  });

  it('lists the calendar shortcuts "Today, This Month, Last Month, This Year, Last Year"', () => {
    expect(CALENDAR_RANGE_SHORTCUTS.map((shortcut) => shortcut.Name)).toEqual([
      'Today',
      'This Month',
      'Last Month',
      'This Year',
      'Last Year',
    ]);
    for (const shortcut of CALENDAR_RANGE_SHORTCUTS) {
      expect(DATE_RANGE_OPTIONS[shortcut.Range].Name).toBe(shortcut.Name);
    }
  });

  it('sends a calendar to the span and the first day of each shortcut', () => {
    expect(CALENDAR_RANGE_SHORTCUTS.map((s) => calendarShortcutTarget(s, now))).toEqual([
      { Span: 'day', StartDate: '2026-05-15', EndDate: '2026-05-15' },
      { Span: 'month', StartDate: '2026-05-01', EndDate: '2026-05-31' },
      { Span: 'month', StartDate: '2026-04-01', EndDate: '2026-04-30' },
      { Span: 'year', StartDate: '2026-01-01', EndDate: '2026-12-31' },
      { Span: 'year', StartDate: '2025-01-01', EndDate: '2025-12-31' },
    ]);
  });

  it("counts a shortcut's days in the calendar's timezone", () => {
    // 1 January 2027, 03:00 UTC: still New Year's Eve in Chicago, already New Year's Day in Tokyo.
    const newYear = new Date('2027-01-01T03:00:00Z');
    const today = CALENDAR_RANGE_SHORTCUTS[0];
    const lastYear = CALENDAR_RANGE_SHORTCUTS[4];
    expect(calendarShortcutTarget(today, newYear, { timeZone: 'America/Chicago' }).StartDate).toBe(
      '2026-12-31',
    );
    expect(calendarShortcutTarget(today, newYear, { timeZone: 'Asia/Tokyo' }).StartDate).toBe('2027-01-01');
    expect(calendarShortcutTarget(lastYear, newYear, { timeZone: 'America/Chicago' }).StartDate).toBe(
      '2025-01-01',
    );
    expect(calendarShortcutTarget(lastYear, newYear, { timeZone: 'Asia/Tokyo' }).StartDate).toBe(
      '2026-01-01',
    );
  });

  it('refuses an option that is not a fixed range', () => {
    expect(() => calendarShortcutTarget({ Range: 0 as 1, Span: 'day' }, now)).toThrow(RangeError);
  });
});
