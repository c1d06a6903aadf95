/**
 * Custom fields in the contacts CSV import (decision 0111): the upload offers each custom field of contacts as a
 * field a column can fill (a header naming one is mapped to it), the dry run checks every cell by its field's type
 * as a form does (a choice by name, several separated by ";", numbers, currency, dates, yes/no) and rejects the
 * row with the reason, and the commit writes typed values (created and updated contacts) that the list then
 * filters. A field of another association, a file field or a key that is no field is refused.
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
  uploadFile,
} from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let admin: ReturnType<typeof client>;
let cookie: string;
const f = { Chapter: 0, Years: 0, Pledge: 0, Joined: 0, Interests: 0, Consent: 0, Diet: 0, Cv: 0, Theirs: 0 };
let graceId = 0;

async function define(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/api/custom-fields', { Entity: 'Contact', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

async function uploaded(csv: string) {
  const res = await uploadFile(ctx.app, cookie, '/api/contacts/import/upload', csv);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    ImportId: string;
    Fields: { Id: string; Name: string }[];
    Mapping: Record<string, string>;
  };
}

async function finished(id: string): Promise<{ Status: string; Created: number; Updated: number }> {
  for (let i = 0; i < 100; i++) {
    await ctx.app.worker.drain(t.tenant.id);
    const s = (await admin.get(`/api/contacts/import/${id}`)).json();
    if (s.Status === 'done' || s.Status === 'failed') return s;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error('the import did not finish');
}

async function valuesOf(id: number): Promise<Record<string, unknown>> {
  const res = await admin.get(`/api/custom-fields/values/Contact/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Values;
}

async function contactId(lastName: string): Promise<number> {
  const res = await admin.post('/api/contacts/contacts/contactData', {
    Id: 9999,
    Criteria: [{ PropertyName: 'LastName', Operator: 'eq', Value: lastName }],
  });
  const r = res.json() as ListResponse;
  expect(r.Results, res.body).toHaveLength(1);
  return Number(r.Results[0]?.ContactId);
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.admin)).cookie;
  admin = client(ctx.app, cookie);
  const otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
  f.Chapter = await define(admin, {
    Name: 'Chapter',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [
      { Id: -1, Name: 'North' },
      { Id: -2, Name: 'South' },
    ],
  });
  f.Years = await define(admin, { Name: 'Years in trade', CustomFieldDataTypeId: T.Number });
  f.Pledge = await define(admin, { Name: 'Pledge', CustomFieldDataTypeId: T.Currency });
  f.Joined = await define(admin, { Name: 'Joined on', CustomFieldDataTypeId: T.Date });
  f.Interests = await define(admin, {
    Name: 'Interests',
    CustomFieldDataTypeId: T.MultiChoice,
    SelectListItems: [
      { Id: -1, Name: 'Boats' },
      { Id: -2, Name: 'Books' },
      { Id: -3, Name: 'Birds' },
    ],
  });
  f.Consent = await define(admin, { Name: 'Photo consent', CustomFieldDataTypeId: T.Checkbox });
  f.Diet = await define(admin, { Name: 'Diet', CustomFieldDataTypeId: T.Text, Required: true });
  f.Cv = await define(admin, { Name: 'CV', CustomFieldDataTypeId: T.FileUpload });
  f.Theirs = await define(otherAdmin, { Name: 'Theirs', CustomFieldDataTypeId: T.Text });
  const grace = await admin.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Grace',
    LastName: 'Hopper',
    Email: 'grace@navy.example.org',
  });
  expect(grace.statusCode, grace.body).toBe(200);
  graceId = grace.json().Data.ContactId;
  const saved = await admin.put(`/api/custom-fields/values/Contact/${graceId}`, {
    Values: { [f.Diet]: 'Vegan', [f.Years]: 40 },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(() => ctx.close());

const csv = [
  'Name,Email,Chapter,Years,Pledge,Joined,Interests,Consent,Food',
  'Alan Turing,alan@example.org,north,12,25.50,2021-05-01,Boats; Birds,yes,Vegetarian',
  'Grace Hopper,grace@navy.example.org,South,,,,,,',
  'Ada Lovelace,ada@example.org,West,many,lots,2021-02-30,Boats; Cars,perhaps,',
  'Bob Nobody,bob@example.org,,,,,,,',
].join('\n');

describe('custom fields in the contacts CSV import', () => {
  it('offers the custom fields of contacts to map a column to, a header naming one mapped to it', async () => {
    const u = await uploaded(csv);
    const ids = u.Fields.map((x) => x.Id);
    for (const id of [f.Chapter, f.Years, f.Pledge, f.Joined, f.Interests, f.Consent, f.Diet])
      expect(ids).toContain(`cf_${id}`);
    // A file is an upload, not a cell; another association's field is not this one's.
    expect(ids).not.toContain(`cf_${f.Cv}`);
    expect(u.Fields.map((x) => x.Name)).not.toContain('Theirs');
    expect(u.Mapping).toMatchObject({ FullName: 'Name', Email: 'Email', [`cf_${f.Chapter}`]: 'Chapter' });
  });

  it('dry run checks every custom cell by its type and rejects the row with the reasons; writes nothing', async () => {
    const u = await uploaded(csv);
    const Mapping = {
      ...u.Mapping,
      [`cf_${f.Chapter}`]: 'Chapter',
      [`cf_${f.Years}`]: 'Years',
      [`cf_${f.Pledge}`]: 'Pledge',
      [`cf_${f.Joined}`]: 'Joined',
      [`cf_${f.Interests}`]: 'Interests',
      [`cf_${f.Consent}`]: 'Consent',
      [`cf_${f.Diet}`]: 'Food',
    };
    const res = await admin.post('/api/contacts/import/dryRun', { ImportId: u.ImportId, Mapping });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ Total: 4, Create: 2, Update: 1, Reject: 1 });
    const ada = d.Rows.find((r: { Name: string }) => r.Name === 'Ada Lovelace');
    expect(ada.Action).toBe('reject');
    const reasons = ada.Reasons.join(' | ');
    expect(reasons).toContain('Chapter');
    expect(reasons).toContain('Years in trade');
    expect(reasons).toContain('Pledge');
    expect(reasons).toContain('Joined on');
    expect(reasons).toContain('Interests');
    expect(reasons).toContain('Photo consent');
    expect(ada.Reasons).toHaveLength(6);
    // Required is the form's business: an empty cell leaves the value as it is.
    expect(d.Rows.find((r: { Name: string }) => r.Name === 'Bob Nobody').Action).toBe('create');
    const list = await admin.post('/api/contacts/contacts/contactData', {
      Id: 9999,
      Criteria: [{ PropertyName: 'LastName', Operator: 'eq', Value: 'Turing' }],
    });
    expect(list.json().TotalRecordAvailable).toBe(0);

    // The rejected rows' file gives the same reasons.
    const rejected = await admin.post('/api/contacts/import/rejected', { ImportId: u.ImportId, Mapping });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.body).toContain('Ada Lovelace');
    expect(rejected.body).toContain('Years in trade');
  });

  it('commit writes typed values for created and updated contacts, keeping values the file leaves empty', async () => {
    const u = await uploaded(csv);
    const Mapping = {
      ...u.Mapping,
      [`cf_${f.Years}`]: 'Years',
      [`cf_${f.Pledge}`]: 'Pledge',
      [`cf_${f.Joined}`]: 'Joined',
      [`cf_${f.Interests}`]: 'Interests',
      [`cf_${f.Consent}`]: 'Consent',
      [`cf_${f.Diet}`]: 'Food',
    };
    const res = await admin.post('/api/contacts/import/commit', { ImportId: u.ImportId, Mapping });
    expect(res.statusCode, res.body).toBe(202);
    const s = await finished(u.ImportId);
    expect(s).toMatchObject({ Status: 'done', Created: 2, Updated: 1 });
    const chapters = (await admin.get('/api/custom-fields?entity=Contact')).json();
    const choice = (field: number, name: string) =>
      chapters
        .find((x: { CustomFieldId: number }) => x.CustomFieldId === field)
        .SelectListItems.find((c: { Name: string }) => c.Name === name).Id;
    const alan = await contactId('Turing');
    expect(await valuesOf(alan)).toEqual({
      [f.Chapter]: choice(f.Chapter, 'North'),
      [f.Years]: 12,
      [f.Pledge]: 2550,
      [f.Joined]: '2021-05-01',
      [f.Interests]: [choice(f.Interests, 'Boats'), choice(f.Interests, 'Birds')],
      [f.Consent]: true,
      [f.Diet]: 'Vegetarian',
    });
    // Grace is updated (matched by email): the file's South, her own values for the cells it leaves empty.
    expect(await valuesOf(graceId)).toEqual({
      [f.Chapter]: choice(f.Chapter, 'South'),
      [f.Diet]: 'Vegan',
      [f.Years]: 40,
    });
    expect(await valuesOf(await contactId('Nobody'))).toEqual({});
    // The list filters by what the import wrote.
    const list = await admin.post('/api/contacts/contacts/contactData', {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${f.Years}`, Operator: 'ge', Value: 12 }],
    });
    const names = (list.json() as ListResponse).Results.map((r) => String(r.DisplayName));
    expect(names.some((n) => n.startsWith('Turing'))).toBe(true);
    expect(names.some((n) => n.startsWith('Hopper'))).toBe(true);
  });

  it('refuses a mapping to a field contacts do not have (a file, a field that does not exist) or a key that is no field', async () => {
    const u = await uploaded(csv);
    for (const key of [`cf_${f.Cv}`, 'cf_99999']) {
      const res = await admin.post('/api/contacts/import/dryRun', {
        ImportId: u.ImportId,
        Mapping: { FullName: 'Name', [key]: 'Food' },
      });
      expect(res.statusCode, `${key}: ${res.body}`).toBe(400);
      expect(res.json().message).toContain(key);
    }
    const res = await admin.post('/api/contacts/import/dryRun', {
      ImportId: u.ImportId,
      Mapping: { FullName: 'Name', Shoe: 'Food' },
    });
    expect(res.statusCode).toBe(400);
  });
});
