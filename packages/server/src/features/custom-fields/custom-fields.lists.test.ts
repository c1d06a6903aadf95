/**
 * Custom fields in the generic contacts list (decision 0112): a column shown on request, a sort through the typed
 * index (the rows without a value last, choices in the order of their list), filters by type (text contains,
 * number and date ranges, a choice by id or name, any of several, yes/no, empty), the export, and the answers a
 * wrong filter gets. Another association's fields are not this one's.
 */
import { EXPORT_TOP, type ListResponse, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
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
let otherAdmin: ReturnType<typeof client>;
const base = '/api/contacts/contacts';
const f: Record<string, number> = {};
const ids: Record<string, number> = {};
const key = (name: string) => `cf_${f[name]}`;

const choices = (...names: string[]) => names.map((Name, i) => ({ Id: -(i + 1), Name }));

async function define(body: Record<string, unknown>): Promise<number> {
  const res = await admin.post('/api/custom-fields', { Entity: 'Contact', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

function choiceId(field: string, name: string): number {
  return chosen[field]?.find((c) => c.Name === name)?.Id as number;
}
const chosen: Record<string, { Id: number; Name: string }[]> = {};

async function list(
  query: string,
  body: Record<string, unknown> = {},
  api = admin,
): Promise<ListResponse & { status: number; message?: string }> {
  const res = await api.post(`${base}/contactData${query}`, body);
  return { ...res.json(), status: res.statusCode };
}

const names = (r: ListResponse & { message?: string }) => {
  if (!r.Results) throw new Error(JSON.stringify(r));
  return r.Results.map((x) => String(x.DisplayName).split(',')[0]);
};

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  const other = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
  f.Chapter = await define({
    Name: 'Chapter',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: choices('North', 'South', 'East'),
  });
  f.Certified = await define({ Name: 'Certified on', CustomFieldDataTypeId: T.Date });
  f.Years = await define({ Name: 'Years in trade', CustomFieldDataTypeId: T.Number });
  f.Pledge = await define({ Name: 'Pledge', CustomFieldDataTypeId: T.Currency });
  f.Diet = await define({ Name: 'Diet', CustomFieldDataTypeId: T.Text });
  f.Interests = await define({
    Name: 'Interests',
    CustomFieldDataTypeId: T.MultiChoice,
    SelectListItems: choices('Boats', 'Books', 'Birds'),
  });
  f.Consent = await define({ Name: 'Photo consent', CustomFieldDataTypeId: T.Checkbox });
  for (const name of ['Chapter', 'Interests']) {
    const res = await admin.get('/api/custom-fields?entity=Contact');
    chosen[name] = res
      .json()
      .find((x: { CustomFieldId: number }) => x.CustomFieldId === f[name]).SelectListItems;
  }
  const people: [string, Record<string, unknown>][] = [
    [
      'Adams',
      {
        Chapter: 'South',
        Certified: '2021-05-01',
        Years: 12,
        Pledge: 2500,
        Diet: 'Vegan',
        Interests: ['Boats', 'Birds'],
        Consent: true,
      },
    ],
    [
      'Baker',
      {
        Chapter: 'North',
        Certified: '2019-01-15',
        Years: 3,
        Pledge: 10000,
        Diet: 'none',
        Interests: ['Books'],
        Consent: false,
      },
    ],
    ['Clark', { Chapter: 'East', Certified: '2023-11-30', Years: 30, Diet: 'vegetarian' }],
    ['Davis', { Chapter: 'North', Years: 7, Interests: ['Birds'] }],
    ['Evans', {}],
  ];
  for (const [LastName, v] of people) {
    const res = await admin.post(`${base}/contactSave`, {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Pat',
      LastName,
      City: 'Testville',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().Data.ContactId as number;
    ids[LastName] = id;
    const Values: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(v)) Values[String(f[name])] = value;
    const saved = await admin.put(`/api/custom-fields/values/Contact/${id}`, { Values });
    expect(saved.statusCode, saved.body).toBe(200);
  }
}, 300_000);
afterAll(() => ctx.close());

describe('custom fields in the contacts list', () => {
  it('offers every custom field as a hidden column, sortable and filterable, and shows it on request', async () => {
    const plain = await list('?$top=10');
    const column = plain.ListViewItems.find((c) => c.field === key('Chapter'));
    expect(column).toMatchObject({ title: 'Chapter', show: false, defaultHide: true, sortable: true });
    expect(plain.ListViewItems.find((c) => c.field === key('Interests'))?.sortable).toBe(false);
    expect(plain.ModelItems.SortableFields).toContain(key('Certified'));
    expect(plain.ModelItems.FilterableFields).toContain(key('Interests'));
    expect(plain.Results[0]).not.toHaveProperty(key('Chapter'));
    const shown = await list('?$top=10&$orderby=LastName asc', {
      ColumnsToShow: ['DisplayName', 'LastName', ...Object.keys(f).map(key)],
    });
    expect(shown.status).toBe(200);
    const adams = shown.Results.find((r) => r.LastName === 'Adams');
    expect(adams).toMatchObject({
      [key('Chapter')]: 'South',
      [key('Certified')]: '2021-05-01',
      [key('Years')]: 12,
      [key('Pledge')]: 2500,
      [key('Diet')]: 'Vegan',
      [key('Interests')]: 'Boats; Birds',
      [key('Consent')]: 'Yes',
    });
    expect(shown.Results.find((r) => r.LastName === 'Evans')?.[key('Chapter')]).toBeNull();
    expect(shown.ListViewItems.find((c) => c.field === key('Pledge'))).toMatchObject({
      show: true,
      fieldType: 'currency',
    });
  });

  it('sorts by a custom field in both directions, the contacts without a value last', async () => {
    const mine = { Id: 9999, Criteria: [{ PropertyName: 'City', Operator: 'eq', Value: 'Testville' }] };
    expect(names(await list(`?$orderby=${key('Certified')} asc`, mine))).toEqual([
      'Baker',
      'Adams',
      'Clark',
      'Davis',
      'Evans',
    ]);
    expect(names(await list(`?$orderby=${key('Certified')} desc`, mine))).toEqual([
      'Clark',
      'Adams',
      'Baker',
      'Evans',
      'Davis',
    ]);
    expect(names(await list(`?$orderby=${key('Years')} desc`, mine))).toEqual([
      'Clark',
      'Adams',
      'Davis',
      'Baker',
      'Evans',
    ]);
    expect(names(await list(`?$orderby=${key('Diet')} asc`, mine))).toEqual([
      'Baker',
      'Adams',
      'Clark',
      'Davis',
      'Evans',
    ]);
    // A choice sorts in the order of the choice list (North, South, East), not by name or id.
    expect(names(await list(`?$orderby=${key('Chapter')} asc`, mine))).toEqual([
      'Baker',
      'Davis',
      'Adams',
      'Clark',
      'Evans',
    ]);
    expect(names(await list(`?$orderby=${key('Chapter')} desc`, mine))).toEqual([
      'Clark',
      'Adams',
      'Davis',
      'Baker',
      'Evans',
    ]);
    // Pages never repeat or skip a contact.
    const paged = [];
    for (let skip = 0; skip < 5; skip += 2)
      paged.push(...names(await list(`?$skip=${skip}&$top=2&$orderby=${key('Chapter')} asc`, mine)));
    expect(paged).toEqual(['Baker', 'Davis', 'Adams', 'Clark', 'Evans']);
    const multi = await list(`?$orderby=${key('Interests')} asc`, mine);
    expect(multi.status).toBe(400);
  });

  it('pages a list sorted by a custom field without a filter (keys from the value index) as the filtered list orders', async () => {
    const mine = { Id: 9999, Criteria: [{ PropertyName: 'City', Operator: 'eq', Value: 'Testville' }] };
    for (const sort of [
      `${key('Certified')} asc`,
      `${key('Certified')} desc`,
      `${key('Years')} desc`,
      `${key('Diet')} asc`,
      `${key('Chapter')} asc`,
      `${key('Chapter')} desc`,
    ]) {
      const all = names(await list(`?$top=1000&$orderby=${sort}`));
      const filtered = names(await list(`?$orderby=${sort}`, mine));
      // The unfiltered order holds the filtered one: the contacts with a value in value order, then the others.
      expect(
        all.filter((n) => filtered.includes(n)),
        sort,
      ).toEqual(filtered);
      const paged: (string | undefined)[] = [];
      for (let skip = 0; skip < all.length; skip += 3)
        paged.push(...names(await list(`?$skip=${skip}&$top=3&$orderby=${sort}`)));
      expect(paged, sort).toEqual(all);
    }
  });

  it('filters by type: text contains, number and date ranges, a choice, any of, yes/no, empty', async () => {
    const by = async (...Criteria: Record<string, unknown>[]) =>
      names(await list('?$orderby=LastName asc', { Id: 9999, Criteria }));
    expect(await by({ PropertyName: key('Diet'), Operator: 'contains', Value: 'VEG' })).toEqual([
      'Adams',
      'Clark',
    ]);
    expect(await by({ PropertyName: key('Years'), Operator: 'between', Value: 5, Value2: 20 })).toEqual([
      'Adams',
      'Davis',
    ]);
    expect(await by({ PropertyName: key('Pledge'), Operator: 'ge', Value: 5000 })).toEqual(['Baker']);
    expect(await by({ PropertyName: key('Certified'), Operator: 'ge', Value: '2021-01-01' })).toEqual([
      'Adams',
      'Clark',
    ]);
    expect(await by({ PropertyName: key('Chapter'), Operator: 'eq', Value: 'north' })).toEqual([
      'Baker',
      'Davis',
    ]);
    expect(
      await by({ PropertyName: key('Chapter'), Operator: 'eq', Value: choiceId('Chapter', 'East') }),
    ).toEqual(['Clark']);
    expect(await by({ PropertyName: key('Chapter'), Operator: 'in', Value: ['East', 'South'] })).toEqual([
      'Adams',
      'Clark',
    ]);
    expect(await by({ PropertyName: key('Interests'), Operator: 'in', Value: ['Books', 'Birds'] })).toEqual([
      'Adams',
      'Baker',
      'Davis',
    ]);
    expect(
      await by({ PropertyName: key('Interests'), Operator: 'contains', Value: ['Boats', 'Birds'] }),
    ).toEqual(['Adams']);
    expect(await by({ PropertyName: key('Consent'), Operator: 'eq', Value: 'yes' })).toEqual(['Adams']);
    expect(await by({ PropertyName: key('Chapter'), Operator: 'isEmpty' })).toEqual(
      expect.arrayContaining(['Evans']),
    );
    expect(await by({ PropertyName: key('Chapter'), Operator: 'isEmpty' })).not.toContain('Davis');
    // Two custom conditions and a built-in one together, sorted by a third custom field.
    const both = await list(`?$orderby=${key('Certified')} desc`, {
      Id: 9999,
      Criteria: [
        { PropertyName: key('Chapter'), Operator: 'in', Value: ['North', 'South'] },
        { PropertyName: key('Years'), Operator: 'gt', Value: 1 },
        { PropertyName: 'City', Operator: 'eq', Value: 'Testville' },
      ],
    });
    expect(names(both)).toEqual(['Adams', 'Baker', 'Davis']);
    expect(both.TotalRecordAvailable).toBe(3);
    expect(both.CriteriaItems.map((c) => [c.DisplayName, c.CriteriaDisplayValue])).toContainEqual([
      'Chapter',
      'North, South',
    ]);
  });

  it('refuses a filter its type cannot take, with a message that names the field', async () => {
    const bad = async (c: Record<string, unknown>) => list('', { Id: 9999, Criteria: [c] });
    const notNumber = await bad({ PropertyName: key('Years'), Operator: 'eq', Value: 'many' });
    expect(notNumber.status).toBe(400);
    expect(notNumber.message).toBe('Years in trade: needs a number to filter by.');
    expect((await bad({ PropertyName: key('Certified'), Operator: 'ge', Value: 'soon' })).status).toBe(400);
    const noChoice = await bad({ PropertyName: key('Chapter'), Operator: 'eq', Value: 'West' });
    expect(noChoice.message).toBe('Chapter: there is no choice West.');
    expect((await bad({ PropertyName: key('Consent'), Operator: 'gt', Value: 'yes' })).status).toBe(400);
    expect((await bad({ PropertyName: 'cf_999999', Operator: 'eq', Value: 'x' })).status).toBe(400);
    expect((await list('?$orderby=cf_999999 asc')).status).toBe(400);
    // Another association's list knows none of these fields.
    const other = await list('', { ColumnsToShow: ['DisplayName', key('Chapter')] }, otherAdmin);
    expect(other.status).toBe(400);
  });

  it('leaves a deleted contact out, and a deleted field out of the columns', async () => {
    const tmp = await admin.post(`${base}/contactSave`, {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Pat',
      LastName: 'Temp',
    });
    const id = tmp.json().Data.ContactId;
    await admin.put(`/api/custom-fields/values/Contact/${id}`, {
      Values: { [String(f.Chapter)]: 'North' },
    });
    const filter = { Id: 9999, Criteria: [{ PropertyName: key('Chapter'), Operator: 'eq', Value: 'North' }] };
    expect(names(await list(`?$orderby=${key('Chapter')} asc`, filter))).toContain('Temp');
    expect((await admin.delete(`${base}/${id}`)).statusCode).toBe(200);
    const after = await list(`?$orderby=${key('Chapter')} asc`, filter);
    expect(names(after)).not.toContain('Temp');
    expect(after.TotalRecordAvailable).toBe(2);
    const gone = await define({ Name: 'Gone soon', CustomFieldDataTypeId: T.Text });
    expect((await list('')).ListViewItems.map((c) => c.field)).toContain(`cf_${gone}`);
    expect((await admin.delete(`/api/custom-fields/${gone}`)).statusCode).toBe(200);
    expect((await list('')).ListViewItems.map((c) => c.field)).not.toContain(`cf_${gone}`);
  });

  it('gives a single custom filter the total of the records it keeps (counted from the value index)', async () => {
    const criteria: Record<string, unknown>[] = [
      { PropertyName: key('Chapter'), Operator: 'eq', Value: 'North' },
      { PropertyName: key('Chapter'), Operator: 'ne', Value: 'North' },
      { PropertyName: key('Chapter'), Operator: 'in', Value: ['South', 'East'] },
      { PropertyName: key('Chapter'), Operator: 'isNotEmpty' },
      { PropertyName: key('Chapter'), Operator: 'isEmpty' },
      { PropertyName: key('Chapter'), Operator: 'in', Value: [] },
      { PropertyName: key('Certified'), Operator: 'between', Value: '2019-01-01', Value2: '2022-01-01' },
      { PropertyName: key('Years'), Operator: 'ge', Value: 7 },
      { PropertyName: key('Pledge'), Operator: 'lt', Value: 50 },
      { PropertyName: key('Diet'), Operator: 'contains', Value: 'veg' },
      { PropertyName: key('Interests'), Operator: 'in', Value: ['Books', 'Birds'] },
      { PropertyName: key('Interests'), Operator: 'contains', Value: ['Boats', 'Birds'] },
      { PropertyName: key('Consent'), Operator: 'eq', Value: 'no' },
    ];
    for (const c of criteria) {
      const body = { Id: 9999, Criteria: [c] };
      // The truth: every record the filter keeps, read from the contacts row by row.
      const all = await list('?$top=1000', body);
      expect(all.status, JSON.stringify(c)).toBe(200);
      for (const sort of ['', `&$orderby=${key('Certified')} desc`]) {
        const page = await list(`?$top=1${sort}`, body);
        expect(page.TotalRecordAvailable, JSON.stringify(c)).toBe(all.Results.length);
      }
    }
    expect((await list('?$top=1', { Id: 9999, Criteria: [criteria[0]] })).TotalRecordAvailable).toBe(2);
    // A multi-choice answer changed, emptied and given again: the kept counts of its sets follow it.
    const total = async (Operator: string, Value: string[]) =>
      (await list('?$top=1', { Id: 9999, Criteria: [{ PropertyName: key('Interests'), Operator, Value }] }))
        .TotalRecordAvailable;
    const interests = (Value: unknown) =>
      admin.put(`/api/custom-fields/values/Contact/${ids.Davis}`, {
        Values: { [String(f.Interests)]: Value },
      });
    expect((await interests(['Books', 'Boats'])).statusCode).toBe(200);
    expect(await total('in', ['Books'])).toBe(2);
    expect(await total('contains', ['Boats', 'Books'])).toBe(1);
    expect(await total('in', ['Birds'])).toBe(1);
    expect((await interests([])).statusCode).toBe(200);
    expect(await total('in', ['Books', 'Boats', 'Birds'])).toBe(2);
    expect((await interests(['Birds'])).statusCode).toBe(200);
    expect(await total('in', ['Birds'])).toBe(2);
    expect(await total('in', ['Books', 'Birds'])).toBe(3);
    // Another association counts none of ours.
    const theirs = await list('?$top=1', { Id: 9999, Criteria: [criteria[0]] }, otherAdmin);
    expect(theirs.status).toBe(400);
  });

  it('searches and sorts by a custom field together', async () => {
    const res = await list(`?$orderby=${key('Chapter')} desc`, {
      SearchText: 'Pat',
      ColumnsToShow: ['DisplayName', key('Chapter')],
    });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Clark', 'Adams', 'Davis', 'Baker', 'Evans']);
  });

  it('exports the custom columns as their text', async () => {
    const res = await admin.post(
      `${base}/contactData?$skip=0&$top=${EXPORT_TOP}&$orderby=${key('Certified')} asc`,
      {
        Id: 9999,
        Criteria: [{ PropertyName: key('Chapter'), Operator: 'isNotEmpty' }],
        ColumnsToShow: [
          'LastName',
          key('Chapter'),
          key('Certified'),
          key('Pledge'),
          key('Interests'),
          key('Consent'),
        ],
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as ListResponse).PendingDownloadFileId;
    await ctx.app.worker.drain(t.tenant.id);
    let ready = await admin.get(`/api/files/ready/${id}`);
    for (let i = 0; i < 50 && ready.statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await ctx.app.worker.drain(t.tenant.id);
      ready = await admin.get(`/api/files/ready/${id}`);
    }
    const file = await admin.post(`/api/files/download/${id}`);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('Id,Last name,Chapter,Certified on,Pledge,Interests,Photo consent');
    expect(lines.slice(1).map((l: string) => l.split(',').slice(1).join(','))).toEqual([
      'Baker,North,2019-01-15,100.00,Books,No',
      'Adams,South,2021-05-01,25.00,Boats; Birds,Yes',
      'Clark,East,2023-11-30,,,',
      'Davis,North,,,Birds,',
    ]);
  });

  it('keeps a saved sort by a custom field in the table settings, and clears one by a field that is gone', async () => {
    const save = (columnName: string) =>
      admin.post('/api/settings/TableSettings', {
        ScreenName: 'contacts.contacts',
        Sort: { columnName, direction: 'desc' },
        Columns: [{ Name: key('Certified'), Visible: true, Mode: 0, Order: 0 }],
      });
    const kept = await save(key('Certified'));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({
      InvalidSort: false,
      Settings: { Sort: { columnName: key('Certified') } },
    });
    const loaded = (await admin.get('/api/settings/TableSettings/contacts.contacts')).json();
    expect(loaded).toMatchObject({
      InvalidSort: false,
      Settings: { Sort: { columnName: key('Certified') } },
    });
    const gone = await save('cf_999999');
    expect(gone.json()).toMatchObject({ InvalidSort: true, Settings: { Sort: null } });
  });
});
