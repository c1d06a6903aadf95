/**
 * A record's custom values follow the record (decision 0111): a deleted contact loses them in the delete's
 * transaction (one delete, a bulk delete), and a merge leaves the kept contact with its own values, the duplicate's
 * where it had none, and the duplicate's differing ones in its notes. Another association's values stay.
 */
import { withTenantTx } from '@guildhall/db';
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
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
const base = '/api/contacts/contacts';
const f = { Chapter: 0, Years: 0, Diet: 0, OtherText: 0 };
let north = 0;
let south = 0;

async function define(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/api/custom-fields', { Entity: 'Contact', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

async function contact(api: ReturnType<typeof client>, LastName: string, Values: Record<string, unknown>) {
  const res = await api.post(`${base}/contactSave`, {
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

/** The rows of the values table a record has (what a list's filters and counts read). */
async function storedValues(tenant: TenantWithUsers, recordId: number): Promise<number> {
  const res = await withTenantTx(ctx.database.db, { tenantId: tenant.tenant.id }, (tx) =>
    tx.execute(
      sql`select count(*)::int as n from custom_field_values where tenant_id = ${tenant.tenant.id} and record_id = ${recordId}`,
    ),
  );
  return (res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? -1;
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
  f.Chapter = await define(admin, {
    Name: 'Chapter',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [
      { Id: -1, Name: 'North' },
      { Id: -2, Name: 'South' },
    ],
  });
  f.Years = await define(admin, { Name: 'Years in trade', CustomFieldDataTypeId: T.Number });
  f.Diet = await define(admin, { Name: 'Diet', CustomFieldDataTypeId: T.Text });
  const fields = (await admin.get('/api/custom-fields?entity=Contact')).json();
  const chapter = fields.find((x: { CustomFieldId: number }) => x.CustomFieldId === f.Chapter);
  north = chapter.SelectListItems.find((c: { Name: string }) => c.Name === 'North').Id;
  south = chapter.SelectListItems.find((c: { Name: string }) => c.Name === 'South').Id;
  f.OtherText = await define(otherAdmin, { Name: 'Theirs', CustomFieldDataTypeId: T.Text });
});
afterAll(() => ctx.close());

const northFilter = () => ({
  Id: 9999,
  Criteria: [{ PropertyName: `cf_${f.Chapter}`, Operator: 'eq', Value: 'North' }],
});

describe('a record’s custom values follow the record', () => {
  it('drops a deleted contact’s values with the delete; another association’s contact of that id keeps its own', async () => {
    const id = await contact(admin, 'Gone', { [f.Chapter]: 'North', [f.Years]: 4, [f.Diet]: 'Vegan' });
    const theirs = await contact(otherAdmin, 'Theirs', { [f.OtherText]: 'kept' });
    expect(await storedValues(t, id)).toBe(3);
    const before = (await admin.post(`${base}/contactData`, northFilter())).json().TotalRecordAvailable;
    expect((await admin.delete(`${base}/${id}`)).statusCode).toBe(200);
    expect(await storedValues(t, id)).toBe(0);
    expect((await admin.post(`${base}/contactData`, northFilter())).json().TotalRecordAvailable).toBe(
      before - 1,
    );
    expect(await storedValues(other, theirs)).toBe(1);
    expect((await admin.get(`/api/custom-fields/values/Contact/${id}`)).statusCode).toBe(404);
  });

  it('drops the values of every contact a bulk delete removes, and of none it refused', async () => {
    const a = await contact(admin, 'BulkA', { [f.Chapter]: 'South', [f.Years]: 1 });
    const b = await contact(admin, 'BulkB', { [f.Diet]: 'none' });
    const stays = await contact(admin, 'Stays', { [f.Diet]: 'fish' });
    const res = await admin.post(`${base}/contactBulk`, { Action: 'delete', Ids: [a, 999_999, b] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Done).toEqual([String(a), String(b)]);
    expect(await storedValues(t, a)).toBe(0);
    expect(await storedValues(t, b)).toBe(0);
    expect(await storedValues(t, stays)).toBe(1);
    const fields = (await admin.get('/api/custom-fields?entity=Contact')).json();
    expect(fields.find((x: { CustomFieldId: number }) => x.CustomFieldId === f.Years).ValueCount).toBe(0);
  });

  it('on merge the kept contact keeps its values, takes the duplicate’s where it has none, notes the differing ones', async () => {
    const keep = await contact(admin, 'Keeper', { [f.Chapter]: 'North' });
    const dup = await contact(admin, 'Keeper', { [f.Chapter]: 'South', [f.Years]: 9, [f.Diet]: 'Vegan' });
    const res = await admin.post(`${base}/merge`, { KeepContactId: keep, MergeContactId: dup });
    expect(res.statusCode, res.body).toBe(200);
    const kept = (await admin.get(`/api/custom-fields/values/Contact/${keep}`)).json();
    expect(kept.Values).toEqual({ [f.Chapter]: north, [f.Years]: 9, [f.Diet]: 'Vegan' });
    expect(await storedValues(t, dup)).toBe(0);
    const record = (await admin.post(`${base}/contactGet`, { id: keep })).json();
    expect(record.Notes).toContain('merged into this contact:');
    expect(record.Notes).toContain('Chapter: South');
    expect(record.Notes).not.toContain('Years in trade');
    // The list sees the kept contact under its own choice, the duplicate nowhere.
    const souths = await admin.post(`${base}/contactData`, {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${f.Chapter}`, Operator: 'eq', Value: String(south) }],
    });
    expect(souths.json().Results.map((r: { ContactId: number }) => r.ContactId)).not.toContain(dup);
    expect(souths.json().Results.map((r: { ContactId: number }) => r.ContactId)).not.toContain(keep);
  });

  it('a merge of contacts without custom values adds none to the notes', async () => {
    const keep = await contact(admin, 'Plain', {});
    const dup = await contact(admin, 'Plain', {});
    const res = await admin.post(`${base}/merge`, { KeepContactId: keep, MergeContactId: dup });
    expect(res.statusCode, res.body).toBe(200);
    const record = (await admin.post(`${base}/contactGet`, { id: keep })).json();
    expect(record.Notes ?? '').not.toMatch(/Chapter|Years in trade|Diet/);
  });
});
