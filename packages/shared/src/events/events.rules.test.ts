import { describe, expect, it } from 'vitest';
import { isRegisteredAttendee, registeredAttendeeCount } from './events.rules.ts';

describe('event attendees (spec 000 §9: "Event attendee status 4 counts as registered.")', () => {
  it('status 4 is registered, others are not', () => {
    expect(isRegisteredAttendee({ EventAttendeeStatusId: 4 })).toBe(true);
    expect(isRegisteredAttendee({ EventAttendeeStatusId: 3 })).toBe(false);
  });

  it('counts registered people by their party size', () => {
    expect(
      registeredAttendeeCount([
        { EventAttendeeStatusId: 4, RegisteredAttendeesCount: 3 },
        { EventAttendeeStatusId: 4 },
        { EventAttendeeStatusId: 4, RegisteredAttendeesCount: null },
        { EventAttendeeStatusId: 4, RegisteredAttendeesCount: -2 },
        { EventAttendeeStatusId: 2, RegisteredAttendeesCount: 5 },
      ]),
    ).toBe(5);
    expect(registeredAttendeeCount([])).toBe(0);
  });
});
