/**
 * Events through the API: occurrences from a repeat rule (and an exception kept), getEventId, the calendar range,
 * capacity and the waitlist with promotion, cancel with the refund rule, group registration, member visibility,
 * the public page by hashed id (another tenant's or an unpublished event answers 404), check-in and the feeds.
 */
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, future as at, type Model, save } from '../../../test/fixtures/api.ts';
import { saveContact as saveContactBy, withMemberContact } from '../../../test/fixtures/contacts.ts';
import { occurrences, saveEvent as saveEventBy } from '../../../test/fixtures/events.ts';
import type { TenantWithUsers, TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let staff: Api;
let member: Api;
let otherStaff: Api;
let memberContactId: number;

const saveEvent = (c: Api, model: Model) =>
  saveEventBy(c, { TimezoneId: 'America/Chicago', WaitlistEnabled: true, ...model });
const saveContact = (model: Model) => saveContactBy(staff, model);
const details = (eventId: unknown) => occurrences(staff, eventId);
/** An instant `days` from now, by default in the evening (23:30 UTC). */
const future = (days: number, hourUtc = 23, minute = 30) => at(days, hourUtc, minute);

beforeAll(async () => {
  ({ ctx, t, other, staff, member, otherStaff, memberContactId } = await withMemberContact({
    FirstName: 'Mia',
    LastName: 'Member',
    Email: 'mia@example.org',
  }));
}, 300_000);
afterAll(() => ctx?.close());

describe('occurrences from a repeat rule', () => {
  it('expands a monthly rule into occurrences at the same local time, and keeps an occurrence moved by hand', async () => {
    const event = await saveEvent(staff, {
      Name: 'Chapter meeting',
      StartsAt: '2026-02-10T00:30:00.000Z', // Mon 9 Feb 18:30 in Chicago (CST)
      EndsAt: '2026-02-10T02:00:00.000Z',
      Repeats: 'custom',
      RecurrenceRule: 'FREQ=WEEKLY;COUNT=6',
    });
    let rows = await details(event.EventId);
    expect(rows.map((r) => r.StartsAt)).toEqual([
      '2026-02-10T00:30:00.000Z',
      '2026-02-17T00:30:00.000Z',
      '2026-02-24T00:30:00.000Z',
      '2026-03-03T00:30:00.000Z',
      '2026-03-09T23:30:00.000Z', // after the DST change: still 18:30 in Chicago
      '2026-03-16T23:30:00.000Z',
    ]);
    // Move the third by hand, then shorten the rule: the moved one stays, the dropped ones go.
    const got = await staff.post('/api/events/details/detailGet', { id: rows[2]?.EventDetailId });
    expect(got.statusCode, got.body).toBe(200);
    const third = (got.json() as { Data?: Model }).Data ?? (got.json() as Model);
    await save(staff, '/api/events/details/detailSave', {
      ...third,
      StartsAt: '2026-02-25T00:30:00.000Z',
      EndsAt: '2026-02-25T02:00:00.000Z',
    });
    await saveEvent(staff, { ...event, RecurrenceRule: 'FREQ=WEEKLY;COUNT=3' });
    rows = await details(event.EventId);
    expect(rows.map((r) => r.StartsAt)).toEqual([
      '2026-02-10T00:30:00.000Z',
      '2026-02-17T00:30:00.000Z',
      '2026-02-25T00:30:00.000Z',
    ]);
    expect(rows[2]?.IsException).toBe(true);
  });

  it('refuses a rule it cannot read, naming the field', async () => {
    const res = await staff.post('/api/events/events/eventSave', {
      Name: 'Bad',
      Status: 'draft',
      Visibility: 'public',
      StartsAt: future(3),
      EndsAt: future(3, 23, 59),
      Repeats: 'custom',
      RecurrenceRule: 'FREQ=SOMETIMES',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.RecurrenceRule[0]).toMatch(/cannot be read/);
  });
});

describe('getEventId and the calendar range', () => {
  it('answers EventId, the next EventDetailId and HashEventId; another tenant gets 404', async () => {
    const event = await saveEvent(staff, {
      Name: 'Annual conference',
      StartsAt: future(30),
      EndsAt: future(31),
    });
    const res = await staff.get(`/api/events/getEventId/${event.EventId}`);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    const [detail] = await details(event.EventId);
    expect(answer).toEqual({
      EventId: event.EventId,
      EventDetailId: detail?.EventDetailId,
      HashEventId: event.HashedEventId,
    });
    expect(String(answer.HashEventId)).toMatch(/^[0-9a-f]{32}$/);
    expect((await staff.get(`/api/events/getEventId/${answer.HashEventId}`)).json()).toEqual(answer);
    expect((await otherStaff.get(`/api/events/getEventId/${event.EventId}`)).statusCode).toBe(404);
  });

  it('answers the occurrences overlapping the range, to staff all, to members the published ones', async () => {
    const published = await saveEvent(staff, {
      Name: 'Webinar',
      StartsAt: '2027-01-12T18:00:00.000Z',
      EndsAt: '2027-01-12T19:00:00.000Z',
    });
    const draft = await saveEvent(staff, {
      Name: 'Draft planning',
      Status: 'draft',
      StartsAt: '2027-01-13T18:00:00.000Z',
      EndsAt: '2027-01-13T19:00:00.000Z',
    });
    const q = '?start=2027-01-01T00:00:00&end=2027-02-01T00:00:00&timeZone=America/Chicago';
    const forStaff = (await staff.get(`/api/events/calendar${q}`)).json() as Model[];
    expect(forStaff.map((o) => o.EventId)).toEqual([published.EventId, draft.EventId]);
    expect(forStaff[0]).toMatchObject({
      title: 'Webinar',
      start: '2027-01-12T18:00:00.000Z',
      timezone: 'America/Chicago',
    });
    const forMember = (await member.get(`/api/events/member/calendar${q}`)).json() as Model[];
    expect(forMember.map((o) => o.EventId)).toEqual([published.EventId]);
    expect((await member.get(`/api/events/calendar${q}`)).statusCode).toBe(403);
    const narrow = (
      await staff.get('/api/events/calendar?start=2027-01-12T19:00:00Z&end=2027-01-13T00:00:00Z')
    ).json();
    expect(narrow).toEqual([]);
  });
});

describe('registration, capacity and the waitlist', () => {
  let event: Model;
  let detailId: number;
  let serial = 0;
  const guests = async (n: number) => {
    const made: number[] = [];
    for (let i = 0; i < n; i++) {
      serial += 1;
      const c = await saveContact({
        FirstName: `Guest${serial}`,
        LastName: 'Person',
        Email: `g${serial}@example.org`,
      });
      made.push(Number(c.ContactId));
    }
    return made;
  };

  beforeAll(async () => {
    event = await saveEvent(staff, {
      Name: 'Workshop',
      StartsAt: future(20),
      EndsAt: future(20, 23, 59),
      Capacity: 2,
      FullRefundDays: 7,
      LateRefundPercent: 50,
    });
    detailId = Number((await details(event.EventId))[0]?.EventDetailId);
  });

  it('fills to capacity, waitlists the rest, and promotes the first in line when a seat frees', async () => {
    const [a, b, c, d] = await guests(4);
    const reg = (contactId: number) =>
      staff.post('/api/events/registrations', { EventDetailId: detailId, ContactId: contactId });
    const ra = (await reg(a as number)).json();
    expect(ra).toMatchObject({ outcome: 'registered' });
    expect(ra.Attendees[0].EventAttendeeStatusId).toBe(4);
    expect((await reg(b as number)).json().outcome).toBe('registered');
    const rc = (await reg(c as number)).json();
    expect(rc.outcome).toBe('waitlisted');
    expect(rc.message).toMatch(/waitlist/);
    const rd = (await reg(d as number)).json();
    expect(rd.outcome).toBe('waitlisted');
    expect((await reg(a as number)).statusCode).toBe(409);

    const cancel = await staff.post(`/api/events/attendees/${ra.Attendees[0].AttendeeId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().promoted).toEqual([rc.Attendees[0].AttendeeId]);
    const [row] = await details(event.EventId);
    expect(row?.SeatsTaken).toBe(2);
    // The event's Waitlist tab: the one offered the seat first, then the one still waiting; its Check-in tab counts.
    const overview = (await staff.get(`/api/events/events/${event.EventId}/overview`)).json();
    expect(
      overview.Waitlist.map((w: Model) => [w.AttendeeId, w.EventAttendeeStatusId, w.OfferExpiresAt !== null]),
    ).toEqual([
      [rc.Attendees[0].AttendeeId, 2, true],
      [rd.Attendees[0].AttendeeId, 1, false],
    ]);
    expect(overview.Occurrences).toEqual([
      expect.objectContaining({
        EventDetailId: detailId,
        Capacity: 2,
        Registered: 1,
        CheckedIn: 0,
        Waitlisted: 2,
      }),
    ]);
    // The offer is mailed after the answer has gone.
    await ctx.app.background.settled();
    const offers = (await staff.get('/api/mail/outbox')).json() as Model[];
    expect(offers.some((m) => String(m.subject).startsWith('A seat is free for you'))).toBe(true);
  });

  it('refuses with a clear message when the event keeps no waitlist', async () => {
    const full = await saveEvent(staff, {
      Name: 'Small dinner',
      StartsAt: future(25),
      EndsAt: future(25, 23, 59),
      Capacity: 1,
      WaitlistEnabled: false,
    });
    const id = Number((await details(full.EventId))[0]?.EventDetailId);
    const [a, b] = await guests(2);
    expect(
      (await staff.post('/api/events/registrations', { EventDetailId: id, ContactId: a })).statusCode,
    ).toBe(200);
    const refused = await staff.post('/api/events/registrations', { EventDetailId: id, ContactId: b });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This event is full; no more registrations are taken.');
  });

  it('registers a group: one registrant, a contact and guests, all or none', async () => {
    const group = await saveEvent(staff, {
      Name: 'Gala',
      StartsAt: future(40),
      EndsAt: future(40, 23, 59),
      Capacity: 3,
    });
    const id = Number((await details(group.EventId))[0]?.EventDetailId);
    const [a, b] = await guests(2);
    const res = await staff.post('/api/events/registrations', {
      EventDetailId: id,
      ContactId: a,
      Attendees: [{ ContactId: a }, { ContactId: b }, { Name: 'Sam Guest', Email: 'sam@example.org' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Attendees.map((x: Model) => x.AttendeeName)).toEqual([
      expect.stringMatching(/^Guest\d+ Person$/),
      expect.stringMatching(/^Guest\d+ Person$/),
      'Sam Guest',
    ]);
    const more = await staff.post('/api/events/registrations', {
      EventDetailId: id,
      Attendees: [{ Name: 'Late One' }, { Name: 'Late Two' }],
    });
    expect(more.json().outcome).toBe('waitlisted');
  });
});

describe('the member area', () => {
  it('a member registers, sees it in their registrations and cancels it', async () => {
    const event = await saveEvent(staff, {
      Name: 'Members evening',
      Visibility: 'members',
      StartsAt: future(15),
      EndsAt: future(15, 23, 59),
      Capacity: 10,
    });
    const page = await member.get(`/api/events/member/events/${event.HashedEventId}`);
    expect(page.statusCode, page.body).toBe(200);
    const detailId = page.json().Occurrences[0].EventDetailId;
    const reg = await member.post('/api/events/member/register', { EventDetailId: detailId });
    expect(reg.statusCode, reg.body).toBe(200);
    expect(reg.json().Attendees[0].AttendeeName).toBe('Mia Member');
    const mine = (await member.get('/api/events/member/registrations')).json() as Model[];
    const entry = mine.find((m) => m.EventId === event.EventId);
    expect(entry).toMatchObject({ EventAttendeeStatusId: 4, canCancel: true });
    const cancel = await member.post(`/api/events/member/registrations/${entry?.AttendeeId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    // Someone else's registration is not theirs to cancel.
    const theirs = await staff.post('/api/events/registrations', {
      EventDetailId: detailId,
      Attendees: [{ Name: 'Not Mia' }],
    });
    expect(
      (await member.post(`/api/events/member/registrations/${theirs.json().Attendees[0].AttendeeId}/cancel`))
        .statusCode,
    ).toBe(404);
  });

  it('does not show a draft to members', async () => {
    const draft = await saveEvent(staff, {
      Name: 'Secret',
      Status: 'draft',
      StartsAt: future(9),
      EndsAt: future(9, 23, 59),
    });
    expect((await member.get(`/api/events/member/events/${draft.HashedEventId}`)).statusCode).toBe(404);
    expect((await member.get(`/api/events/getEventId/${draft.EventId}`)).statusCode).toBe(404);
  });
});

describe('the public page by hashed id', () => {
  it('shows a published public event; a draft, a members-only event or another tenant answers 404', async () => {
    const pub = await saveEvent(staff, {
      Name: 'Open house',
      StartsAt: future(12),
      EndsAt: future(12, 23, 59),
    });
    const draft = await saveEvent(staff, {
      Name: 'Not yet',
      Status: 'draft',
      StartsAt: future(12),
      EndsAt: future(12, 23, 59),
    });
    const members = await saveEvent(staff, {
      Name: 'Members',
      Visibility: 'members',
      StartsAt: future(12),
      EndsAt: future(12, 23, 59),
    });
    const ok = await ctx.app.inject({
      method: 'GET',
      url: `/api/events/public/${t.tenant.id}/${pub.HashedEventId}`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().Name).toBe('Open house');
    for (const url of [
      `/api/events/public/${t.tenant.id}/${draft.HashedEventId}`,
      `/api/events/public/${t.tenant.id}/${members.HashedEventId}`,
      `/api/events/public/${other.tenant.id}/${pub.HashedEventId}`,
      `/api/events/public/${t.tenant.id}/${'0'.repeat(32)}`,
    ])
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  });

  it('registers without an account, matching the contact by email', async () => {
    const pub = await saveEvent(staff, {
      Name: 'Public lecture',
      StartsAt: future(14),
      EndsAt: future(14, 23, 59),
    });
    const page = (
      await ctx.app.inject({ method: 'GET', url: `/api/events/public/${t.tenant.id}/${pub.HashedEventId}` })
    ).json();
    const register = (email: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/events/public/${t.tenant.id}/${pub.HashedEventId}/register`,
        payload: {
          EventDetailId: page.Occurrences[0].EventDetailId,
          FirstName: 'Mia',
          LastName: 'Member',
          Email: email,
        },
      });
    const res = await register('MIA@example.org');
    expect(res.statusCode, res.body).toBe(200);
    expect((await register('mia@example.org')).statusCode).toBe(409); // the same contact, already registered
  });
});

describe('check-in at the door', () => {
  it('finds by name or code, checks in once, and can undo', async () => {
    const event = await saveEvent(staff, {
      Name: 'Breakfast',
      StartsAt: future(2),
      EndsAt: future(2, 23, 59),
    });
    const detailId = Number((await details(event.EventId))[0]?.EventDetailId);
    const reg = (
      await staff.post('/api/events/registrations', {
        EventDetailId: detailId,
        Attendees: [{ Name: 'Dora Door' }],
      })
    ).json();
    const code = reg.Attendees[0].CheckInCode as string;
    const found = (await staff.get(`/api/events/details/${detailId}/check-in?search=dora`)).json();
    expect(found.Results.map((r: Model) => r.AttendeeName)).toEqual(['Dora Door']);
    const done = await staff.post('/api/events/check-in', {
      EventDetailId: detailId,
      Code: code.toLowerCase(),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ EventAttendeeStatusId: 5, message: 'Dora Door is checked in.' });
    expect(
      (await staff.post('/api/events/check-in', { EventDetailId: detailId, Code: code })).statusCode,
    ).toBe(409);
    expect((await staff.get(`/api/events/details/${detailId}/check-in`)).json()).toMatchObject({
      registered: 1,
      checkedIn: 1,
    });
    const undo = await staff.post('/api/events/check-in', {
      EventDetailId: detailId,
      AttendeeId: reg.Attendees[0].AttendeeId,
      Undo: true,
    });
    expect(undo.json().EventAttendeeStatusId).toBe(4);
  });
});

describe("the contact's events and credits", () => {
  it("lists a contact's registrations and guests, records credits on check-in, and takes them back on undo", async () => {
    const event = await saveEvent(staff, {
      Name: 'Ethics seminar',
      StartsAt: future(3),
      EndsAt: future(3, 23, 59),
      CreditHours: 3,
    });
    const detailId = Number((await details(event.EventId))[0]?.EventDetailId);
    const carl = await saveContact({ FirstName: 'Carl', LastName: 'Credits', Email: 'carl@example.org' });
    const carlId = Number(carl.ContactId);
    const reg = (
      await staff.post('/api/events/registrations', {
        EventDetailId: detailId,
        ContactId: carlId,
        Attendees: [{ ContactId: carlId }, { Name: 'Gina Guest' }],
      })
    ).json();
    expect(reg.outcome).toBe('registered');
    const carlAttendee = reg.Attendees.find((a: Model) => a.AttendeeName === 'Carl Credits');
    let tab = await staff.get(`/api/events/contacts/${carlId}/events`);
    expect(tab.statusCode, tab.body).toBe(200);
    expect(tab.json()).toMatchObject({ ContactId: carlId, upcoming: 1, attended: 0, credits: 0 });
    expect(
      tab.json().Rows.map((r: Model) => [r.EventName, r.AttendeeName, r.IsAttendee, r.EventAttendeeStatusId]),
    ).toEqual([
      ['Ethics seminar', 'Carl Credits', true, 4],
      ['Ethics seminar', 'Gina Guest', false, 4],
    ]);

    const done = await staff.post('/api/events/check-in', {
      EventDetailId: detailId,
      AttendeeId: carlAttendee.AttendeeId,
    });
    expect(done.statusCode, done.body).toBe(200);
    tab = await staff.get(`/api/events/contacts/${carlId}/events`);
    expect(tab.json()).toMatchObject({ attended: 1, credits: 3 });
    expect(tab.json().Rows[0]).toMatchObject({ EventAttendeeStatusId: 5, CreditsEarned: 3 });
    expect(tab.json().Rows[0].CheckedInAt).toEqual(expect.any(String));

    await staff.post('/api/events/check-in', {
      EventDetailId: detailId,
      AttendeeId: carlAttendee.AttendeeId,
      Undo: true,
    });
    tab = await staff.get(`/api/events/contacts/${carlId}/events`);
    expect(tab.json()).toMatchObject({ attended: 0, credits: 0 });
    expect(tab.json().Rows[0].CreditsEarned).toBe(null);

    // Another association's staff, and members, get nothing.
    expect((await otherStaff.get(`/api/events/contacts/${carlId}/events`)).statusCode).toBe(404);
    expect((await member.get(`/api/events/contacts/${carlId}/events`)).statusCode).toBe(403);
  });
});

describe('events in the global search', () => {
  it('staff find every event, drafts included; members find the published ones; the hit opens through getEventId', async () => {
    const published = await saveEvent(staff, {
      Name: 'Quillwright symposium',
      StartsAt: future(20),
      EndsAt: future(20, 23, 59),
      Location: 'Riverside Hall',
    });
    await saveEvent(staff, {
      Name: 'Quillwright planning retreat',
      Status: 'draft',
      StartsAt: future(21),
      EndsAt: future(21, 23, 59),
    });
    const staffHits = (await staff.get('/api/search/global/backoffice/quillwright?v=2')).json().Records;
    expect(staffHits.map((h: Model) => [h.Type, h.Title]).sort()).toEqual([
      ['Event', 'Quillwright planning retreat'],
      ['Event', 'Quillwright symposium'],
    ]);
    expect(staffHits.find((h: Model) => h.Title === 'Quillwright symposium')).toMatchObject({
      Id: String(published.EventId),
      City: 'Riverside Hall',
      Status: 'published',
    });
    const memberHits = (await member.get('/api/search/global/member/quillwright?v=2')).json().Records;
    expect(memberHits.map((h: Model) => h.Title)).toEqual(['Quillwright symposium']);
    const lookup = await member.get(`/api/events/getEventId/${memberHits[0].Id}`);
    expect(lookup.json()).toMatchObject({ EventId: Number(published.EventId) });
    expect((await otherStaff.get('/api/search/global/backoffice/quillwright?v=2')).json().Records).toEqual(
      [],
    );

    // Renamed: the hit follows; deleted: it goes.
    await saveEvent(staff, { ...published, Name: 'Quillwright summit' });
    expect(
      (await staff.get('/api/search/global/backoffice/quillwright%20summit?v=2')).json().Records[0]?.Title,
    ).toBe('Quillwright summit');
    const deleted = await staff.delete(`/api/events/events/${published.EventId}`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(
      (await staff.get('/api/search/global/backoffice/quillwright?v=2'))
        .json()
        .Records.map((h: Model) => h.Title),
    ).toEqual(['Quillwright planning retreat']);
  });
});

describe('iCalendar feeds round-trip', () => {
  it('every occurrence parsed back with ical.js has the instant stored, in three timezones across DST', async () => {
    const made = [
      await saveEvent(staff, {
        Name: 'Chicago weekly',
        TimezoneId: 'America/Chicago',
        StartsAt: '2030-03-05T00:30:00.000Z',
        EndsAt: '2030-03-05T01:30:00.000Z',
        Repeats: 'custom',
        RecurrenceRule: 'FREQ=WEEKLY;COUNT=4',
      }),
      await saveEvent(staff, {
        Name: 'London monthly',
        TimezoneId: 'Europe/London',
        StartsAt: '2030-03-12T09:00:00.000Z',
        EndsAt: '2030-03-12T10:00:00.000Z',
        Repeats: 'custom',
        RecurrenceRule: 'FREQ=MONTHLY;BYDAY=2TU;COUNT=3',
      }),
      await saveEvent(staff, {
        Name: 'Sydney daily',
        TimezoneId: 'Australia/Sydney',
        StartsAt: '2030-04-04T23:00:00.000Z',
        EndsAt: '2030-04-05T00:00:00.000Z',
        Repeats: 'custom',
        RecurrenceRule: 'FREQ=DAILY;COUNT=3',
      }),
    ];
    const res = await ctx.app.inject({ method: 'GET', url: `/api/events/feed/${t.tenant.id}.ics` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/calendar/);
    const etag = String(res.headers.etag);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/events/feed/${t.tenant.id}.ics`,
          headers: { 'if-none-match': etag },
        })
      ).statusCode,
    ).toBe(304);
    const text = res.body;
    expect(text).toContain('BEGIN:VTIMEZONE');
    const component = new ICAL.Component(ICAL.parse(text));
    for (const tz of component.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    const parsed = new Map<string, number>();
    for (const ve of component.getAllSubcomponents('vevent')) {
      const event = new ICAL.Event(ve);
      parsed.set(event.uid, event.startDate.toJSDate().getTime());
    }
    let compared = 0;
    for (const e of made) {
      for (const d of await details(e.EventId)) {
        const uid = `event-${e.EventId}-${d.EventDetailId}@guildhall.test`;
        expect(parsed.get(uid), uid).toBe(Date.parse(String(d.StartsAt)));
        compared += 1;
      }
    }
    expect(compared).toBe(10);
    // The per-event file of a public event, and none for another tenant.
    const one = await ctx.app.inject({
      method: 'GET',
      url: `/api/events/ics/${t.tenant.id}/${made[0]?.HashedEventId}.ics`,
    });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('TZID=America/Chicago');
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/events/ics/${other.tenant.id}/${made[0]?.HashedEventId}.ics`,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('fees through billing', () => {
  it('bills a paid registration, confirms it when the invoice is paid, and credits a refund on cancel', async () => {
    const event = await saveEvent(staff, {
      Name: 'Paid seminar',
      StartsAt: future(30),
      EndsAt: future(30, 23, 59),
      Capacity: 5,
      FullRefundDays: 7,
      LateRefundPercent: 0,
    });
    await save(staff, '/api/events/registration-types/registrationTypeSave', {
      EventId: event.EventId,
      Name: 'Seminar',
      MemberPrice: 10_000,
      NonMemberPrice: 15_000,
      EarlyBirdUntil: '2099-12-31',
      EarlyBirdDiscount: 2_000,
    });
    const detailId = Number((await details(event.EventId))[0]?.EventDetailId);
    const reg = await member.post('/api/events/member/register', {
      EventDetailId: detailId,
      Attendees: [{ Name: 'Guest of Mia' }],
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const answer = reg.json();
    expect(answer).toMatchObject({ outcome: 'pending_payment', totalCents: 16_000 });
    expect(answer.Attendees.map((a: Model) => a.EventAttendeeStatusId)).toEqual([7, 7]);
    const invoice = (await staff.get(`/api/billing/invoices/${answer.InvoiceId}`)).json();
    expect(invoice).toMatchObject({ totalCents: 16_000, contactId: memberContactId });
    // The seats are held while the invoice is unpaid.
    expect((await details(event.EventId))[0]?.SeatsTaken).toBe(2);

    const pay = await staff.post('/api/billing/payments/record', {
      contactId: memberContactId,
      amountCents: 16_000,
      method: 'check',
      checkNumber: '1042',
      applications: [{ invoiceId: answer.InvoiceId, amountCents: 16_000 }],
    });
    expect(pay.statusCode, pay.body).toBe(200);
    const mine = (await member.get('/api/events/member/registrations')).json() as Model[];
    const seats = mine.filter((m) => m.EventId === event.EventId);
    expect(seats.map((m) => m.EventAttendeeStatusId)).toEqual([4, 4]);

    const cancel = await member.post(`/api/events/member/registrations/${seats[0]?.AttendeeId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().refundCents).toBe(8_000);
    const account = (await staff.get(`/api/billing/contacts/${memberContactId}/account`)).json();
    expect(JSON.stringify(account)).toContain('8000');

    // The event's Finances tab: billed and paid over its registration's invoice, the refund as the credit issued.
    const overview = await staff.get(`/api/events/events/${event.EventId}/overview`);
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json().Finances).toMatchObject({
      Registrations: 1,
      Invoices: 1,
      BilledCents: 16_000,
      PaidCents: 16_000,
      OutstandingCents: 0,
      VoidedCents: 0,
      RefundedCents: 8_000,
    });
    expect(overview.json().Finances.ByType).toEqual([
      {
        RegistrationTypeId: expect.any(Number),
        Name: 'Seminar',
        Attendees: 1,
        PaidCents: expect.any(Number),
      },
    ]);
    expect((await otherStaff.get(`/api/events/events/${event.EventId}/overview`)).statusCode).toBe(404);
    expect((await member.get(`/api/events/events/${event.EventId}/overview`)).statusCode).toBe(403);
  });

  it('voids the unpaid invoice when the registration is cancelled, and the seat goes back', async () => {
    const event = await saveEvent(staff, {
      Name: 'Paid dinner',
      StartsAt: future(30),
      EndsAt: future(30, 23, 59),
      Capacity: 1,
    });
    await save(staff, '/api/events/registration-types/registrationTypeSave', {
      EventId: event.EventId,
      Name: 'Dinner',
      MemberPrice: 5_000,
      NonMemberPrice: 5_000,
    });
    const detailId = Number((await details(event.EventId))[0]?.EventDetailId);
    const reg = (await member.post('/api/events/member/register', { EventDetailId: detailId })).json();
    expect(reg.outcome).toBe('pending_payment');
    const cancel = await member.post(
      `/api/events/member/registrations/${reg.Attendees[0].AttendeeId}/cancel`,
    );
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await staff.get(`/api/billing/invoices/${reg.InvoiceId}`)).json().status).toBe('void');
    expect((await details(event.EventId))[0]?.SeatsTaken).toBe(0);
  });
});

describe('expired offers and renamed categories', () => {
  it('a registration releases an expired offer under the lock and takes the seat it gave back', async () => {
    const event = await saveEvent(staff, {
      Name: 'Pottery class',
      StartsAt: future(18),
      EndsAt: future(18, 23, 59),
      Capacity: 1,
    });
    const detailId = Number((await details(event.EventId))[0]?.EventDetailId);
    const reg = (name: string) =>
      staff.post('/api/events/registrations', { EventDetailId: detailId, Attendees: [{ Name: name }] });
    const first = (await reg('Ada First')).json();
    const second = (await reg('Ben Second')).json();
    expect(second.outcome).toBe('waitlisted');
    await staff.post(`/api/events/attendees/${first.Attendees[0].AttendeeId}/cancel`);
    const offered = Number(second.Attendees[0].AttendeeId);
    // The offer runs out unanswered.
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update event_attendees set offer_expires_at = now() - interval '1 hour'
            where tenant_id = ${t.tenant.id} and attendee_id = ${offered}`,
      ),
    );
    const third = await reg('Cy Third');
    expect(third.statusCode, third.body).toBe(200);
    expect(third.json().outcome).toBe('registered');
    const statuses = (
      (
        await staff.post('/api/events/attendees/attendeeData?$top=10', {
          Id: 9999,
          Criteria: [{ PropertyName: 'EventId', Operator: 'eq', Value: event.EventId }],
        })
      ).json() as { Results: Model[] }
    ).Results.map((r) => [r.AttendeeName, r.EventAttendeeStatusId]);
    expect(statuses.sort()).toEqual([
      ['Ada First', 3],
      ['Ben Second', 3],
      ['Cy Third', 4],
    ]);
    expect((await details(event.EventId))[0]?.SeatsTaken).toBe(1);
  });

  it("renaming a category rewrites its events' search documents", async () => {
    const category = await save(staff, '/api/events/categories/categorySave', { Name: 'Zephyrine studies' });
    await saveEvent(staff, {
      Name: 'Evening talk',
      CategoryId: category.CategoryId,
      StartsAt: future(22),
      EndsAt: future(22, 23, 59),
    });
    const titles = async (query: string) =>
      ((await staff.get(`/api/search/global/backoffice/${query}?v=2`)).json().Records as Model[]).map((h) => [
        h.Title,
        h.RelatedTo,
      ]);
    expect(await titles('zephyrine')).toEqual([['Evening talk', 'Zephyrine studies']]);
    await save(staff, '/api/events/categories/categorySave', { ...category, Name: 'Borealis studies' });
    expect(await titles('borealis')).toEqual([['Evening talk', 'Borealis studies']]);
    expect(await titles('zephyrine')).toEqual([]);
  });
});

describe('no-shows and the shipped event reports', () => {
  it('marks the rest as no-shows after the occurrence, and the attendance, no-show and revenue reports count them', async () => {
    const past = (days: number, hour: number) => {
      const d = new Date(Date.now() - days * 86_400_000);
      d.setUTCHours(hour, 0, 0, 0);
      return d.toISOString();
    };
    const event = await saveEvent(staff, {
      Name: 'Yesterday seminar',
      StartsAt: past(2, 9),
      EndsAt: past(2, 11),
      CreditHours: 3,
    });
    const detailId = Number((await details(event.EventId))[0]?.EventDetailId);
    const reg = await staff.post('/api/events/registrations', {
      EventDetailId: detailId,
      Attendees: [{ Name: 'Ann Came' }, { Name: 'Bob Absent' }, { Name: 'Cat Absent' }],
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const came = reg.json().Attendees[0].AttendeeId;
    await staff.post('/api/events/check-in', { EventDetailId: detailId, AttendeeId: came });
    const marked = await staff.post(`/api/events/details/${detailId}/no-shows`);
    expect(marked.json()).toEqual({ marked: 2, message: '2 attendees marked as no-show.' });
    expect((await staff.post(`/api/events/details/${detailId}/no-shows`)).json().marked).toBe(0);
    const future = await saveEvent(staff, { Name: 'Later', StartsAt: past(-5, 9), EndsAt: past(-5, 11) });
    const futureDetail = Number((await details(future.EventId))[0]?.EventDetailId);
    expect((await staff.post(`/api/events/details/${futureDetail}/no-shows`)).statusCode).toBe(409);
    expect((await member.post(`/api/events/details/${detailId}/no-shows`)).statusCode).toBe(403);

    const run = async (id: string) => {
      const res = await staff.post(`/api/reportExecution/run/${id}`, { EventId: event.EventId });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().Grouping.Rows as { Level: number; Keys: unknown[]; Values: Record<string, number> }[];
    };
    const attendance = await run('events.attendance');
    const byStatus = Object.fromEntries(
      attendance.filter((r) => r.Level === 2).map((r) => [String(r.Keys[1]), r.Values]),
    );
    expect(byStatus['5']).toMatchObject({ count: 1, sum_CreditsEarned: 3 });
    expect(byStatus['6']).toMatchObject({ count: 2 });
    expect((await run('events.noShows')).find((r) => r.Level === 0)?.Values.count).toBe(2);
    expect((await run('events.revenue')).find((r) => r.Level === 0)?.Values).toMatchObject({
      count: 3,
      sum_PaidCents: 0,
    });
  });

  it('counts the seats of an event by registration type', async () => {
    const event = await saveEvent(staff, { Name: 'Gala by type', StartsAt: future(30), EndsAt: future(31) });
    const type = async (Name: string) =>
      Number(
        (
          await save(staff, '/api/events/registration-types/registrationTypeSave', {
            EventId: event.EventId,
            Name,
          })
        ).RegistrationTypeId,
      );
    const table = await type('Table seat');
    const standing = await type('Standing');
    const detailId = Number((await details(event.EventId))[0]?.EventDetailId);
    for (const [RegistrationTypeId, Attendees] of [
      [table, [{ Name: 'Åsa Table' }, { Name: 'Bo Table' }]],
      [standing, [{ Name: 'Cy Standing' }]],
    ] as const) {
      const res = await staff.post('/api/events/registrations', {
        EventDetailId: detailId,
        RegistrationTypeId,
        Attendees,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await staff.post('/api/reportExecution/run/events.registrationsByType', {
      EventId: event.EventId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().Grouping.Rows as {
      Level: number;
      Keys: unknown[];
      Values: Record<string, number>;
    }[];
    const byType = Object.fromEntries(
      rows.filter((r) => r.Level === 2).map((r) => [String(r.Keys[1]), r.Values.count]),
    );
    expect(byType).toEqual({ [String(table)]: 2, [String(standing)]: 1 });
    expect(rows.find((r) => r.Level === 0)?.Values.count).toBe(3);
  });
});
