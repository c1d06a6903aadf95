import { describe, expect, it } from 'vitest';
import { reportScheduleInputSchema, scheduleDueOn, scheduleSummary } from './report-schedule.rules.ts';

describe('report schedules', () => {
  it('sends daily every day, weekly on its weekday, monthly on its day or the month’s last', () => {
    const daily = { Frequency: 'daily', Weekday: null, DayOfMonth: null } as const;
    expect(scheduleDueOn(daily, '2026-11-26')).toBe(true);
    expect(scheduleDueOn(daily, 'not a day')).toBe(false);
    // 2026-11-26 is a Thursday (ISO 4), 2026-11-29 a Sunday (ISO 7).
    const thursday = { Frequency: 'weekly', Weekday: 4, DayOfMonth: null } as const;
    expect(scheduleDueOn(thursday, '2026-11-26')).toBe(true);
    expect(scheduleDueOn(thursday, '2026-11-27')).toBe(false);
    expect(scheduleDueOn({ ...thursday, Weekday: 7 }, '2026-11-29')).toBe(true);
    const on31 = { Frequency: 'monthly', Weekday: null, DayOfMonth: 31 } as const;
    expect(scheduleDueOn(on31, '2026-11-30')).toBe(true);
    expect(scheduleDueOn(on31, '2026-11-29')).toBe(false);
    expect(scheduleDueOn(on31, '2026-12-30')).toBe(false);
    expect(scheduleDueOn(on31, '2026-12-31')).toBe(true);
    expect(scheduleDueOn({ ...on31, DayOfMonth: 29 }, '2027-02-28')).toBe(true);
    expect(scheduleDueOn({ ...on31, DayOfMonth: 29 }, '2028-02-28')).toBe(false);
    expect(scheduleDueOn({ ...on31, DayOfMonth: 29 }, '2028-02-29')).toBe(true);
    expect(scheduleDueOn({ ...on31, DayOfMonth: null }, '2026-11-30')).toBe(false);
  });

  it('says when it sends in words', () => {
    expect(scheduleSummary({ Frequency: 'daily', Weekday: null, DayOfMonth: null })).toBe('Every day');
    expect(scheduleSummary({ Frequency: 'weekly', Weekday: 1, DayOfMonth: null })).toBe('Every Monday');
    expect(scheduleSummary({ Frequency: 'monthly', Weekday: null, DayOfMonth: 15 })).toBe(
      'On day 15 of every month',
    );
    expect(scheduleSummary({ Frequency: 'monthly', Weekday: null, DayOfMonth: 31 })).toBe(
      'On day 31 of every month (its last day when shorter)',
    );
  });

  it('needs its day and at least one recipient, and folds addresses', () => {
    const ok = reportScheduleInputSchema.safeParse({
      Frequency: 'weekly',
      Weekday: 2,
      Addresses: ['  Board@Example.ORG '],
    });
    expect(ok.success && ok.data).toEqual({
      Frequency: 'weekly',
      Weekday: 2,
      DayOfMonth: null,
      UserIds: [],
      Addresses: ['board@example.org'],
      Parameters: {},
    });
    const problems = (input: unknown) => {
      const r = reportScheduleInputSchema.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(problems({ Frequency: 'weekly', UserIds: [1] })).toEqual(['Weekday: Choose the day of the week.']);
    expect(problems({ Frequency: 'monthly', UserIds: [1] })).toEqual([
      'DayOfMonth: Choose the day of the month.',
    ]);
    expect(problems({ Frequency: 'daily' })).toEqual(['UserIds: Choose at least one recipient.']);
    expect(problems({ Frequency: 'daily', Addresses: ['nope'] })).toEqual([
      'Addresses.0: Enter a valid email address.',
    ]);
    const many = {
      Frequency: 'daily',
      UserIds: Array.from({ length: 30 }, (_, i) => i + 1),
      Addresses: Array.from({ length: 30 }, (_, i) => `p${i}@example.org`),
    };
    expect(problems(many)).toEqual(['Addresses: A schedule has at most 50 recipients.']);
  });
});
