import { describe, expect, it } from 'vitest';
import { contactsResource } from '../contacts/contacts.resource.ts';
import { eventDetailsResource } from '../events/events.resource.ts';
import { membershipsResource } from '../memberships/memberships.resource.ts';
import { recordNameOf } from './record-name.ts';

describe("a record's name in messages and dialogs (recordNameOf)", () => {
  it("is the resource's own rule first", () => {
    expect(
      recordNameOf(membershipsResource, { MembershipId: 3, ContactName: 'Ada Byron', Name: 'Student' }),
    ).toBe('Ada Byron: Student');
    expect(recordNameOf(contactsResource, { DisplayName: 'Byron, Ada', AccountNumber: 'A0000007' })).toBe(
      'Byron, Ada (A0000007)',
    );
  });

  it('names an occurrence by its start, read in the given zone, never as stored', () => {
    const occurrence = { EventDetailId: 4, StartsAt: '2027-02-10T14:30:00.000Z' };
    expect(recordNameOf(eventDetailsResource, occurrence)).toBe('02/10/2027 8:30 AM CST');
    expect(recordNameOf(eventDetailsResource, occurrence, 'Europe/Paris')).toBe('02/10/2027 3:30 PM GMT+1');
    expect(recordNameOf(eventDetailsResource, { EventDetailId: 4 })).toBe('this occurrence');
  });
});
