/**
 * Mailing audiences by membership (types, levels, statuses; secondary members optionally) and by event (attendees
 * of chosen statuses, guests included): evaluated when the send starts, one association's people only, suppressed
 * addresses logged and never sent.
 */
import {
  eventAttendees,
  eventDetails,
  eventRegistrations,
  events,
  mailSuppressions,
  membershipLevels,
  membershipMembers,
  memberships,
  membershipTypes,
  withTenantTx,
} from '@guildhall/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signedIn, twoAssociations } from '../../../test/fixtures/api.ts';
import { contactId as contact } from '../../../test/fixtures/contacts.ts';
import type { TenantWithUsers, TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: Api;
let apiOther: Api;
const tag = Date.now().toString(36);
const addr = (name: string) => `${name}.${tag}@example.org`;

/** A membership type with two levels, in the association given. */
async function membershipType(tenantId: string, name: string) {
  return withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
    const [type] = await tx
      .insert(membershipTypes)
      .values({ tenantId, name })
      .returning({ id: membershipTypes.membershipTypeId });
    const levels = await tx
      .insert(membershipLevels)
      .values([
        { tenantId, membershipTypeId: type!.id, name: 'Gold', sortOrder: 1 },
        { tenantId, membershipTypeId: type!.id, name: 'Silver', sortOrder: 2 },
      ])
      .returning({ id: membershipLevels.membershipLevelId });
    return { id: type!.id, gold: levels[0]!.id, silver: levels[1]!.id };
  });
}

async function membership(
  tenantId: string,
  contactId: number,
  typeId: number,
  levelId: number | null,
  status: string,
  covers: number[] = [],
) {
  await withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
    const [m] = await tx
      .insert(memberships)
      .values({
        tenantId,
        contactId,
        contactName: `Member ${contactId}`,
        name: 'Membership',
        membershipTypeId: typeId,
        membershipLevelId: levelId,
        status,
        statusDate: '2026-01-01',
        joinDate: '2026-01-01',
      })
      .returning({ id: memberships.membershipId });
    for (const c of covers)
      await tx.insert(membershipMembers).values({
        tenantId,
        membershipId: m!.id,
        contactId: c,
        contactName: `Covered ${c}`,
        addedOn: '2026-01-01',
      });
  });
}

async function event(
  tenantId: string,
  attendees: { contactId: number | null; email?: string; status: number }[],
) {
  return withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
    const startsAt = new Date('2026-12-04T18:00:00Z');
    const endsAt = new Date('2026-12-04T20:00:00Z');
    const [e] = await tx
      .insert(events)
      .values({ tenantId, name: `Gala ${tag}`, startsAt, endsAt })
      .returning({ id: events.eventId });
    const [d] = await tx
      .insert(eventDetails)
      .values({ tenantId, eventId: e!.id, startsAt, endsAt })
      .returning({ id: eventDetails.eventDetailId });
    for (const a of attendees) {
      const [r] = await tx
        .insert(eventRegistrations)
        .values({
          tenantId,
          eventId: e!.id,
          eventDetailId: d!.id,
          contactId: a.contactId,
          channel: 'backoffice',
        })
        .returning({ id: eventRegistrations.registrationId });
      await tx.insert(eventAttendees).values({
        tenantId,
        eventId: e!.id,
        eventDetailId: d!.id,
        registrationId: r!.id,
        contactId: a.contactId,
        attendeeName: 'Attendee',
        attendeeEmail: a.email ?? null,
        eventAttendeeStatusId: a.status,
      });
    }
    return e!.id;
  });
}

async function suppress(tenantId: string, email: string) {
  await withTenantTx(ctx.database.db, { tenantId }, (tx) =>
    tx.insert(mailSuppressions).values({ tenantId, email, reason: 'unsubscribed' }),
  );
}

/** How many the audience reaches before sending (the mailing screen shows it). */
async function countOf(audience: unknown, as = api) {
  const res = await as.post('/api/communication/mailings/audience-count', { Audience: audience });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { Recipients: number; Suppressed: number; WithoutAddress: number };
}

/**
 * Sends a mailing to the audience and answers its log: address to status. The count asked before sending names as
 * many recipients and suppressed addresses as the send then logs.
 */
async function sendTo(audience: unknown): Promise<Record<string, string>> {
  const before = await countOf(audience);
  const created = await api.post('/api/communication/mailings', {
    Name: 'Audience',
    Subject: 'Hello',
    BodyHtml: '<p>Hello</p>',
    Audience: audience,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().MailingId as number;
  expect((await api.post(`/api/communication/mailings/${id}/send`, {})).statusCode).toBe(200);
  await ctx.app.worker.drain(t.tenant.id);
  const log = (await api.get(`/api/communication/mailings/${id}/recipients`)).json() as {
    Email: string;
    Status: string;
  }[];
  const statuses = log.map((r) => r.Status);
  expect(before).toMatchObject({
    Recipients: statuses.filter((x) => x !== 'suppressed').length,
    Suppressed: statuses.filter((x) => x === 'suppressed').length,
  });
  return Object.fromEntries(log.map((r) => [r.Email, r.Status]));
}

beforeAll(async () => {
  ({ ctx, t, other } = await twoAssociations());
  api = await signedIn(ctx.app, t.admin);
  apiOther = await signedIn(ctx.app, other.admin);
});
afterAll(async () => {
  await ctx.close();
});

describe('membership audience', () => {
  it('reaches the members of the chosen types, levels and statuses, covered people when asked, no one else', async () => {
    const tid = t.tenant.id;
    const individual = await membershipType(tid, 'Individual');
    const student = await membershipType(tid, 'Student');
    const gold = await contact(api, 'Gold', addr('gold'));
    const silver = await contact(api, 'Silver', addr('silver'));
    const graceful = await contact(api, 'Grace', addr('grace'));
    const lapsed = await contact(api, 'Lapsed', addr('lapsed'));
    const pupil = await contact(api, 'Pupil', addr('pupil'));
    const covered = await contact(api, 'Covered', addr('covered'));
    const quiet = await contact(api, 'Quiet', addr('quiet'));
    await membership(tid, gold, individual.id, individual.gold, 'active', [covered]);
    await membership(tid, silver, individual.id, individual.silver, 'active');
    await membership(tid, graceful, individual.id, individual.gold, 'grace');
    await membership(tid, lapsed, individual.id, individual.gold, 'lapsed');
    await membership(tid, pupil, student.id, null, 'active');
    await membership(tid, quiet, individual.id, individual.gold, 'active');
    await suppress(tid, addr('quiet'));
    // Another association: the same ids there name its own type, level and members.
    const foreignType = await membershipType(other.tenant.id, 'Individual');
    const foreign = await contact(apiOther, 'Olga', addr('olga'));
    await membership(other.tenant.id, foreign, foreignType.id, foreignType.gold, 'active');
    expect(foreignType.id).toBe(individual.id);

    expect(
      await sendTo({
        Kind: 'membership',
        MembershipTypeIds: [individual.id],
        MembershipLevelIds: [],
        Statuses: ['active', 'grace'],
        IncludeSecondaryMembers: false,
      }),
    ).toEqual({
      [addr('gold')]: 'sent',
      [addr('silver')]: 'sent',
      [addr('grace')]: 'sent',
      [addr('quiet')]: 'suppressed',
    });

    expect(
      await sendTo({
        Kind: 'membership',
        MembershipTypeIds: [individual.id],
        MembershipLevelIds: [individual.gold],
        Statuses: ['active'],
        IncludeSecondaryMembers: true,
      }),
    ).toEqual({
      [addr('gold')]: 'sent',
      [addr('covered')]: 'sent',
      [addr('quiet')]: 'suppressed',
    });

    // Every type: the student too, and the lapsed one when asked for.
    expect(
      await sendTo({
        Kind: 'membership',
        MembershipTypeIds: [],
        MembershipLevelIds: [],
        Statuses: ['lapsed'],
        IncludeSecondaryMembers: false,
      }),
    ).toEqual({ [addr('lapsed')]: 'sent' });
    const all = await sendTo({
      Kind: 'membership',
      MembershipTypeIds: [],
      MembershipLevelIds: [],
      Statuses: ['active'],
      IncludeSecondaryMembers: false,
    });
    expect(Object.keys(all).sort()).toEqual(
      [addr('gold'), addr('silver'), addr('pupil'), addr('quiet')].sort(),
    );

    const options = (await api.get('/api/communication/mailings/audience-options')).json();
    expect(options.MembershipTypes.map((x: { Name: string }) => x.Name)).toEqual(['Individual', 'Student']);
    expect(options.MembershipTypes[0].Levels.map((x: { Name: string }) => x.Name)).toEqual([
      'Gold',
      'Silver',
    ]);
  });

  it('refuses an audience without a status', async () => {
    const res = await api.post('/api/communication/mailings', {
      Name: 'x',
      Subject: 'x',
      BodyHtml: '<p>x</p>',
      Audience: {
        Kind: 'membership',
        MembershipTypeIds: [],
        MembershipLevelIds: [],
        Statuses: [],
        IncludeSecondaryMembers: false,
      },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('event audience', () => {
  it("reaches the event's attendees of the chosen statuses, guests by their address, no one else", async () => {
    const tid = t.tenant.id;
    const registered = await contact(api, 'Reg', addr('reg'));
    const cancelled = await contact(api, 'Cancel', addr('cancel'));
    const waiting = await contact(api, 'Wait', addr('wait'));
    const muted = await contact(api, 'Muted', addr('muted'));
    const unreachable = await contact(api, 'Nomail', null);
    await suppress(tid, addr('muted'));
    const eventId = await event(tid, [
      { contactId: registered, status: 4 },
      { contactId: cancelled, status: 3 },
      { contactId: waiting, status: 1 },
      { contactId: muted, status: 4 },
      { contactId: null, email: addr('guest'), status: 4 },
      { contactId: unreachable, status: 4 },
    ]);
    // The other association's event of the same id: its attendees are never reached.
    const foreign = await contact(apiOther, 'Olga', addr('olga2'));
    const foreignEvent = await event(other.tenant.id, [{ contactId: foreign, status: 4 }]);
    expect(foreignEvent).toBe(eventId);

    expect(await countOf({ Kind: 'event', EventId: eventId, AttendeeStatusIds: [4] })).toEqual({
      Recipients: 2,
      Suppressed: 1,
      WithoutAddress: 1,
    });
    // The same event id in the other association counts its own attendee only.
    expect(await countOf({ Kind: 'event', EventId: eventId, AttendeeStatusIds: [4] }, apiOther)).toEqual({
      Recipients: 1,
      Suppressed: 0,
      WithoutAddress: 0,
    });
    expect(await sendTo({ Kind: 'event', EventId: eventId, AttendeeStatusIds: [4] })).toEqual({
      [addr('reg')]: 'sent',
      [addr('guest')]: 'sent',
      [addr('muted')]: 'suppressed',
    });
    expect(await sendTo({ Kind: 'event', EventId: eventId, AttendeeStatusIds: [1, 3] })).toEqual({
      [addr('cancel')]: 'sent',
      [addr('wait')]: 'sent',
    });

    const options = (await api.get('/api/communication/mailings/audience-options')).json();
    expect(options.Events).toEqual([
      expect.objectContaining({ Id: eventId, Name: `Gala ${tag}`, StartsAt: '2026-12-04T18:00:00.000Z' }),
    ]);
    const theirs = (await apiOther.get('/api/communication/mailings/audience-options')).json();
    expect(theirs.Events).toHaveLength(1);
    expect(theirs.MembershipTypes.map((x: { Name: string }) => x.Name)).toEqual(['Individual']);
  });
});
