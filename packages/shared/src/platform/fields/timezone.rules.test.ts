import { describe, expect, it } from 'vitest';
import { timezoneOptions, utcOffsetMinutes } from './timezone.rules.ts';

describe('timezone options (TimezoneId, DisplayName, OlsonName)', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const summer = new Date('2026-07-15T12:00:00Z');

  it('reads the offset in force at the instant, daylight saving time included', () => {
    expect(utcOffsetMinutes('America/Chicago', winter)).toBe(-360);
    expect(utcOffsetMinutes('America/Chicago', summer)).toBe(-300);
    expect(utcOffsetMinutes('Asia/Kolkata', winter)).toBe(330);
    expect(utcOffsetMinutes('UTC', winter)).toBe(0);
  });

  it('lists each zone once, west to east, named by offset, city and region', () => {
    const options = timezoneOptions(['Europe/Paris', 'America/Chicago', 'UTC', 'America/Chicago'], winter);
    expect(options.map((o) => o.OlsonName)).toEqual(['America/Chicago', 'UTC', 'Europe/Paris']);
    expect(options[0]).toEqual({
      TimezoneId: 'America/Chicago',
      OlsonName: 'America/Chicago',
      DisplayName: '(UTC-06:00) Chicago, Central Time',
    });
    expect(options[2]?.DisplayName).toBe('(UTC+01:00) Paris, Central European Time');
  });
});
