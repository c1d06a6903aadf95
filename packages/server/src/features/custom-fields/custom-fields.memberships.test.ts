/**
 * Another resource that opts in (memberships: `customFields` in its declaration, decision 0111): its custom fields
 * are defined and valued as contacts' are, and its generic list shows one as a column, sorts by it (memberships
 * without a value last) and filters by it; a value of the wrong field or type is refused.
 * The contacts' fields are not the memberships'.
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
const f = { Tier: 0, Since: 0, ContactOnly: 0 };
const ids: Record<string, number> = {};
const base = '/api/memberships/memberships';

async function define(body: Record<string, unknown>): Promise<number> {
  const res = await admin.post('/api/custom-fields', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

async function list(query: string, body: Record<string, unknown> = {}) {
  const res = await admin.post(`${base}/membershipData${query}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListResponse;
}

const names = (r: ListResponse) => r.Results.map((x) => String(x.ContactName).split(',')[0]);

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  const type = await admin.post('/api/memberships/types/typeSave', {
    Name: 'Individual',
    TermKind: 'anniversary',
    DurationMonths: 12,
    GraceDays: 30,
    RenewalDaysBefore: 30,
    IsActive: true,
  });
  expect(type.statusCode, type.body).toBe(200);
  const typeId = type.json().Data.MembershipTypeId;
  f.Tier = await define({
    Entity: 'Membership',
    Name: 'Sponsor tier',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [
      { Id: -1, Name: 'Gold' },
      { Id: -2, Name: 'Silver' },
    ],
  });
  f.Since = await define({ Entity: 'Membership', Name: 'Sponsor since', CustomFieldDataTypeId: T.Date });
  f.ContactOnly = await define({ Entity: 'Contact', Name: 'Contact only', CustomFieldDataTypeId: T.Text });
  const people: [string, Record<string, unknown>][] = [
    ['Avery', { [f.Tier]: 'Silver', [f.Since]: '2020-01-01' }],
    ['Blake', { [f.Tier]: 'Gold', [f.Since]: '2018-06-01' }],
    ['Casey', { [f.Tier]: 'Gold' }],
    ['Drew', {}],
  ];
  for (const [LastName, Values] of people) {
    const c = await admin.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Sam',
      LastName,
    });
    expect(c.statusCode, c.body).toBe(200);
    const joined = await admin.post('/api/memberships/join', {
      ContactId: c.json().Data.ContactId,
      MembershipTypeId: typeId,
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const id = joined.json().MembershipId as number;
    ids[LastName] = id;
    const saved = await admin.put(`/api/custom-fields/values/Membership/${id}`, { Values });
    expect(saved.statusCode, saved.body).toBe(200);
  }
});
afterAll(() => ctx.close());

describe('custom fields of memberships', () => {
  it('offers the memberships’ own fields as columns, not the contacts’', async () => {
    const r = await list('');
    const fields = r.ListViewItems.map((c) => c.field);
    expect(fields).toEqual(expect.arrayContaining([`cf_${f.Tier}`, `cf_${f.Since}`]));
    expect(fields).not.toContain(`cf_${f.ContactOnly}`);
  });

  it('shows, sorts and filters the list by a membership’s custom fields', async () => {
    const shown = await list(`?$orderby=cf_${f.Since} asc`, {
      ColumnsToShow: ['ContactName', `cf_${f.Tier}`, `cf_${f.Since}`],
    });
    expect(names(shown)).toEqual(['Blake', 'Avery', 'Casey', 'Drew']);
    expect(shown.Results[0]).toMatchObject({ [`cf_${f.Tier}`]: 'Gold', [`cf_${f.Since}`]: '2018-06-01' });
    const desc = await list(`?$orderby=cf_${f.Since} desc`);
    expect(names(desc).slice(0, 2)).toEqual(['Avery', 'Blake']);
    const gold = await list(`?$orderby=cf_${f.Tier} asc`, {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${f.Tier}`, Operator: 'eq', Value: 'Gold' }],
    });
    expect(names(gold).sort()).toEqual(['Blake', 'Casey']);
    expect(gold.TotalRecordAvailable).toBe(2);
    const empty = await list('', {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${f.Tier}`, Operator: 'isEmpty' }],
    });
    expect(names(empty)).toEqual(['Drew']);
  });

  it('refuses a contact’s field on a membership, and a value its type does not take', async () => {
    const wrongField = await admin.put(`/api/custom-fields/values/Membership/${ids.Drew}`, {
      Values: { [f.ContactOnly]: 'x' },
    });
    expect(wrongField.statusCode).toBe(400);
    const wrongValue = await admin.put(`/api/custom-fields/values/Membership/${ids.Drew}`, {
      Values: { [f.Tier]: 'Platinum' },
    });
    expect(wrongValue.statusCode).toBe(400);
    const fields = (await admin.get('/api/custom-fields?entity=Membership')).json();
    expect(fields.find((x: { CustomFieldId: number }) => x.CustomFieldId === f.Tier).ValueCount).toBe(3);
  });
});
