import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { rowsOf, withTenantTx } from '@guildhall/db';
import { EXPORT_TOP, type ListResponse, type SaveResponse } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { isDraftExpired } from './resource.service.ts';

let ctx: TestContext;
let a: TenantWithUsers;
let b: TenantWithUsers;
let api: ReturnType<typeof client>;
let apiB: ReturnType<typeof client>;

const base = '/api/setup/samples';
const sample = (over: Record<string, unknown> = {}) => ({
  Name: 'Alpha',
  Description: 'First',
  Quantity: 2,
  Price: 1250,
  IsActive: true,
  StartDate: '3/31/2026',
  HappensAt: '2026-03-31T15:00:00Z',
  StartTime: '09:30',
  Phone: '(312) 555-0100',
  Website: 'example.org',
  Email: 'alpha@example.org',
  Status: 'open',
  Category: 'gold',
  Tags: ['board', 'unknown'],
  Weekdays: 5,
  ScoreRange: { StartValue: 1, EndValue: 5 },
  Period: { Range: 7, StartDate: null, EndDate: null },
  Timezone: 'America/Chicago',
  OwnerUserId: a?.admin.id ?? null,
  Notes: '<p>Hello</p>',
  ...over,
});

async function save(c: ReturnType<typeof client>, body: Record<string, unknown>) {
  return c.post(`${base}/sampleSave`, body);
}

beforeAll(async () => {
  ctx = await testApp();
  a = await seedTenant(ctx.database);
  b = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, a.admin)).cookie);
  apiB = client(ctx.app, (await signIn(ctx.app, b.admin)).cookie);
  const rows: [string, string, number, number, boolean][] = [
    ['Bravo', 'draft', 1, 500, true],
    ['Charlie', 'open', 3, 3000, false],
    ['Delta', 'closed', 0, 100, true],
    ['Echo', 'open', 5, 9000, true],
  ];
  for (const [Name, Status, Quantity, Price, IsActive] of rows) {
    const res = await save(
      api,
      sample({
        Name,
        Status,
        Quantity,
        Price,
        IsActive,
        Answer: 'No',
        Tags: Name === 'Echo' ? ['volunteer'] : ['board'],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => ctx.close());

describe('save and get', () => {
  it('saves every field type through the shared rules, answers "We saved it!", and audits', async () => {
    const res = await save(api, sample());
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as SaveResponse;
    expect(answer.Message).toBe('We saved it!');
    expect(answer.PostActions).toEqual([]);
    expect(res.headers.evt_samplesaved).toBe(String(answer.Data.SampleId));
    const d = answer.Data;
    expect(d).toMatchObject({
      StartDate: '2026-03-31',
      Phone: '3125550100',
      Website: 'http://example.org',
      Tags: ['board'],
      Weekdays: 5,
      Total: 2500,
      Category: 'gold',
      StartTime: '09:30:00',
      IsDeleted: false,
    });
    const got = await api.post(`${base}/sampleGet`, { id: d.SampleId });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ Name: 'Alpha', Period: { Range: 7 } });
    const audit = (await api.get('/api/audit?limit=5')).json() as {
      action: string;
      entity: string;
      entityId: string;
      before: unknown;
      after: unknown;
    }[];
    expect(audit.find((e) => e.entity === 'samples' && e.entityId === String(d.SampleId))).toMatchObject({
      action: 'create',
      before: null,
    });
    const upd = await save(api, { ...d, Description: 'Changed', Answer: 'No' });
    expect(upd.statusCode, upd.body).toBe(200);
    const audit2 = (await api.get('/api/audit?limit=5')).json() as {
      action: string;
      before: { Description: string };
      after: { Description: string };
    }[];
    expect(audit2[0]).toMatchObject({
      action: 'update',
      before: { Description: 'First' },
      after: { Description: 'Changed' },
    });
  });

  it('answers 400 with an errors map from the field declarations', async () => {
    const res = await save(
      api,
      sample({
        Name: '',
        Email: 'nope',
        Status: 'weird',
        Quantity: -1,
        StartDate: '13/45/2026',
        Timezone: 'Mars/Base',
      }),
    );
    expect(res.statusCode).toBe(400);
    const body = res.json() as { message: string; errors: Record<string, string[]> };
    expect(Object.keys(body.errors).sort()).toEqual([
      'Email',
      'Name',
      'Quantity',
      'StartDate',
      'Status',
      'Timezone',
    ]);
    expect(body.errors.Name).toEqual(['Name is required.']);
    expect(body.message).toContain('Name is required.');
  });

  it('answers each ErrorValidation action: Proceed then ForceSave, Error, YesNo then the answer', async () => {
    const proceed = await save(api, sample({ Name: 'Pricey', Price: 2_000_000 }));
    expect(proceed.statusCode).toBe(422);
    expect(proceed.json()).toMatchObject({ class: 'ErrorValidation', Action: 0 });
    expect((await save(api, sample({ Name: 'Pricey', Price: 2_000_000, ForceSave: true }))).statusCode).toBe(
      200,
    );

    const error = await save(api, sample({ Name: 'Shut', Status: 'closed', Quantity: 3 }));
    expect(error.json()).toMatchObject({
      class: 'ErrorValidation',
      Action: 1,
      Message: 'A closed sample cannot have a quantity.',
    });

    const yesNo = await save(api, sample({ Name: 'Sleepy', IsActive: false }));
    expect(yesNo.json()).toMatchObject({ class: 'ErrorValidation', Action: 2 });
    const yes = await save(api, sample({ Name: 'Sleepy', IsActive: false, Answer: 'Yes', Tags: ['notify'] }));
    expect(yes.statusCode).toBe(200);
    const saved = yes.json() as SaveResponse;
    expect(saved.Data.Status).toBe('closed');
    expect(saved.Message).toBe('Saved and closed.');
    expect(saved.PostActions).toEqual([{ Type: 1, Message: 'The board will be told about this sample.' }]);
  });

  it('checks duplicates, recalculates watched fields, saves drafts and edits inline from a JSON string', async () => {
    const dup = await api.post(`${base}/sampleDuplicateCheck`, { Name: 'bravo' });
    expect(dup.json()).toEqual({ IsDuplicate: true, Fields: ['Name'] });
    expect((await save(api, sample({ Name: 'Bravo', Answer: 'No' }))).statusCode).toBe(400);
    expect((await api.post(`${base}/sampleRecalculate`, { Quantity: 3, Price: 200 })).json()).toEqual({
      Total: 600,
    });
    const draft = await api.post(`${base}/sampleSaveDraft`, { Name: 'Half done' });
    expect(draft.statusCode, draft.body).toBe(200);
    const id = (draft.json() as SaveResponse).Data.SampleId;
    const inline = await ctx.app.inject({
      method: 'POST',
      url: `${base}/sampleInlineEdit/${id}`,
      headers: { cookie: (await signIn(ctx.app, a.admin)).cookie, 'content-type': 'application/json' },
      payload: JSON.stringify(JSON.stringify({ Quantity: 4 })),
    });
    expect(inline.statusCode, inline.body).toBe(200);
    expect((inline.json() as SaveResponse).Data.Quantity).toBe(4);
  });

  it("ignores a draft once the tenant's draft duration has passed since its last save", async () => {
    const saved = await api.post(`${base}/sampleSaveDraft`, { Name: 'Stale draft' });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = (saved.json() as SaveResponse).Data.SampleId;
    const names = async () =>
      ((await api.post(`${base}/sampleData?$top=100`, {})).json() as ListResponse).Results.map((r) => r.Name);
    expect(await names()).toContain('Stale draft');
    // The tenant keeps drafts 60 minutes; this one was last saved 61 minutes ago.
    const draftMinutes = (minutes: number) =>
      withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
        tx.execute(
          sql`update tenants set settings = settings || jsonb_build_object('draftDurationMinutes', ${minutes}::int) where id = ${a.tenant.id}`,
        ),
      );
    await draftMinutes(60);
    await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
      tx.execute(sql`update samples set updated_at = now() - interval '61 minutes' where sample_id = ${id}`),
    );
    expect(await names()).not.toContain('Stale draft');
    expect((await api.post(`${base}/sampleGet`, { id })).statusCode).toBe(404);
    // A saved (no longer draft) record never expires.
    await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
      tx.execute(sql`update samples set updated_at = now() - interval '61 minutes' where name = 'Bravo'`),
    );
    expect(await names()).toContain('Bravo');
    await draftMinutes(1440);
    expect(await names()).toContain('Stale draft');
  });

  it('a draft expires strictly after its duration', () => {
    const saved = new Date('2026-11-22T10:00:00Z');
    expect(isDraftExpired(saved, 60, new Date('2026-11-22T11:00:00Z'))).toBe(false);
    expect(isDraftExpired(saved, 60, new Date('2026-11-22T11:00:01Z'))).toBe(true);
  });

  it('refuses to void a record changed since the version the user saw, with the record as it is now', async () => {
    const seen = ((await save(api, sample({ Name: 'Void late', Answer: 'No' }))).json() as SaveResponse).Data;
    const changed = await save(api, { ...seen, Description: 'Changed meanwhile', Answer: 'No' });
    expect(changed.statusCode, changed.body).toBe(200);
    const stale = await api.put(`${base}/${seen.SampleId}?Version=${seen.Version}`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      class: 'ConcurrencyConflict',
      Current: { SampleId: seen.SampleId, Description: 'Changed meanwhile', IsVoided: false },
    });
    const current = stale.json().Current.Version;
    expect((await api.put(`${base}/${seen.SampleId}?Version=${current}`)).json()).toEqual({ Success: true });
  });

  it('deletes and voids by marking IsDeleted, with audit rows; another tenant gets 404', async () => {
    const one = ((await save(api, sample({ Name: 'Doomed', Answer: 'No' }))).json() as SaveResponse).Data
      .SampleId;
    const two = ((await save(api, sample({ Name: 'Voided', Answer: 'No' }))).json() as SaveResponse).Data
      .SampleId;
    expect((await apiB.delete(`${base}/${one}`)).statusCode).toBe(404);
    expect((await apiB.post(`${base}/sampleGet`, { id: one })).statusCode).toBe(404);
    expect((await api.delete(`${base}/${one}?ForceSave=true`)).json()).toEqual({ Success: true });
    expect((await api.put(`${base}/${two}`)).json()).toEqual({ Success: true });
    expect((await api.post(`${base}/sampleGet`, { id: one })).statusCode).toBe(404);
    const audit = (await api.get('/api/audit?limit=3')).json() as {
      action: string;
      entityId: string;
      after: { IsDeleted: boolean; IsVoided: boolean };
    }[];
    expect(audit[0]).toMatchObject({
      action: 'void',
      entityId: String(two),
      after: { IsDeleted: true, IsVoided: true },
    });
    expect(audit[1]).toMatchObject({
      action: 'delete',
      entityId: String(one),
      after: { IsDeleted: true, IsVoided: false },
    });
  });
});

describe('list protocol', () => {
  const names = (r: ListResponse) => r.Results.map((x) => x.Name);

  it('pages and sorts with an exact total, and describes its columns', async () => {
    const res = await api.post(`${base}/sampleData?$skip=0&$top=2&$orderby=Quantity desc`, { Id: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as ListResponse;
    expect(r.TotalRecordAvailable).toBe(2 + (await countOpen()));
    expect(names(r)).toEqual(['Echo', 'Charlie']);
    expect(r.CriteriaItems).toEqual([
      { DisplayName: 'Open', CriteriaDisplayValue: null, PropertyName: null, ShowValueOnTag: false },
    ]);
    expect(r.ListViewItems.find((c) => c.field === 'Email')).toMatchObject({
      show: false,
      defaultHide: true,
    });
    expect(r.ListViewItems.at(-1)).toMatchObject({
      type: 'Actions',
      actions: expect.arrayContaining([
        expect.objectContaining({ key: 'void', showCondition: { field: 'IsVoided', equals: false } }),
      ]),
    });
    const page2 = (await api.get(`${base}?$skip=1&$top=1&$orderby=Name asc`)).json() as ListResponse;
    expect(page2.Results).toHaveLength(1);
    expect(page2.TotalRecordAvailable).toBeGreaterThan(4);
  });

  it('filters with each operator, shows criteria tags, honours ColumnsToShow and search', async () => {
    const run = async (Criteria: unknown[], extra: Record<string, unknown> = {}) => {
      const res = await api.post(`${base}?$orderby=Name`, { Id: 9999, Criteria, ...extra });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ListResponse;
    };
    const names4 = ['Bravo', 'Charlie', 'Delta', 'Echo'];
    const only = (r: ListResponse) => names(r).filter((n) => names4.includes(String(n)));
    expect(only(await run([{ PropertyName: 'Status', Operator: 'eq', Value: 'open' }]))).toEqual([
      'Charlie',
      'Echo',
    ]);
    expect(only(await run([{ PropertyName: 'Status', Operator: 'ne', Value: 'open' }]))).toEqual([
      'Bravo',
      'Delta',
    ]);
    expect(only(await run([{ PropertyName: 'Name', Operator: 'contains', Value: 'harl' }]))).toEqual([
      'Charlie',
    ]);
    expect(only(await run([{ PropertyName: 'Name', Operator: 'startsWith', Value: 'De' }]))).toEqual([
      'Delta',
    ]);
    expect(only(await run([{ PropertyName: 'Price', Operator: 'gt', Value: 3000 }]))).toEqual(['Echo']);
    expect(only(await run([{ PropertyName: 'Price', Operator: 'le', Value: 500 }]))).toEqual([
      'Bravo',
      'Delta',
    ]);
    expect(only(await run([{ PropertyName: 'Quantity', Operator: 'between', Value: 1, Value2: 3 }]))).toEqual(
      ['Bravo', 'Charlie'],
    );
    expect(only(await run([{ PropertyName: 'Status', Operator: 'in', Value: ['draft', 'closed'] }]))).toEqual(
      ['Bravo', 'Delta'],
    );
    expect(only(await run([{ PropertyName: 'IsActive', Operator: 'eq', Value: 'no' }]))).toEqual(['Charlie']);
    expect(only(await run([{ PropertyName: 'Tags', Operator: 'contains', Value: ['volunteer'] }]))).toEqual([
      'Echo',
    ]);
    expect(only(await run([{ PropertyName: 'Weekdays', Operator: 'eq', Value: 4 }]))).toEqual(names4);
    expect(only(await run([{ PropertyName: 'Email', Operator: 'isNotEmpty' }]))).toEqual(names4);
    const tagged = await run([
      { PropertyName: 'Status', Operator: 'eq', Value: 'open' },
      { PropertyName: 'Price', Operator: 'ge', Value: 100 },
    ]);
    expect(tagged.CriteriaItems).toEqual([
      { DisplayName: 'Status', CriteriaDisplayValue: 'Open', PropertyName: 'Status', ShowValueOnTag: true },
      { DisplayName: 'Price', CriteriaDisplayValue: '100', PropertyName: 'Price', ShowValueOnTag: true },
    ]);
    const cols = await run([], { ColumnsToShow: ['Name', 'Price'], SearchText: 'ech' });
    // The row actions' show-condition field travels too, so the client can decide per row, and the record's
    // version, so an inline edit can name it.
    expect(cols.Results).toEqual([
      { SampleId: expect.any(Number), Name: 'Echo', Price: 9000, IsVoided: false, Version: 1 },
    ]);
    expect(cols.ListViewItems.filter((c) => c.show).map((c) => c.field)).toEqual([
      'Name',
      'Price',
      '$actions',
    ]);
    const searched = (await api.get(`${base}?$search=BRAV`)).json() as ListResponse;
    expect(names(searched)).toEqual(['Bravo']);
    // The other tenant sees none of these.
    expect(((await apiB.get(base)).json() as ListResponse).TotalRecordAvailable).toBe(0);
  });

  it('accepts the Variable-Consistency header', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: base,
      headers: { cookie: (await signIn(ctx.app, a.admin)).cookie, 'variable-consistency': 'strong' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers 400, never SQL, for an unknown sort, filter or column', async () => {
    const sort = await api.get(`${base}?$orderby=Notes desc`);
    expect(sort.statusCode).toBe(400);
    expect(sort.json()).toMatchObject({ message: 'The list cannot be sorted by Notes.' });
    expect(
      (await api.get(`${base}?$orderby=${encodeURIComponent('Name; drop table samples')}`)).statusCode,
    ).toBe(400);
    const filter = await api.post(base, {
      Id: 9999,
      Criteria: [{ PropertyName: 'Notes', Operator: 'eq', Value: 'x' }],
    });
    expect(filter.statusCode).toBe(400);
    expect(filter.json()).toMatchObject({ message: 'The list cannot be filtered by Notes.' });
    expect(
      (
        await api.post(base, {
          Id: 9999,
          Criteria: [{ PropertyName: 'tenant_id', Operator: 'eq', Value: 'x' }],
        })
      ).statusCode,
    ).toBe(400);
    expect((await api.post(base, { Id: 42 })).statusCode).toBe(400);
    expect((await api.post(base, { ColumnsToShow: ['Nope'] })).statusCode).toBe(400);
  });

  it('lists the read-only demo resources: users, terms, help texts, and edits the tenant settings', async () => {
    const users = (await api.get('/api/setup/users?$orderby=Username asc')).json() as ListResponse;
    expect(users.TotalRecordAvailable).toBe(3);
    expect(users.Results.map((u) => u.Username)).not.toContain(b.admin.username);
    expect((await api.post('/api/setup/users/userSave', {})).statusCode).toBe(404);
    expect((await api.get('/api/Setup/TermsofUse')).statusCode).toBe(200);
    const help = await api.post('/api/setup/helpTexts/helpTextSave', {
      StateName: 'Samples.List',
      Title: 'Samples',
      Content: 'How to',
    });
    expect(help.statusCode, help.body).toBe(200);
    expect(((await api.get('/api/setup/helpTexts')).json() as ListResponse).Results).toEqual([
      expect.objectContaining({ StateName: 'Samples.List', Title: 'Samples' }),
    ]);
    const settings = await api.post('/api/settings/tenantSettings/tenantSettingsGet', {});
    expect(settings.json()).toMatchObject({ ListPageSize: 50, DefaultTimezone: 'America/Chicago' });
    const saved = await api.post('/api/settings/tenantSettings/tenantSettingsSave', {
      ...(settings.json() as object),
      ListPageSize: 5,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(((await api.get(base)).json() as ListResponse).Results).toHaveLength(5);
    const bad = await api.post('/api/settings/tenantSettings/tenantSettingsSave', {
      ...(settings.json() as object),
      ListPageSize: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys((bad.json() as { errors: object }).errors)).toEqual(['ListPageSize']);
  });
});

async function countOpen(): Promise<number> {
  // Samples saved by the earlier tests with Status open (Alpha and the like) besides Charlie and Echo.
  const r = (await api.post(`${base}?$top=1`, { Id: 2 })).json() as ListResponse;
  return r.TotalRecordAvailable - 2;
}

describe('table settings', () => {
  it('round-trips per user and screen, and clears an invalid saved sort', async () => {
    const settings = {
      ScreenName: 'setup.samples',
      Sort: { columnName: 'Price', direction: 'desc' },
      Columns: [{ Name: 'Name', Visible: true, Mode: 1, Order: 0 }],
    };
    expect((await api.post('/api/settings/TableSettings', settings)).json()).toEqual({
      Settings: settings,
      InvalidSort: false,
    });
    expect((await api.get('/api/settings/TableSettings/setup.samples')).json()).toEqual({
      Settings: settings,
      InvalidSort: false,
    });
    expect((await apiB.get('/api/settings/TableSettings/setup.samples')).json()).toEqual({
      Settings: null,
      InvalidSort: false,
    });
    const invalid = await api.post('/api/settings/TableSettings', {
      ...settings,
      Sort: { columnName: 'Notes', direction: 'asc' },
    });
    expect(invalid.json()).toEqual({ Settings: { ...settings, Sort: null }, InvalidSort: true });
    await api.post('/api/settings/UserWidgetSettings', {
      ScreenName: 'Dashboard',
      Settings: { layout: [{ i: 'a', x: 0 }] },
    });
    expect((await api.get('/api/settings/UserWidgetSettings/Dashboard')).json()).toEqual({
      ScreenName: 'Dashboard',
      Settings: { layout: [{ i: 'a', x: 0 }] },
    });
  });
});

describe('export', () => {
  it('starts only from a POST: a GET with the export size answers 405 and queues nothing', async () => {
    const jobsOfTenant = async () =>
      withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, async (tx) =>
        Number(rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from jobs`))[0]?.n),
      );
    const before = await jobsOfTenant();
    const res = await api.get(`${base}?$skip=0&$top=${EXPORT_TOP}&$orderby=Name asc`);
    expect(res.statusCode, res.body).toBe(405);
    expect(res.json()).toEqual({ message: 'An export starts with POST; GET only reads a page.' });
    expect(await jobsOfTenant()).toBe(before);
    expect((await api.get(`${base}?$skip=0&$top=5`)).statusCode).toBe(200);
  });

  it('starts a job, polls ready, downloads the CSV; another tenant and another user of the association get 404', async () => {
    const res = await api.post(`${base}/sampleData?$skip=0&$top=${EXPORT_TOP}&$orderby=Name asc`, {
      Id: 9999,
      Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'open' }],
      ColumnsToShow: ['Name', 'Price'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as ListResponse).PendingDownloadFileId;
    expect(id).toEqual(expect.any(String));
    await ctx.app.worker.drain();
    let ready = await api.get(`/api/files/ready/${id}`);
    for (let i = 0; i < 50 && ready.statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await ctx.app.worker.drain();
      ready = await api.get(`/api/files/ready/${id}`);
    }
    expect(ready.statusCode).toBe(200);
    expect((await apiB.get(`/api/files/ready/${id}`)).statusCode).toBe(404);
    expect((await apiB.post(`/api/files/download/${id}`)).statusCode).toBe(404);
    // A file is its requester's: another user of the same association does not find it either.
    const colleague = client(ctx.app, (await signIn(ctx.app, a.staff)).cookie);
    expect((await colleague.get(`/api/files/ready/${id}`)).statusCode).toBe(404);
    expect((await colleague.get(`/api/files/download/${id}`)).statusCode).toBe(404);
    const file = await api.post(`/api/files/download/${id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['file-name']).toMatch(/^samples-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.headers['content-disposition']).toContain('attachment; filename="samples-');
    const lines = file.body.trim().split('\n');
    expect(lines[0]).toBe('Id,Name,Price');
    expect(lines.map((l) => l.split(',')[1])).toContain('Echo');
    expect(lines.map((l) => l.split(',')[1])).not.toContain('Bravo');
    // The same file by link (GET, as a file hit of the search downloads), or shown in the browser with open=true.
    const byLink = await api.get(`/api/files/download/${id}`);
    expect(byLink.statusCode).toBe(200);
    expect(byLink.body).toBe(file.body);
    expect(byLink.headers['content-disposition']).toContain('attachment; filename="samples-');
    const opened = await api.get(`/api/files/download/${id}/?open=true`);
    expect(opened.headers['content-disposition']).toContain('inline; filename="samples-');
    expect((await apiB.get(`/api/files/download/${id}`)).statusCode).toBe(404);
    expect((await api.get(`/api/files/download/${id}?open=maybe`)).statusCode).toBe(400);
    // Gone from storage while the database still knows it: 410 with a message, not a 500.
    rmSync(join(ctx.config.dataDir, 'files', a.tenant.id, 'exports', `${id}.csv`));
    const gone = await api.get(`/api/files/download/${id}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toEqual({ message: 'The file is no longer available; export it again.' });
  });
  it('writes every row once across cursor batches, quoting commas, quotes and line breaks', async () => {
    const c = await seedTenant(ctx.database);
    const apiC = client(ctx.app, (await signIn(ctx.app, c.staff)).cookie);
    const n = 4321; // more than two batches of the cursor, and not a multiple of one
    await withTenantTx(ctx.database.db, { tenantId: c.tenant.id }, (tx) =>
      tx.execute(sql`insert into samples (tenant_id, name, price, status)
        select ${c.tenant.id}, case when i % 97 = 0 then 'Row ' || i || ', "quoted"' || chr(10) || 'next line'
                                    else 'Row ' || i end, i, 'open'
          from generate_series(1, ${n}) as i`),
    );
    const res = await apiC.post(`${base}/sampleData?$skip=0&$top=${EXPORT_TOP}&$orderby=Price asc`, {
      ColumnsToShow: ['Name', 'Price'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as ListResponse).PendingDownloadFileId;
    let ready = await apiC.get(`/api/files/ready/${id}`);
    for (let i = 0; i < 100 && ready.statusCode !== 200; i++) {
      await ctx.app.worker.drain();
      await new Promise((r) => setTimeout(r, 50));
      ready = await apiC.get(`/api/files/ready/${id}`);
    }
    expect(ready.statusCode, ready.body).toBe(200);
    const { data } = Papa.parse<string[]>((await apiC.post(`/api/files/download/${id}`)).body.trimEnd());
    expect(data[0]).toEqual(['Id', 'Name', 'Price']);
    const prices = data.slice(1).map((r) => Number(r[2]));
    expect(prices).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(data[97]?.[1]).toBe('Row 97, "quoted"\nnext line');
    expect(data[4321]?.[1]).toBe('Row 4321');
  });

  it('writes each kind of value as text: yes/no, dates, times, lists, money, and nothing for an empty field', async () => {
    const d = await seedTenant(ctx.database);
    const apiD = client(ctx.app, (await signIn(ctx.app, d.admin)).cookie);
    const full = await save(
      apiD,
      sample({ Name: 'Full, "one"', Description: 'a\r\nb', OwnerUserId: d.admin.id }),
    );
    expect(full.statusCode, full.body).toBe(200);
    const bare = await save(apiD, {
      Name: 'Bare',
      Status: 'draft',
      IsActive: false,
      Description: null,
      Tags: [],
    });
    expect(bare.statusCode, bare.body).toBe(200);
    const columns = [
      'Name',
      'Description',
      'IsActive',
      'StartDate',
      'HappensAt',
      'StartTime',
      'Price',
      'Tags',
    ];
    const res = await apiD.post(`${base}/sampleData?$skip=0&$top=${EXPORT_TOP}&$orderby=Name asc`, {
      ColumnsToShow: columns,
    });
    const id = (res.json() as ListResponse).PendingDownloadFileId;
    let ready = await apiD.get(`/api/files/ready/${id}`);
    for (let i = 0; i < 100 && ready.statusCode !== 200; i++) {
      await ctx.app.worker.drain();
      await new Promise((r) => setTimeout(r, 50));
      ready = await apiD.get(`/api/files/ready/${id}`);
    }
    const text = (await apiD.post(`/api/files/download/${id}`)).body;
    const { data } = Papa.parse<string[]>(text.trimEnd());
    expect(data[0]).toEqual([
      'Id',
      'Name',
      'Description',
      'Active',
      'Start date',
      'Happens at',
      'Start time',
      'Price',
      'Tags',
    ]);
    const [bareRow, fullRow] = [data[1], data[2]];
    expect(bareRow?.slice(1)).toEqual(['Bare', '', 'false', '', '', '', '', '[]']);
    expect(fullRow?.slice(1, 4)).toEqual(['Full, "one"', 'a\r\nb', 'true']);
    expect(fullRow?.[4]).toBe('2026-03-31');
    expect(new Date(String(fullRow?.[5]).replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString()).toBe(
      '2026-03-31T15:00:00.000Z',
    );
    expect(fullRow?.[6]).toMatch(/^09:30/);
    expect(fullRow?.[7]).toBe('1250');
    expect(JSON.parse(String(fullRow?.[8]))).toEqual(['board']);
    // Every line ends with a line feed, the file too; quoting only where a field needs it.
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')[1]).toMatch(/^\d+,Bare,,false,/);
  });
});

describe('view templates and reports', () => {
  it('resolves dialog templates by screen key; unknown keys 404', async () => {
    expect(
      (await api.get('/a/ViewTemplates/Index/Setup.ScreenFieldsDescriptionDialog')).json(),
    ).toMatchObject({ Component: 'ScreenFieldsDescriptionDialog' });
    expect((await api.get('/a/ViewTemplates/Index/Reports.Membership')).json()).toMatchObject({
      Component: 'ReportPopup',
    });
    expect((await api.get('/a/ViewTemplates/Reporting')).json()).toMatchObject({ Key: 'Reporting' });
    expect((await api.get('/a/ViewTemplates/Index/Nope.Nothing')).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/a/ViewTemplates/Reporting' })).statusCode).toBe(401);
  });

  it('runs a report page by page with its state in headers, and keeps favourites first', async () => {
    const run = await api.post('/api/reportExecution/run/samples.byPrice?format=json&page=2', {
      Status: 'open',
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.headers.reportcurrentpage).toBe('2');
    expect(run.headers.reportorderby).toBe('Price');
    expect(run.headers.reportdirection).toBe('desc');
    const session = String(run.headers.reportsessionkey);
    const body = run.json() as { Rows: { Price: number }[]; ReportPageCount: number };
    expect(body.Rows.length).toBeLessThanOrEqual(2);
    expect(run.headers.reportpagecount).toBe(String(body.ReportPageCount));
    const asc = await api.post(
      `/api/reportExecution/run/samples.byPrice?page=1&orderby=Price&direction=asc&session=${session}`,
      {},
    );
    expect(asc.headers.reportsessionkey).toBe(session);
    const prices = (asc.json() as { Rows: { Price: number }[] }).Rows.map((r) => r.Price);
    expect(prices).toEqual([...prices].sort((x, y) => x - y));
    expect((await api.post('/api/reportExecution/run/samples.byPrice?orderby=Notes', {})).statusCode).toBe(
      400,
    );
    expect((await api.post('/api/reportExecution/run/nope', {})).statusCode).toBe(404);
    const staff = (await api.post('/api/reportExecution/run/users.staff', {})).json() as { Rows: unknown[] };
    expect(staff.Rows).toHaveLength(2);

    const before = (await api.get('/api/reportExecution/catalogue')).json() as {
      ReportId: string;
      IsFavorite: boolean;
    }[];
    // The fixture's report runs, but the catalogue lists only the association's reports.
    expect(before.map((r) => r.ReportId)).toEqual([
      'contacts.byStatus',
      'deposits.byMonth',
      'events.attendance',
      'events.noShows',
      'events.registrationsByEvent',
      'invoices.byStatus',
      'memberships.lapsedDropped',
      'memberships.byType',
      'memberships.roster',
      'memberships.newMembers',
      'payments.byMethod',
      'events.registrationsByType',
      'memberships.renewalsDue',
      'memberships.retentionByMonth',
      'events.revenue',
      'users.staff',
    ]);
    expect((await api.post('/api/reportExecution/SetReportAsFavorite/users.staff')).json()).toEqual({
      ReportId: 'users.staff',
      IsFavorite: true,
    });
    const after = (await api.get('/api/reportExecution/catalogue')).json() as {
      ReportId: string;
      IsFavorite: boolean;
    }[];
    expect(after[0]).toEqual(expect.objectContaining({ ReportId: 'users.staff', IsFavorite: true }));
    await api.post('/api/reportExecution/RemoveReportFromFavorites/users.staff');
    expect(
      ((await api.get('/api/reportExecution/catalogue')).json() as { IsFavorite: boolean }[]).every(
        (r) => !r.IsFavorite,
      ),
    ).toBe(true);
  });
});
