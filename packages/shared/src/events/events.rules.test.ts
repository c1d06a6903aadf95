import { describe, expect, it } from 'vitest';
import {
  attendeeStatusName,
  isRegisteredAttendee,
  nextRegistration,
  registeredAttendeeCount,
} from './events.rules.ts';

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

import fc from 'fast-check';
import {
  decideRegistration,
  holdsSeat,
  partiesToPromote,
  refundCents,
  registrationPrice,
  seatsLeft,
} from './events.rules.ts';

describe('capacity', () => {
  it.each([
    [[], 3, true, 'registered'],
    [[{ capacity: null, taken: 900 }], 3, false, 'registered'],
    [[{ capacity: 10, taken: 7 }], 3, false, 'registered'],
    [[{ capacity: 10, taken: 8 }], 3, true, 'waitlisted'],
    [[{ capacity: 10, taken: 8 }], 3, false, 'refused'],
    [
      [
        { capacity: 10, taken: 0 },
        { capacity: 2, taken: 2 },
      ],
      1,
      true,
      'waitlisted',
    ],
  ] as const)('%j for %d (waitlist %s) → %s', (limits, party, waitlist, outcome) => {
    expect(decideRegistration(limits, party, waitlist).outcome).toBe(outcome);
  });
  it('says how many seats are left', () => {
    expect(decideRegistration([{ capacity: 5, taken: 4 }], 2, false)).toEqual({
      outcome: 'refused',
      message: 'Only 1 seat is left; no more registrations are taken.',
    });
    expect(decideRegistration([{ capacity: 5, taken: 7 }], 1, true)).toMatchObject({
      message: expect.stringMatching(/^This event is full: you are on the waitlist/),
    });
    expect(seatsLeft([{ capacity: 5, taken: 9 }])).toBe(0);
    expect(seatsLeft([{ capacity: null, taken: 9 }])).toBeNull();
  });
  it('never registers past a capacity (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.array(fc.integer({ min: 1, max: 5 })),
        (capacity, parties) => {
          let taken = 0;
          for (const party of parties) {
            if (decideRegistration([{ capacity, taken }], party, true).outcome === 'registered')
              taken += party;
          }
          expect(taken).toBeLessThanOrEqual(capacity);
        },
      ),
    );
  });
  it('only offers, registered, attended, no-show and awaiting payment hold a seat', () => {
    expect([1, 2, 3, 4, 5, 6, 7].filter(holdsSeat)).toEqual([2, 4, 5, 6, 7]);
  });
});

describe('waitlist promotion', () => {
  it('offers in order, skipping a party too large without splitting it', () => {
    const list = [
      { id: 1, party: 2 },
      { id: 2, party: 4 },
      { id: 3, party: 1 },
      { id: 4, party: 1 },
    ];
    expect(partiesToPromote(list, 3)).toEqual([1, 3]);
    expect(partiesToPromote(list, 0)).toEqual([]);
    expect(partiesToPromote(list, null)).toEqual([1, 2, 3, 4]);
  });
});

describe('prices and refunds (integer cents)', () => {
  const pricing = {
    memberPriceCents: 15_000,
    nonMemberPriceCents: 22_500,
    earlyBirdUntil: '2026-05-01',
    earlyBirdDiscountCents: 2_500,
  };
  it.each([
    [true, '2026-04-30', 15_000, 2_500],
    [true, '2026-05-01', 15_000, 2_500],
    [true, '2026-05-02', 15_000, 0],
    [false, '2026-05-02', 22_500, 0],
  ])('member %s on %s', (isMember, today, unit, discount) => {
    expect(registrationPrice(pricing, { isMember, today })).toEqual({
      unitPriceCents: unit,
      discountCents: discount,
    });
  });
  it('a discount never exceeds the price', () => {
    expect(
      registrationPrice(
        { ...pricing, memberPriceCents: 1_000, earlyBirdDiscountCents: 5_000 },
        {
          isMember: true,
          today: '2026-01-01',
        },
      ).discountCents,
    ).toBe(1_000);
  });
  it.each([
    [10_000, '2026-06-01T00:00:00Z', '2026-05-20T00:00:00Z', 10_000],
    [10_000, '2026-06-01T00:00:00Z', '2026-05-30T00:00:00Z', 5_000],
    [9_999, '2026-06-01T00:00:00Z', '2026-05-30T00:00:00Z', 4_999],
    [10_000, '2026-06-01T00:00:00Z', '2026-06-01T00:00:01Z', 0],
    [0, '2026-06-01T00:00:00Z', '2026-05-01T00:00:00Z', 0],
  ])('paid %d, starts %s, cancelled %s → %d', (paid, startsAt, now, refund) => {
    expect(refundCents(paid, { fullRefundDays: 7, latePercent: 50 }, startsAt, now)).toBe(refund);
  });
  it('never refunds more than was paid (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -200, max: 200 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: -10, max: 90 }),
        (paid, pct, days, daysBefore) => {
          const now = '2026-06-01T00:00:00.000Z';
          const start = new Date(Date.parse(now) + daysBefore * 86_400_000).toISOString();
          const r = refundCents(paid, { fullRefundDays: days, latePercent: pct }, start, now);
          expect(Number.isInteger(r)).toBe(true);
          expect(r).toBeGreaterThanOrEqual(0);
          expect(r).toBeLessThanOrEqual(paid);
        },
      ),
    );
  });
});

describe("the member's next registration", () => {
  const at = (StartsAt: string, EndsAt: string, EventAttendeeStatusId: number, name: string) => ({
    StartsAt,
    EndsAt,
    EventAttendeeStatusId,
    name,
  });
  const now = new Date('2026-11-27T15:00:00Z');

  it('is the earliest not yet ended that holds or awaits a seat', () => {
    const regs = [
      at('2027-02-10T14:30:00Z', '2027-02-12T23:00:00Z', 4, 'conference'),
      at('2026-12-13T15:00:00Z', '2026-12-13T18:00:00Z', 1, 'workshop (waitlisted)'),
      at('2026-11-27T14:00:00Z', '2026-11-27T16:00:00Z', 3, 'cancelled one'),
      at('2026-11-15T13:30:00Z', '2026-11-15T15:00:00Z', 5, 'attended'),
      at('2026-11-27T14:00:00Z', '2026-11-27T16:00:00Z', 7, 'running now, awaiting payment'),
    ];
    expect(nextRegistration(regs, now)?.name).toBe('running now, awaiting payment');
    expect(nextRegistration(regs.slice(0, 4), now)?.name).toBe('workshop (waitlisted)');
    expect(nextRegistration(regs.slice(2, 4), now)).toBeNull();
    expect(nextRegistration([], now)).toBeNull();
  });
});

describe("an attendee status's name", () => {
  it('is the option named for it', () => {
    expect(attendeeStatusName(2)).toBe('Offered a seat');
    expect(attendeeStatusName(7)).toBe('Awaiting payment');
    expect(attendeeStatusName(99)).toBe('99');
  });
});
