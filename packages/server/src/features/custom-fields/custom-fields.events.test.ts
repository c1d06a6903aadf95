/**
 * Events opt in to custom fields (`customFields` in their declaration, decision 0111): an event's fields are defined
 * and valued as contacts' are, and the events list shows one as a column, sorts by it (events without a value last)
 * and filters by it, with totals that match the rows; a deleted event loses its values. The contacts' fields are not
 * the events'.
 */
import { type ListResponse, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let admin: ReturnType<typeof client>;
const f = { Sponsor: 0, Budget: 0, ContactOnly: 0 };
const ids: Record<string, number> = {};
const base = '/api/events/events';

async function define(body: Record<string, unknown>): Promise<number> {
  const res = await admin.post('/api/custom-fields', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

async function list(query: string, body: Record<string, unknown> = {}) {
  const res = await admin.post(`${base}/eventData${query}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListResponse;
}

const names = (r: ListResponse) => r.Results.map((x) => String(x.Name));

const future = (days: number, hourUtc: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  f.Sponsor = await define({
    Entity: 'Event',
    Name: 'Sponsor',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [
      { Id: -1, Name: 'Bank' },
      { Id: -2, Name: 'Brewery' },
    ],
  });
  f.Budget = await define({ Entity: 'Event', Name: 'Budget', CustomFieldDataTypeId: T.Currency });
  f.ContactOnly = await define({ Entity: 'Contact', Name: 'Contact only', CustomFieldDataTypeId: T.Text });
  const events: [string, Record<string, unknown>][] = [
    ['Gala', { [f.Sponsor]: 'Bank', [f.Budget]: 5000 }],
    ['Picnic', { [f.Sponsor]: 'Brewery', [f.Budget]: 800 }],
    ['Lecture', { [f.Sponsor]: 'Bank' }],
    ['Workshop', {}],
  ];
  for (const [i, [Name, Values]] of events.entries()) {
    const res = await admin.post(`${base}/eventSave`, {
      Name,
      Status: 'published',
      Visibility: 'public',
      StartsAt: future(10 + i, 18),
      EndsAt: future(10 + i, 20),
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().Data.EventId as number;
    ids[Name] = id;
    const saved = await admin.put(`/api/custom-fields/values/Event/${id}`, { Values });
    expect(saved.statusCode, saved.body).toBe(200);
  }
});
afterAll(() => ctx.close());

describe('custom fields of events', () => {
  it('offers the events’ own fields as columns, not the contacts’', async () => {
    const fields = (await list('')).ListViewItems.map((c) => c.field);
    expect(fields).toEqual(expect.arrayContaining([`cf_${f.Sponsor}`, `cf_${f.Budget}`]));
    expect(fields).not.toContain(`cf_${f.ContactOnly}`);
  });

  it('shows, sorts and filters the events list by custom fields, with totals that match the rows', async () => {
    const shown = await list(`?$orderby=cf_${f.Budget} desc`, {
      ColumnsToShow: ['Name', `cf_${f.Sponsor}`, `cf_${f.Budget}`],
    });
    expect(names(shown).slice(0, 2)).toEqual(['Gala', 'Picnic']);
    expect(names(shown).slice(2).sort()).toEqual(['Lecture', 'Workshop']);
    expect(shown.Results[0]).toMatchObject({ [`cf_${f.Sponsor}`]: 'Bank' });
    const bank = { Id: 9999, Criteria: [{ PropertyName: `cf_${f.Sponsor}`, Operator: 'eq', Value: 'Bank' }] };
    const sorted = await list(`?$top=1&$orderby=cf_${f.Budget} asc`, bank);
    expect(names(sorted)).toEqual(['Gala']);
    expect(sorted.TotalRecordAvailable).toBe(2);
    expect(names(await list('', bank)).sort()).toEqual(['Gala', 'Lecture']);
    const cheap = await list('?$top=1', {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${f.Budget}`, Operator: 'lt', Value: 1000 }],
    });
    expect(names(cheap)).toEqual(['Picnic']);
    expect(cheap.TotalRecordAvailable).toBe(1);
    const empty = await list('', {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${f.Sponsor}`, Operator: 'isEmpty' }],
    });
    expect(names(empty)).toEqual(['Workshop']);
    expect(empty.TotalRecordAvailable).toBe(1);
  });

  it('drops a deleted event’s values, so the total of its filter drops too', async () => {
    expect((await admin.delete(`${base}/${ids.Lecture}`)).statusCode).toBe(200);
    const bank = await list('?$top=1', {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${f.Sponsor}`, Operator: 'eq', Value: 'Bank' }],
    });
    expect(names(bank)).toEqual(['Gala']);
    expect(bank.TotalRecordAvailable).toBe(1);
    const wrong = await admin.put(`/api/custom-fields/values/Event/${ids.Gala}`, {
      Values: { [f.ContactOnly]: 'x' },
    });
    expect(wrong.statusCode).toBe(400);
  });
});
