import { type ListResponse, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, future, type Model, signedIn, twoAssociations } from '../../../test/fixtures/api.ts';
import { memberContact } from '../../../test/fixtures/contacts.ts';
import { firstOccurrence, saveEvent } from '../../../test/fixtures/events.ts';
import type { TenantWithUsers, TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let admin: Api;
let member: Api;
let otherAdmin: Api;
let eventA = 0;
let eventB = 0;
let detailA = 0;
const q = { Diet: 0, Parking: 0, Shirt: 0, OtherEvent: 0 };

async function define(c: Api, body: Model): Promise<number> {
  const res = await c.post('/api/custom-fields', { Entity: 'EventRegistration', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

const firstDetail = (eventId: number) => firstOccurrence(admin, eventId);

async function seatsTaken(detailId: number): Promise<number> {
  const res = await admin.post('/api/events/details/detailGet', { id: detailId });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { Data?: Model } & Model;
  return Number((body.Data ?? body).SeatsTaken);
}

const values = async (attendeeId: number) => {
  const res = await admin.get(`/api/custom-fields/values/EventRegistration/${attendeeId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { Fields: { CustomFieldId: number }[]; Values: Record<string, unknown> };
};

beforeAll(async () => {
  ({ ctx, t, other } = await twoAssociations());
  admin = await signedIn(ctx.app, t.admin);
  member = await signedIn(ctx.app, t.member);
  otherAdmin = await signedIn(ctx.app, other.admin);
  await memberContact(ctx, t, admin, { FirstName: 'Zoë', LastName: 'Łukasiewicz', Email: 'zoe@example.org' });
  const event = (Name: string, days: number) =>
    saveEvent(admin, { Name, Capacity: 10, StartsAt: future(days, 18), EndsAt: future(days, 20) });
  eventA = Number((await event('Annual dinner', 20)).EventId);
  eventB = Number((await event('Field trip', 21)).EventId);
  detailA = await firstDetail(eventA);
  q.Diet = await define(admin, {
    ScopeId: eventA,
    Name: 'Dietary needs',
    CustomFieldDataTypeId: T.Text,
    Required: true,
    Visibility: 'memberEdit',
  });
  q.Parking = await define(admin, {
    ScopeId: eventA,
    Name: 'Needs parking',
    CustomFieldDataTypeId: T.YesNo,
    Visibility: 'memberEdit',
    SortOrder: 1,
  });
  q.Shirt = await define(admin, {
    ScopeId: eventA,
    Name: 'Shirt size',
    CustomFieldDataTypeId: T.Dropdown,
    SortOrder: 2,
    SelectListItems: [
      { Id: -1, Name: 'S' },
      { Id: -2, Name: 'M' },
    ],
  });
  q.OtherEvent = await define(admin, {
    ScopeId: eventB,
    Name: 'Walking boots',
    CustomFieldDataTypeId: T.Text,
    Required: true,
    Visibility: 'memberEdit',
  });
}, 60_000);
afterAll(() => ctx?.close());

describe('registration questions', () => {
  it('keeps each event’s questions apart from the entity’s own and from other events’', async () => {
    const ofA = await admin.get(`/api/custom-fields?entity=EventRegistration&scope=${eventA}`);
    expect(ofA.statusCode, ofA.body).toBe(200);
    expect(ofA.json().map((f: Model) => f.Name)).toEqual(['Dietary needs', 'Needs parking', 'Shirt size']);
    expect(ofA.json()[0].ScopeId).toBe(eventA);
    const unscoped = await admin.get('/api/custom-fields?entity=EventRegistration');
    expect(unscoped.json()).toEqual([]);
    const asked = await admin.get(`/api/events/events/${eventA}/questions`);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().map((f: Model) => f.CustomFieldId)).toEqual([q.Diet, q.Parking, q.Shirt]);
  });

  it('refuses a scope on an entity without one, and another association’s event', async () => {
    const contact = await admin.post('/api/custom-fields', {
      Entity: 'Contact',
      ScopeId: eventA,
      Name: 'Nope',
      CustomFieldDataTypeId: T.Text,
    });
    expect(contact.statusCode).toBe(400);
    const foreign = await otherAdmin.post('/api/custom-fields', {
      Entity: 'EventRegistration',
      ScopeId: eventA,
      Name: 'Nope',
      CustomFieldDataTypeId: T.Text,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('asks members the questions they may answer, and takes no seat when a required one is missing', async () => {
    const page = await member.get(`/api/events/member/events/${eventA}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().Questions.map((f: Model) => f.Name)).toEqual(['Dietary needs', 'Needs parking']);
    const missing = await member.post('/api/events/member/register', {
      EventDetailId: detailA,
      Answers: { [q.Parking]: 'Yes' },
    });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json().errors?.[`cf_${q.Diet}`]).toEqual(['Dietary needs is required.']);
    expect(await seatsTaken(detailA)).toBe(0);
    const staffOnly = await member.post('/api/events/member/register', {
      EventDetailId: detailA,
      Answers: { [q.Diet]: 'Vegan', [q.Shirt]: 'M' },
    });
    expect(staffOnly.statusCode).toBe(400);
    expect(await seatsTaken(detailA)).toBe(0);
  });

  it('stores a member’s answers on their attendee record', async () => {
    const res = await member.post('/api/events/member/register', {
      EventDetailId: detailA,
      Answers: { [q.Diet]: 'Vegan, no nuts', [q.Parking]: 'Yes' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome).toBe('registered');
    const attendeeId = res.json().Attendees[0].AttendeeId as number;
    const stored = await values(attendeeId);
    // The attendee is asked the questions of its own event only.
    expect(stored.Fields.map((f) => f.CustomFieldId)).toEqual([q.Diet, q.Parking, q.Shirt]);
    expect(stored.Values[String(q.Diet)]).toBe('Vegan, no nuts');
    expect(stored.Values[String(q.Parking)]).not.toBeNull();
    expect(stored.Values[String(q.Shirt)]).toBeUndefined();
  });

  it('stores each attendee’s own answers in a group registered by staff, shown in the attendee list', async () => {
    const res = await admin.post('/api/events/registrations', {
      EventDetailId: detailA,
      Attendees: [
        { Name: 'Ana Núñez', Answers: { [q.Diet]: 'None', [q.Shirt]: 'S' } },
        { Name: 'Søren Ødegård', Answers: { [q.Diet]: 'Gluten-free', [q.Parking]: 'No' } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [ana, soren] = res.json().Attendees as { AttendeeId: number }[];
    expect((await values(Number(ana?.AttendeeId))).Values[String(q.Shirt)]).not.toBeUndefined();
    expect((await values(Number(soren?.AttendeeId))).Values[String(q.Diet)]).toBe('Gluten-free');

    const list = await admin.post('/api/events/attendees/attendeeData?$orderby=AttendeeName asc', {
      Id: 9999,
      Criteria: [{ PropertyName: 'EventId', Operator: 'eq', Value: eventA }],
      ColumnsToShow: ['AttendeeName', `cf_${q.Diet}`, `cf_${q.Parking}`, `cf_${q.Shirt}`],
    });
    expect(list.statusCode, list.body).toBe(200);
    const rows = (list.json() as ListResponse).Results.map((r) => [
      r.AttendeeName,
      r[`cf_${q.Diet}`],
      r[`cf_${q.Parking}`],
      r[`cf_${q.Shirt}`],
    ]);
    expect(rows).toEqual([
      ['Ana Núñez', 'None', null, 'S'],
      ['Søren Ødegård', 'Gluten-free', 'No', null],
      ['Zoë Łukasiewicz', 'Vegan, no nuts', 'Yes', null],
    ]);
    expect(await seatsTaken(detailA)).toBe(3);
  });

  it('refuses a wrong answer and a question of another event', async () => {
    const wrong = await admin.post('/api/events/registrations', {
      EventDetailId: detailA,
      Attendees: [{ Name: 'Guest', Answers: { [q.Diet]: 'x', [q.Shirt]: 'XXL' } }],
    });
    expect(wrong.statusCode).toBe(400);
    const foreign = await admin.post('/api/events/registrations', {
      EventDetailId: detailA,
      Attendees: [{ Name: 'Guest', Answers: { [q.Diet]: 'x', [q.OtherEvent]: 'Boots' } }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors?.[`cf_${q.OtherEvent}`]).toEqual(['No such field.']);
    expect(await seatsTaken(detailA)).toBe(3);
  });
});

describe('printable attendee list and badges', () => {
  const pdfText = async (bytes: Buffer) => {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    return (await extractText(pdf, { mergePages: true })).text;
  };

  it('prints the attendee list and the badges of an occurrence, names as written', async () => {
    for (const kind of ['attendees', 'badges']) {
      const res = await admin.get(`/api/events/details/${detailA}/${kind}.pdf`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(res.rawPayload);
      for (const name of ['Zoë Łukasiewicz', 'Søren Ødegård', 'Ana Núñez']) expect(text).toContain(name);
      expect(text).toContain('Annual dinner');
    }
    const list = await pdfText((await admin.get(`/api/events/details/${detailA}/attendees.pdf`)).rawPayload);
    expect(list).toContain('3 attendees');
    expect((await member.get(`/api/events/details/${detailA}/badges.pdf`)).statusCode).toBe(403);
    expect((await otherAdmin.get(`/api/events/details/${detailA}/badges.pdf`)).statusCode).toBe(404);
  });
});
