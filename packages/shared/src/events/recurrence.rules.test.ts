import { describe, expect, it } from 'vitest';
import {
  expandOccurrences,
  planOccurrences,
  recurrenceProblem,
  recurrenceRuleOf,
} from './recurrence.rules.ts';

describe('recurrence across DST changes, in the event timezone', () => {
  const cases = [
    {
      name: 'Chicago, weekly Tuesday 18:30, through the March change',
      timezone: 'America/Chicago',
      startsAt: '2026-03-03T00:30:00.000Z', // Mon 2 Mar 18:30 CST
      rrule: 'FREQ=WEEKLY;COUNT=3',
      starts: ['2026-03-03T00:30:00.000Z', '2026-03-09T23:30:00.000Z', '2026-03-16T23:30:00.000Z'],
    },
    {
      name: 'London, monthly second Tuesday 09:00, through the March change',
      timezone: 'Europe/London',
      startsAt: '2026-03-10T09:00:00.000Z',
      rrule: 'FREQ=MONTHLY;BYDAY=2TU;COUNT=2',
      starts: ['2026-03-10T09:00:00.000Z', '2026-04-14T08:00:00.000Z'],
    },
    {
      name: 'Sydney, daily 10:00, through the April change (clocks back)',
      timezone: 'Australia/Sydney',
      startsAt: '2026-04-03T23:00:00.000Z', // Sat 4 Apr 10:00 AEDT
      rrule: 'FREQ=DAILY;COUNT=2',
      starts: ['2026-04-03T23:00:00.000Z', '2026-04-05T00:00:00.000Z'],
    },
    {
      name: 'Chicago, weekly through the November change (clocks back)',
      timezone: 'America/Chicago',
      startsAt: '2026-10-27T23:30:00.000Z', // Tue 27 Oct 18:30 CDT
      rrule: 'FREQ=WEEKLY;COUNT=2',
      starts: ['2026-10-27T23:30:00.000Z', '2026-11-04T00:30:00.000Z'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const endsAt = new Date(Date.parse(c.startsAt) + 90 * 60_000).toISOString();
      const got = expandOccurrences(
        { startsAt: c.startsAt, endsAt, timezone: c.timezone, rrule: c.rrule },
        '2027-12-31T00:00:00.000Z',
      );
      expect(got.map((o) => o.startsAt)).toEqual(c.starts);
      for (const o of got) expect(Date.parse(o.endsAt) - Date.parse(o.startsAt)).toBe(90 * 60_000);
      expect(got.map((o) => o.originalStartsAt)).toEqual(c.starts);
    });
  }

  it('a single event is one occurrence; an open rule stops at the horizon', () => {
    const event = {
      startsAt: '2026-01-06T15:00:00.000Z',
      endsAt: '2026-01-06T16:00:00.000Z',
      timezone: 'America/Chicago',
    };
    expect(expandOccurrences({ ...event, rrule: null }, '2026-01-01T00:00:00.000Z')).toHaveLength(1);
    const weekly = expandOccurrences({ ...event, rrule: 'FREQ=WEEKLY' }, '2026-02-01T00:00:00.000Z');
    expect(weekly).toHaveLength(4);
    expect(expandOccurrences({ ...event, rrule: 'FREQ=DAILY' }, '2040-01-01T00:00:00.000Z')).toHaveLength(
      520,
    );
  });
});

describe('the Repeats select as an RRULE', () => {
  const start = '2026-03-10T23:30:00.000Z'; // Tue 10 Mar 18:30 in Chicago
  it.each([
    ['none', null],
    ['daily', 'FREQ=DAILY'],
    ['weekly', 'FREQ=WEEKLY'],
    ['biweekly', 'FREQ=WEEKLY;INTERVAL=2'],
    ['monthlyDate', 'FREQ=MONTHLY;BYMONTHDAY=10'],
    ['monthlyWeekday', 'FREQ=MONTHLY;BYDAY=2TU'],
    ['yearly', 'FREQ=YEARLY'],
    ['unknown', null],
  ])('%s → %s', (repeats, rule) => {
    expect(recurrenceRuleOf(repeats, start, 'America/Chicago', null)).toBe(rule);
  });
  it('the last weekday of a month late in it, an until day in the event timezone, and a custom rule', () => {
    expect(recurrenceRuleOf('monthlyWeekday', '2026-03-30T15:00:00Z', 'America/Chicago', null)).toBe(
      'FREQ=MONTHLY;BYDAY=-1MO',
    );
    expect(recurrenceRuleOf('weekly', start, 'America/Chicago', '2026-03-31')).toBe(
      'FREQ=WEEKLY;UNTIL=20260401T045959Z',
    );
    expect(recurrenceRuleOf('custom', start, 'America/Chicago', null, 'RRULE:FREQ=DAILY;COUNT=2')).toBe(
      'FREQ=DAILY;COUNT=2',
    );
    expect(recurrenceRuleOf('custom', start, 'America/Chicago', null, '  ')).toBeNull();
    const until = expandOccurrences(
      {
        startsAt: start,
        endsAt: start,
        timezone: 'America/Chicago',
        rrule: recurrenceRuleOf('weekly', start, 'America/Chicago', '2026-03-31'),
      },
      '2027-01-01T00:00:00Z',
    );
    expect(until.map((o) => o.startsAt.slice(0, 10))).toEqual([
      '2026-03-10',
      '2026-03-17',
      '2026-03-24',
      '2026-03-31',
    ]);
  });
  it('names a rule it cannot read', () => {
    expect(recurrenceProblem('FREQ=WEEKLY;COUNT=2', start, 'America/Chicago')).toBeNull();
    expect(recurrenceProblem('FREQ=SOMETIMES', start, 'America/Chicago')).toMatch(/cannot be read/);
  });
});

describe('stored occurrences follow a changed rule, exceptions kept', () => {
  const occ = (d: string) => ({ originalStartsAt: d, startsAt: d, endsAt: d });
  it('moves, adds, removes and cancels', () => {
    const plan = planOccurrences(
      [occ('2026-01-01T10:00:00.000Z'), occ('2026-01-08T10:00:00.000Z'), occ('2026-01-15T10:00:00.000Z')],
      [
        { id: 1, originalStartsAt: '2026-01-01T10:00:00Z', isException: false, hasAttendees: true },
        { id: 2, originalStartsAt: '2026-01-08T10:00:00.000Z', isException: true, hasAttendees: false },
        { id: 3, originalStartsAt: '2025-12-25T10:00:00.000Z', isException: false, hasAttendees: false },
        { id: 4, originalStartsAt: '2025-12-18T10:00:00.000Z', isException: false, hasAttendees: true },
      ],
    );
    expect(plan.update).toEqual([
      { id: 1, startsAt: '2026-01-01T10:00:00.000Z', endsAt: '2026-01-01T10:00:00.000Z' },
    ]);
    expect(plan.insert.map((o) => o.startsAt)).toEqual(['2026-01-15T10:00:00.000Z']);
    expect(plan.remove).toEqual([3]);
    expect(plan.cancel).toEqual([4]);
  });
});
