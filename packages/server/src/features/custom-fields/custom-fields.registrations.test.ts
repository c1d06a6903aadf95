/**
 * Event registrations opt in to custom fields (`customFields` on the attendees' declaration, decision 0111): staff
 * define the registration questions, value them per attendee and see them in the attendees list; another feature's
 * registration form reads the questions a member may answer, has the answers checked (type, required on the pages
 * the branches go through, a staff-only field refused) and stores them for the attendee it made.
 */
import { withTenantTx } from '@guildhall/db';
import { eventAttendeesResource, type ListResponse, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { boundResource } from '../../platform/resources/registry.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let admin: ReturnType<typeof client>;
const f = { Heading: 0, Meal: 0, Allergy: 0, Arrival: 0, Badge: 0, ContactOnly: 0 };
let eventId = 0;
const attendees: number[] = [];

async function define(body: Record<string, unknown>): Promise<number> {
  const res = await admin.post('/api/custom-fields', { Entity: 'EventRegistration', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

const answers = () => {
  const a = boundResource(ctx.app.services.resources, eventAttendeesResource.name).extraFields?.answers;
  if (!a) throw new Error('The attendees take no custom fields.');
  return a;
};
const inTenant = <R>(work: Parameters<typeof withTenantTx<R>>[2]) =>
  withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, work);

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  const entities = await admin.get('/api/custom-fields/entities');
  expect(entities.json()).toContainEqual({ Entity: 'EventRegistration', Title: 'Event registrations' });
  // Registered before the questions exist (a registration now must answer the required ones).
  const ev = await admin.post('/api/events/events/eventSave', {
    Name: 'Congress',
    Status: 'published',
    Visibility: 'public',
    RegistrationOpen: true,
    StartsAt: new Date(Date.now() + 20 * 86_400_000).toISOString(),
    EndsAt: new Date(Date.now() + 20 * 86_400_000 + 3_600_000).toISOString(),
  });
  expect(ev.statusCode, ev.body).toBe(200);
  eventId = ev.json().Data.EventId;
  const details = await admin.post('/api/events/details/detailData', {
    Id: 9999,
    Criteria: [{ PropertyName: 'EventId', Operator: 'eq', Value: eventId }],
  });
  const detailId = details.json().Results[0].EventDetailId;
  for (const name of ['Ada', 'Ben']) {
    const c = await admin.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: name,
      LastName: 'Guest',
    });
    const reg = await admin.post('/api/events/registrations', {
      EventDetailId: detailId,
      ContactId: c.json().Data.ContactId,
    });
    expect(reg.statusCode, reg.body).toBe(200);
    attendees.push(reg.json().Attendees[0].AttendeeId);
  }
  f.Heading = await define({
    Name: 'Your stay',
    CustomFieldDataTypeId: T.SectionHeading,
    Visibility: 'memberEdit',
  });
  f.Meal = await define({
    Name: 'Meal',
    CustomFieldDataTypeId: T.Dropdown,
    Required: true,
    Visibility: 'memberEdit',
    SelectListItems: [
      { Id: -1, Name: 'Vegan', GoTo: 3 },
      { Id: -2, Name: 'Other diet' },
    ],
  });
  f.Allergy = await define({
    Name: 'Allergy',
    CustomFieldDataTypeId: T.Text,
    Required: true,
    PageNumber: 2,
    Visibility: 'memberEdit',
  });
  f.Arrival = await define({
    Name: 'Arrival',
    CustomFieldDataTypeId: T.Text,
    PageNumber: 3,
    Visibility: 'memberEdit',
  });
  f.Badge = await define({ Name: 'Badge printed', CustomFieldDataTypeId: T.YesNo });
  f.ContactOnly = await define({ Entity: 'Contact', Name: 'Contact only', CustomFieldDataTypeId: T.Text });
});
afterAll(() => ctx.close());

describe('custom fields of event registrations', () => {
  it('staff value an attendee’s questions and see them in the attendees list, checked by type', async () => {
    const [ada, ben] = attendees as [number, number];
    const saved = await admin.put(`/api/custom-fields/values/EventRegistration/${ada}`, {
      Values: { [f.Meal]: 'Vegan', [f.Badge]: 'Yes' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const wrong = await admin.put(`/api/custom-fields/values/EventRegistration/${ben}`, {
      Values: { [f.Meal]: 'Steak' },
    });
    expect(wrong.statusCode).toBe(400);
    const other = await admin.put(`/api/custom-fields/values/EventRegistration/${ben}`, {
      Values: { [f.ContactOnly]: 'x' },
    });
    expect(other.statusCode).toBe(400);
    const list = await admin.post('/api/events/attendees/attendeeData', {
      Id: 9999,
      Criteria: [
        { PropertyName: 'EventId', Operator: 'eq', Value: eventId },
        { PropertyName: `cf_${f.Meal}`, Operator: 'eq', Value: 'Vegan' },
      ],
      ColumnsToShow: ['AttendeeName', `cf_${f.Meal}`],
    });
    expect(list.statusCode, list.body).toBe(200);
    const rows = (list.json() as ListResponse).Results;
    expect(rows.map((r) => r.AttendeeId)).toEqual([ada]);
    expect(rows[0]).toMatchObject({ [`cf_${f.Meal}`]: 'Vegan' });
  });

  it('one event’s attendee list offers that event’s questions and every event’s as columns, not another event’s', async () => {
    const other = await admin.post('/api/events/events/eventSave', {
      Name: 'Summer school',
      Status: 'published',
      Visibility: 'public',
      StartsAt: new Date(Date.now() + 40 * 86_400_000).toISOString(),
      EndsAt: new Date(Date.now() + 40 * 86_400_000 + 3_600_000).toISOString(),
    });
    expect(other.statusCode, other.body).toBe(200);
    const otherId = other.json().Data.EventId as number;
    const mine = await define({ Name: 'Workshop choice', CustomFieldDataTypeId: T.Text, ScopeId: eventId });
    const theirs = await define({ Name: 'Room mate', CustomFieldDataTypeId: T.Text, ScopeId: otherId });
    const columns = async (body: Record<string, unknown>) => {
      const res = await admin.post('/api/events/attendees/attendeeData', body);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as ListResponse).ListViewItems.map((c) => c.field);
    };
    const pinned = (extra: Record<string, unknown> = {}) => ({
      Id: 9999,
      Criteria: [{ PropertyName: 'EventId', Operator: 'eq', Value: eventId }],
      ...extra,
    });
    const one = await columns(pinned());
    expect(one).toEqual(expect.arrayContaining([`cf_${f.Meal}`, `cf_${mine}`]));
    expect(one).not.toContain(`cf_${theirs}`);
    // Every attendee (no event named): every event's questions.
    expect(await columns({})).toEqual(expect.arrayContaining([`cf_${mine}`, `cf_${theirs}`]));
    // A column the saved settings show stays offered, so it can be hidden again.
    const shown = await columns(pinned({ ColumnsToShow: ['AttendeeName', `cf_${theirs}`] }));
    expect(shown).toContain(`cf_${theirs}`);
  });

  it('a registration form asks members only what they may answer, checks the answers and stores them', async () => {
    const asked = await inTenant((tx) => answers().fields(tx, t.tenant.id, 'member'));
    expect(asked.map((x) => x.CustomFieldId)).toEqual([f.Heading, f.Meal, f.Allergy, f.Arrival]);
    const staffAsked = await inTenant((tx) => answers().fields(tx, t.tenant.id, 'staff'));
    expect(staffAsked.map((x) => x.CustomFieldId)).toContain(f.Badge);

    const check = (input: Record<string, unknown>, audience: 'member' | 'staff' = 'member') =>
      inTenant((tx) => answers().check(tx, t.tenant.id, input, audience));
    // Required fields are asked on every page the answers go through.
    expect(await check({})).toEqual({
      errors: { [`cf_${f.Meal}`]: ['Meal is required.'], [`cf_${f.Allergy}`]: ['Allergy is required.'] },
    });
    // Other diet goes through page 2 and its required field; Vegan's branch skips to page 3.
    expect(await check({ [f.Meal]: 'Other diet' })).toEqual({
      errors: { [`cf_${f.Allergy}`]: ['Allergy is required.'] },
    });
    expect(await check({ [f.Meal]: 'Vegan' })).toMatchObject({ values: { [f.Meal]: expect.any(Number) } });
    // A staff-only field is refused to members, never skipped; staff may answer it; a contact's field never.
    expect(await check({ [f.Meal]: 'Vegan', [f.Badge]: 'Yes' })).toHaveProperty(['errors', `cf_${f.Badge}`]);
    expect(await check({ [f.Meal]: 'Vegan', [f.Badge]: 'Yes' }, 'staff')).toHaveProperty('values');
    expect(await check({ [f.Meal]: 'Vegan', [f.ContactOnly]: 'x' }, 'staff')).toHaveProperty([
      'errors',
      `cf_${f.ContactOnly}`,
    ]);
    expect(await check({ [f.Meal]: 'Fish' })).toHaveProperty(['errors', `cf_${f.Meal}`]);

    const ok = await check({ [f.Meal]: 'Other diet', [f.Allergy]: 'Peanuts' });
    if (!('values' in ok)) throw new Error(JSON.stringify(ok));
    const ben = attendees[1] as number;
    await inTenant((tx) => answers().write(tx, t.tenant.id, ben, ok.values));
    const read = await admin.get(`/api/custom-fields/values/EventRegistration/${ben}`);
    expect(read.statusCode, read.body).toBe(200);
    const meal = read.json().Fields.find((x: { CustomFieldId: number }) => x.CustomFieldId === f.Meal);
    const other = meal.SelectListItems.find((c: { Name: string }) => c.Name === 'Other diet').Id;
    expect(read.json().Values).toMatchObject({ [f.Meal]: other, [f.Allergy]: 'Peanuts' });
  });
});
