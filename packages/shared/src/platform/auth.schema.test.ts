import { describe, expect, it } from 'vitest';
import { displayTimeZone, viewerTimeZone } from './auth.schema.ts';

const tenant = { settings: { defaultTimezone: 'America/Chicago' } } as Parameters<
  typeof displayTimeZone
>[0]['tenant'];

describe('the time zones a user reads times in', () => {
  it("lists and records: the user's choice, else the association's", () => {
    expect(displayTimeZone({ user: { timeZone: 'Asia/Tokyo' } as never, tenant })).toBe('Asia/Tokyo');
    expect(displayTimeZone({ user: { timeZone: null } as never, tenant })).toBe('America/Chicago');
  });

  it("calendars: the user's choice, else the device's, else UTC", () => {
    expect(viewerTimeZone({ user: { timeZone: 'Asia/Tokyo' } as never }, 'Europe/Paris')).toBe('Asia/Tokyo');
    expect(viewerTimeZone({ user: { timeZone: null } as never }, 'Europe/Paris')).toBe('Europe/Paris');
    expect(viewerTimeZone({ user: { timeZone: null } as never }, undefined)).toBe('UTC');
    expect(viewerTimeZone({ user: { timeZone: null } as never }, 'Mars/Olympus')).toBe('UTC');
  });
});
