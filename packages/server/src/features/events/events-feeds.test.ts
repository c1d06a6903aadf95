import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api, Model } from '../../../test/fixtures/api.ts';
import { withMemberContact } from '../../../test/fixtures/contacts.ts';
import { occurrences, saveEvent as saveEventBy } from '../../../test/fixtures/events.ts';
import type { TenantWithUsers, TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let staff: Api;
let member: Api;

const saveEvent = (model: Model) =>
  saveEventBy(staff, { Visibility: 'members', WaitlistEnabled: true, ...model });
const details = (eventId: unknown) => occurrences(staff, eventId);

/** The path of an absolute feed address, for app.inject. */
const pathOf = (url: string) => new URL(url).pathname;
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

interface ParsedEvent {
  uid: string;
  start: number;
  end: number;
  tzid: string | null;
  hour: number;
  minute: number;
  status: string | null;
}

function parseFeed(text: string): ParsedEvent[] {
  const component = new ICAL.Component(ICAL.parse(text));
  for (const tz of component.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return component.getAllSubcomponents('vevent').map((ve) => {
    const event = new ICAL.Event(ve);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().getTime(),
      end: event.endDate.toJSDate().getTime(),
      tzid: (ve.getFirstProperty('dtstart')?.getParameter('tzid') as string | undefined) ?? null,
      hour: event.startDate.hour,
      minute: event.startDate.minute,
      status: (ve.getFirstPropertyValue('status') as string | null) ?? null,
    };
  });
}

beforeAll(async () => {
  ({ ctx, t, other, staff, member } = await withMemberContact({
    FirstName: 'Fay',
    LastName: 'Feed',
    Email: 'fay@example.org',
  }));
}, 60_000);
afterAll(() => ctx?.close());

describe("a member's feed of their registrations", () => {
  it('lists each registered occurrence with its UID and local time across DST; reset and other tenants answer 404', async () => {
    expect((await member.get('/api/events/member/feed')).json()).toEqual({ FeedUrl: null, CreatedAt: null });

    // A weekly evening in Chicago across the start of DST (10 March 2030), and a monthly morning in London.
    const weekly = await saveEvent({
      Name: 'Chicago chapter evening',
      TimezoneId: 'America/Chicago',
      StartsAt: '2030-03-05T00:30:00.000Z', // Mon 4 March 18:30 CST
      EndsAt: '2030-03-05T02:00:00.000Z',
      Repeats: 'custom',
      RecurrenceRule: 'FREQ=WEEKLY;COUNT=4',
    });
    const monthly = await saveEvent({
      Name: 'London breakfast',
      TimezoneId: 'Europe/London',
      StartsAt: '2030-03-12T08:00:00.000Z',
      EndsAt: '2030-03-12T09:00:00.000Z',
      Repeats: 'custom',
      RecurrenceRule: 'FREQ=MONTHLY;BYDAY=2TU;COUNT=3',
    });
    const full = await saveEvent({
      Name: 'Full dinner',
      TimezoneId: 'Australia/Sydney',
      StartsAt: '2030-04-04T08:00:00.000Z',
      EndsAt: '2030-04-04T10:00:00.000Z',
      Capacity: 0,
    });
    const weeklyDates = await details(weekly.EventId);
    const monthlyDates = await details(monthly.EventId);
    const fullDate = (await details(full.EventId))[0];
    expect(weeklyDates).toHaveLength(4);
    const register = async (detail: Model | undefined, guests: Model[] = []) => {
      const res = await member.post('/api/events/member/register', {
        EventDetailId: detail?.EventDetailId,
        Attendees: guests,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // Before and after the DST change (with a guest: still one VEVENT), one London date, one to cancel, and a
    // waitlisted place (no seat: not in the feed).
    await register(weeklyDates[0], [{ Name: 'Guest of Fay' }]);
    await register(weeklyDates[2]);
    await register(monthlyDates[1]);
    const cancelled = await register(weeklyDates[3]);
    expect((await register(fullDate)).outcome).toBe('waitlisted');
    expect(
      (await member.post(`/api/events/member/registrations/${cancelled.Attendees[0].AttendeeId}/cancel`))
        .statusCode,
    ).toBe(200);

    const made = await member.post('/api/events/member/feed/reset');
    expect(made.statusCode, made.body).toBe(200);
    const feedUrl = String(made.json().FeedUrl);
    expect(feedUrl).toMatch(new RegExp(`/api/events/my-feed/${t.tenant.id}/[\\w-]{43}\\.ics$`));
    expect((await member.get('/api/events/member/feed')).json().FeedUrl).toBe(feedUrl);

    const res = await get(pathOf(feedUrl));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/calendar/);
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    expect((await get(pathOf(feedUrl), { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
    expect(res.body).toContain('BEGIN:VTIMEZONE');
    expect(res.body).toContain('TZID:America/Chicago');
    expect(res.body).toContain('TZID:Europe/London');

    const parsed = parseFeed(res.body);
    const uid = (e: Model, d: Model | undefined) => `event-${e.EventId}-${d?.EventDetailId}@guildhall.test`;
    expect(parsed.map((p) => p.uid).sort()).toEqual(
      [
        uid(weekly, weeklyDates[0]),
        uid(weekly, weeklyDates[2]),
        uid(weekly, weeklyDates[3]),
        uid(monthly, monthlyDates[1]),
      ].sort(),
    );
    const byUid = new Map(parsed.map((p) => [p.uid, p]));
    for (const [e, d, hour, minute, tzid] of [
      [weekly, weeklyDates[0], 18, 30, 'America/Chicago'],
      [weekly, weeklyDates[2], 18, 30, 'America/Chicago'], // after the DST change: still 18:30
      [monthly, monthlyDates[1], 8, 0, 'Europe/London'], // 9 April 2030, in BST: still 08:00
    ] as const) {
      const p = byUid.get(uid(e, d));
      expect(p, uid(e, d)).toMatchObject({
        start: Date.parse(String(d?.StartsAt)),
        end: Date.parse(String(d?.EndsAt)),
        tzid,
        hour,
        minute,
        status: 'CONFIRMED',
      });
    }
    // The cancelled registration stays as cancelled, so subscribed calendars drop it.
    expect(byUid.get(uid(weekly, weeklyDates[3]))?.status).toBe('CANCELLED');

    // Another association's address with the same token, a made-up token, and the address after a reset: 404.
    const token = feedUrl.split('/').pop() as string;
    expect((await get(`/api/events/my-feed/${other.tenant.id}/${token}`)).statusCode).toBe(404);
    expect((await get(`/api/events/my-feed/${t.tenant.id}/${'A'.repeat(43)}.ics`)).statusCode).toBe(404);
    const reset = (await member.post('/api/events/member/feed/reset')).json();
    expect(reset.FeedUrl).not.toBe(feedUrl);
    expect((await get(pathOf(feedUrl))).statusCode).toBe(404);
    expect((await get(pathOf(reset.FeedUrl))).statusCode).toBe(200);
    // Staff have no feed of their own here; the address is the member area's.
    expect((await staff.get('/api/events/member/feed')).statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe('the confirmation mail', () => {
  it('carries the occurrence as an .ics attachment, the same file as its download', async () => {
    const event = await saveEvent({
      Name: 'Spring gala',
      TimezoneId: 'America/New_York',
      StartsAt: '2030-05-10T23:00:00.000Z',
      EndsAt: '2030-05-11T03:00:00.000Z',
      Capacity: 1,
    });
    const detail = (await details(event.EventId))[0];
    const reg = await member.post('/api/events/member/register', { EventDetailId: detail?.EventDetailId });
    expect(reg.json().outcome).toBe('registered');
    const waitlisted = await staff.post('/api/events/registrations', {
      EventDetailId: detail?.EventDetailId,
      Attendees: [{ Name: 'Walt Waiting', Email: 'walt@example.org' }],
    });
    expect(waitlisted.json().outcome).toBe('waitlisted');
    await ctx.app.background.settled();

    const outbox = (await staff.get('/api/mail/outbox')).json() as Model[];
    const confirmation = outbox.find(
      (m) => m.to === 'fay@example.org' && m.subject === 'You are registered: Spring gala',
    );
    expect(confirmation).toBeDefined();
    const message = (await staff.get(`/api/mail/outbox/${confirmation?.id}`)).json();
    const download = await staff.get(`/api/events/details/${detail?.EventDetailId}/ics`);
    expect(download.statusCode).toBe(200);
    expect(message.attachments).toEqual([
      {
        filename: 'Spring gala.ics',
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        size: Buffer.byteLength(download.body, 'utf8'),
      },
    ]);
    const [occurrence] = parseFeed(download.body);
    expect(occurrence).toMatchObject({
      uid: `event-${event.EventId}-${detail?.EventDetailId}@guildhall.test`,
      start: Date.parse(String(detail?.StartsAt)),
      tzid: 'America/New_York',
      hour: 19,
    });
    // The waitlist's mail has nothing to add to a calendar yet.
    const wait = outbox.find((m) => m.to === 'walt@example.org');
    expect((await staff.get(`/api/mail/outbox/${wait?.id}`)).json().attachments).toEqual([]);
  });
});
