/**
 * Custom fields in reports and the query tool (decisions 0111, 0112): a report over contacts may show a custom field
 * as a column (choices by name), filter and sort by it, preview and save it, and run it again after the field is
 * deleted (the column is left out); grouping or totalling by a custom field is refused with a message. The query
 * tool reads the values through its views (`gh_query.custom_field_values`, a choice by its name too), under the
 * caller's association only.
 */
import { type ReportRunAnswer, type SavedReport, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
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
let other: TenantWithUsers;
let admin: ReturnType<typeof client>;
let otherAdmin: ReturnType<typeof client>;
let adminCookie = '';
let otherCookie = '';
const f = { Chapter: 0, Years: 0, Scratch: 0 };

async function define(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/api/custom-fields', { Entity: 'Contact', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

async function contact(api: ReturnType<typeof client>, LastName: string, Values: Record<string, unknown>) {
  const res = await api.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Pat',
    LastName,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().Data.ContactId as number;
  const saved = await api.put(`/api/custom-fields/values/Contact/${id}`, { Values });
  expect(saved.statusCode, saved.body).toBe(200);
  return id;
}

const definition = (patch: Record<string, unknown> = {}) => ({
  resource: 'contacts',
  columns: ['DisplayName', `cf_${f.Chapter}`, `cf_${f.Years}`],
  criteria: [{ PropertyName: `cf_${f.Years}`, Operator: 'ge', Value: 5 }],
  sort: { field: `cf_${f.Years}`, direction: 'desc' },
  groupBy: [],
  aggregates: [],
  chart: null,
  ...patch,
});

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  adminCookie = (await signIn(ctx.app, t.admin)).cookie;
  admin = client(ctx.app, adminCookie);
  otherCookie = (await signIn(ctx.app, other.admin)).cookie;
  otherAdmin = client(ctx.app, otherCookie);
  f.Chapter = await define(admin, {
    Name: 'Chapter',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [
      { Id: -1, Name: 'North' },
      { Id: -2, Name: 'South' },
    ],
  });
  f.Years = await define(admin, { Name: 'Years in trade', CustomFieldDataTypeId: T.Number });
  f.Scratch = await define(admin, { Name: 'Scratch', CustomFieldDataTypeId: T.Text });
  await contact(admin, 'Adams', { [f.Chapter]: 'South', [f.Years]: 12, [f.Scratch]: 'a' });
  await contact(admin, 'Baker', { [f.Chapter]: 'North', [f.Years]: 3 });
  await contact(admin, 'Clark', { [f.Years]: 30 });
  await contact(admin, 'Davis', {});
  await define(otherAdmin, { Name: 'Theirs', CustomFieldDataTypeId: T.Text });
});
afterAll(() => ctx.close());

describe('custom fields in reports', () => {
  it('offers the builder the custom fields of a list: columns, filters, sorts', async () => {
    const res = await admin.get('/api/reports/fields/contacts');
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json();
    expect(a.Fields[`cf_${f.Chapter}`]).toMatchObject({ label: 'Chapter' });
    expect(a.Fields[`cf_${f.Chapter}`].options.map((o: { Name: string }) => o.Name)).toEqual([
      'North',
      'South',
    ]);
    expect(a.Filterable).toContain(`cf_${f.Years}`);
    expect(a.Sortable).toContain(`cf_${f.Years}`);
    expect(Object.values(a.Fields).map((x) => (x as { label: string }).label)).not.toContain('Theirs');
  });

  it('previews a report with custom columns, filtered and sorted by a custom field', async () => {
    const res = await admin.post('/api/reports/preview?format=json', definition());
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json() as ReportRunAnswer;
    expect(a.Columns.map((c) => c.title)).toEqual(['Name', 'Chapter', 'Years in trade']);
    expect(a.Rows).toEqual([
      { DisplayName: 'Clark, Pat', [`cf_${f.Chapter}`]: null, [`cf_${f.Years}`]: 30 },
      { DisplayName: 'Adams, Pat', [`cf_${f.Chapter}`]: 'South', [`cf_${f.Years}`]: 12 },
    ]);
    expect(a.TotalRecordAvailable).toBe(2);
    const csv = await admin.post('/api/reports/preview?format=csv', definition());
    expect(csv.body).toContain('Adams, Pat",South,12');
  });

  it('saves it and runs it; a deleted field is left out of the saved report; grouping by one is refused', async () => {
    const created = await admin.post('/api/reports/saved', {
      Title: 'Veterans by chapter',
      Description: '',
      Definition: definition({ columns: ['DisplayName', `cf_${f.Chapter}`, `cf_${f.Scratch}`] }),
    });
    expect(created.statusCode, created.body).toBe(200);
    const saved = created.json() as SavedReport;
    const run = await admin.post(`/api/reportExecution/run/${saved.ReportId}?format=json`, {});
    expect(run.statusCode, run.body).toBe(200);
    expect((run.json() as ReportRunAnswer).Rows.map((r) => r[`cf_${f.Scratch}`])).toEqual([null, 'a']);
    expect((await admin.delete(`/api/custom-fields/${f.Scratch}`)).statusCode).toBe(200);
    const again = await admin.post(`/api/reportExecution/run/${saved.ReportId}?format=json`, {});
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as ReportRunAnswer).Columns.map((c) => c.title)).toEqual(['Name', 'Chapter']);

    const grouped = await admin.post(
      '/api/reports/preview?format=json',
      definition({ groupBy: [{ field: `cf_${f.Chapter}`, bucket: 'value' }] }),
    );
    expect(grouped.statusCode).toBe(400);
    expect(grouped.json().message).toContain('Chapter');
    // Another association has no such field: its report naming it is refused.
    const theirs = await otherAdmin.post('/api/reports/preview?format=json', definition());
    expect(theirs.statusCode).toBe(400);
  });
});

describe('custom fields in the query tool', () => {
  const post = (url: string, fields: Record<string, string>, cookie: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const runSql = async (api: ReturnType<typeof client>, cookie: string, title: string, sql: string) => {
    const saved = await api.post('/api/dev/queries/querySave', { Title: title, GroupName: 'Ours', Sql: sql });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = (await api.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    return post(
      '/a/dev/QuerytoolRun',
      { QueryName: list.find((q) => q.title === title)?.name ?? '' },
      cookie,
    );
  };

  it('reads custom values beside the contact, a choice by its name, of its own association only', async () => {
    const sql = `select c.display_name, v.field_name, v.choice_name, v.number_value
      from gh_query.contacts c join gh_query.custom_field_values v on v.entity = 'Contact' and v.record_id = c.contact_id
      order by c.display_name, v.field_name`;
    const res = await runSql(admin, adminCookie, 'Custom values', sql);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Adams, Pat');
    expect(res.body).toContain('South');
    expect(res.body).toContain('Years in trade');
    expect(res.body).toContain('Rows 1–5.');
    const theirs = await runSql(otherAdmin, otherCookie, 'Their values', sql);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.body).not.toContain('Adams');
    const fields = await runSql(
      admin,
      adminCookie,
      'Fields',
      `select name, data_type_id from gh_query.custom_fields where entity = 'Contact' order by name`,
    );
    expect(fields.body).toContain('Chapter');
    expect(fields.body).not.toContain('Theirs');
  });
});
