import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calendarDay,
  DATE_INPUT_MESSAGES,
  DATE_TYPES,
  DEFAULT_TIMEZONE,
  formatDateInput,
  formatDateValue,
  formatInstant,
  formatMonth,
  isCalendarDay,
  isDateWithinLimits,
  isInstantText,
  parseDateInput,
  resolveTimeZone,
  todayIn,
  toStoredDateValue,
} from './date-input.rules.ts';

const today = '2026-05-15';

describe('date picker text (spec 000 §5: "accept month/day/year with slashes, dots or dashes; past dates and today may each be disallowed by option")', () => {
  it.each([
    ['5/15/2026', '2026-05-15'],
    ['05.15.2026', '2026-05-15'],
    ['5-15-2026', '2026-05-15'],
    ['12/31/99', '1999-12-31'],
    ['1/2/26', '2026-01-02'],
    ['1/2/46', '2046-01-02'],
    ['1/2/47', '1947-01-02'],
    ['2/29/2028', '2028-02-29'],
    ['  3/4/2026 ', '2026-03-04'],
    ['', null],
  ])('%j -> %j', (text, expected) => {
    expect(parseDateInput(text, { today })).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['2026-05-15', DATE_INPUT_MESSAGES.format],
    ['5/15-2026', DATE_INPUT_MESSAGES.format],
    ['May 15 2026', DATE_INPUT_MESSAGES.format],
    ['2/30/2026', DATE_INPUT_MESSAGES.noSuchDay],
    ['13/1/2026', DATE_INPUT_MESSAGES.noSuchDay],
    ['2/29/2027', DATE_INPUT_MESSAGES.noSuchDay],
  ])('refuses %j', (text, error) => {
    expect(parseDateInput(text, { today })).toEqual({ ok: false, error });
  });

  it('past dates and today may each be disallowed', () => {
    expect(parseDateInput('5/14/2026', { today, disallowPast: true })).toEqual({
      ok: false,
      error: DATE_INPUT_MESSAGES.past,
    });
    expect(parseDateInput('5/15/2026', { today, disallowPast: true })).toEqual({
      ok: true,
      value: '2026-05-15',
    });
    expect(parseDateInput('5/15/2026', { today, disallowToday: true })).toEqual({
      ok: false,
      error: DATE_INPUT_MESSAGES.today,
    });
    expect(parseDateInput('5/14/2026', { today, disallowToday: true })).toEqual({
      ok: true,
      value: '2026-05-14',
    });
    const both = { today, disallowPast: true, disallowToday: true };
    expect(parseDateInput('5/15/2026', both)).toEqual({ ok: false, error: DATE_INPUT_MESSAGES.futureOnly });
    expect(parseDateInput('5/1/2026', both)).toEqual({ ok: false, error: DATE_INPUT_MESSAGES.futureOnly });
    expect(parseDateInput('5/16/2026', both)).toEqual({ ok: true, value: '2026-05-16' });
    // "today" is the tenant's today: 02:00 UTC on May 16 is still May 15 in Chicago
    expect(
      parseDateInput('5/15/2026', { today: new Date('2026-05-16T02:00:00Z'), disallowPast: true }).ok,
    ).toBe(true);
    expect(parseDateInput('1/1/2999').ok).toBe(true);
  });

  it('shows a day back as the picker text', () => {
    expect(formatDateInput('2026-03-05')).toBe('03/05/2026');
    expect(() => formatDateInput('March 5')).toThrow(RangeError);
  });

  it("names a report's month by its short name and year", () => {
    expect(formatMonth('2026-03')).toBe('Mar 2026');
    expect(formatMonth('2027-12')).toBe('Dec 2027');
    expect(() => formatMonth('2026-13')).toThrow(RangeError);
    expect(() => formatMonth('2026-3')).toThrow(RangeError);
  });
});

describe('date pairs (spec 000 §5: "a lower-than / higher-than field marks invalid when its date is later/earlier than its limit")', () => {
  it.each([
    ['2026-05-10', { lowerThan: '2026-05-15' }, true],
    ['2026-05-15', { lowerThan: '2026-05-15' }, true],
    ['2026-05-16', { lowerThan: '2026-05-15' }, false],
    ['2026-05-16', { higherThan: '2026-05-15' }, true],
    ['2026-05-14', { higherThan: '2026-05-15' }, false],
    ['2026-05-14T10:00:00Z', { higherThan: '2026-05-14T09:00:00Z' }, true],
    [new Date('2026-05-14T08:00:00Z'), { higherThan: '2026-05-14T09:00:00Z' }, false],
    [null, { lowerThan: '2026-01-01' }, true],
    ['', { lowerThan: '2026-01-01' }, true],
    ['2026-05-14', {}, true],
    ['2026-05-14', { lowerThan: null, higherThan: null }, true],
  ])('%j with %j is valid: %s', (value, limits, expected) => {
    expect(isDateWithinLimits(value, limits)).toBe(expected);
  });

  it('throws on a limit that is not a date', () => {
    expect(() => isDateWithinLimits('2026-01-01', { lowerThan: 'soon' })).toThrow(RangeError);
  });
});

describe('date types and the tenant timezone (spec 000 §9: "DateOnly 0, DateAndTime 1, TimeOnly 2, DateOnlyNonUTC 3"; "Default timezone fallback America/Chicago")', () => {
  it('names the values and falls back to America/Chicago', () => {
    expect(DATE_TYPES).toEqual({ DateOnly: 0, DateAndTime: 1, TimeOnly: 2, DateOnlyNonUTC: 3 });
    expect(DEFAULT_TIMEZONE).toBe('America/Chicago');
    expect(resolveTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(resolveTimeZone('Mars/Olympus')).toBe('America/Chicago');
    expect(resolveTimeZone(null)).toBe('America/Chicago');
  });

  it('finds calendar days in a timezone', () => {
    expect(calendarDay('2026-05-15')).toBe('2026-05-15');
    expect(calendarDay('2026-05-16T04:59:00Z')).toBe('2026-05-15');
    expect(calendarDay('2026-05-16T05:00:00Z')).toBe('2026-05-16');
    expect(calendarDay(new Date('2026-05-16T04:59:00Z'), 'UTC')).toBe('2026-05-16');
    expect(todayIn('Asia/Tokyo', new Date('2026-05-15T20:00:00Z'))).toBe('2026-05-16');
    expect(typeof todayIn()).toBe('string');
    expect(() => calendarDay('not a date')).toThrow(RangeError);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('20260229')).toBe(false);
  });

  it.each([
    ['2026-07-04T03:30:00Z', DATE_TYPES.DateOnly, '07/03/2026'],
    ['2026-07-04', DATE_TYPES.DateOnly, '07/04/2026'],
    ['2026-07-04T03:30:00Z', DATE_TYPES.DateAndTime, '07/03/2026 10:30 PM CDT'],
    ['2026-07-04T03:30:00Z', DATE_TYPES.TimeOnly, '10:30 PM'],
    ['2026-07-04T03:30:00Z', DATE_TYPES.DateOnlyNonUTC, '07/04/2026'],
    [new Date('1990-02-01T00:00:00Z'), DATE_TYPES.DateOnlyNonUTC, '02/01/1990'],
  ] as const)('formatDateValue(%j, type %i) in Chicago = %j', (value, type, expected) => {
    expect(formatDateValue(value, type)).toBe(expected);
  });

  it('stores picked values by date type', () => {
    expect(toStoredDateValue('1990-02-01', null, DATE_TYPES.DateOnlyNonUTC)).toBe('1990-02-01');
    expect(toStoredDateValue('2026-07-04', '18:30', DATE_TYPES.DateAndTime)).toBe('2026-07-04T23:30:00.000Z');
    expect(toStoredDateValue('2026-01-04', '18:30', DATE_TYPES.DateAndTime)).toBe('2026-01-05T00:30:00.000Z');
    expect(toStoredDateValue('2026-07-04', '18:30', DATE_TYPES.DateOnly)).toBe('2026-07-04T05:00:00.000Z');
    expect(toStoredDateValue('2026-07-04', '9:05', DATE_TYPES.TimeOnly, 'UTC')).toBe(
      '2026-07-04T09:05:00.000Z',
    );
    expect(toStoredDateValue('2026-07-04', null, DATE_TYPES.DateAndTime)).toBe('2026-07-04T05:00:00.000Z');
    expect(() => toStoredDateValue('2026-07-04', '25:00', DATE_TYPES.DateAndTime)).toThrow(RangeError);
    expect(() => toStoredDateValue('2026-02-30', null, DATE_TYPES.DateOnly)).toThrow(RangeError);
  });
});

describe('instants are shown in one timezone and say which', () => {
  it('labels the zone, summer and winter', () => {
    expect(formatInstant('2026-07-04T03:30:00Z', 'America/Chicago')).toBe('07/03/2026 10:30 PM CDT');
    expect(formatInstant('2026-01-04T03:30:00Z', 'America/Chicago')).toBe('01/03/2026 9:30 PM CST');
    expect(formatInstant('2026-01-04T03:30:05Z', 'Europe/Paris', 'second')).toBe(
      '01/04/2026 4:30:05 AM GMT+1',
    );
    expect(formatInstant('2026-01-04T03:30:05Z', 'Not/AZone')).toMatch(/ CST$/);
    expect(formatInstant('soon', 'UTC')).toBe('soon');
    expect(formatInstant(null, 'UTC')).toBe('');
  });

  it('tells instants from other text', () => {
    expect(isInstantText('2026-01-04T03:30:05.123Z')).toBe(true);
    expect(isInstantText('2026-01-04T03:30:05+01:00')).toBe(true);
    expect(isInstantText('2026-01-04')).toBe(false);
    expect(isInstantText('Lovelace')).toBe(false);
  });
});

describe('calendarDay by its kept formatters', () => {
  it('names the same day as date-fns in the zone, for any instant and zone (DST changes included)', () => {
    const zones = [
      'America/Chicago',
      'Europe/Warsaw',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Apia',
      'America/St_Johns',
      'UTC',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 11, 31) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          expect(calendarDay(new Date(ms), zone)).toBe(format(new TZDate(ms, zone), 'yyyy-MM-dd'));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
