/**
 * Search documents follow a field's definition (decision 0111): when staff make a field searchable or not, publish
 * it in the directory or not, make it staff-only, rename or delete one of its choices, change its type or delete
 * it, the records' global-search documents (staff's and the directory's) are rewritten: a hit appears or
 * disappears accordingly. With more records than the app rewrites at once (here 1), a background job does it.
 */
import { jobs, withTenantTx } from '@guildhall/db';
import { type SearchAnswer, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { SEARCH_REFRESH_JOB } from './custom-fields.search.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let admin: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
const people: number[] = [];

type Api = ReturnType<typeof client>;
async function define(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await admin.post('/api/custom-fields', { Entity: 'Contact', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function change(field: Record<string, unknown>, patch: Record<string, unknown>) {
  const res = await admin.put(`/api/custom-fields/${field.CustomFieldId}`, { ...field, ...patch });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>;
}
async function save(id: number, Values: Record<string, unknown>) {
  const res = await admin.put(`/api/custom-fields/values/Contact/${id}`, { Values });
  expect(res.statusCode, res.body).toBe(200);
}
/** The records found, once the queued rewrites have run. */
async function found(c: Api, area: 'backoffice' | 'mic', q: string): Promise<number[]> {
  await ctx.app.worker.drain(t.tenant.id);
  const res = await c.get(`/api/search/global/${area}/${encodeURIComponent(q.toLowerCase())}?v=2`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SearchAnswer).Records.map((r) => Number(r.Id)).sort((a, b) => a - b);
}
async function directory(q: string): Promise<number[]> {
  await ctx.app.worker.drain(t.tenant.id);
  const res = await member.get(`/api/mic/Contact/DirectoryContacts?search=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Results.map((r: { DirectoryContactId: number }) => r.DirectoryContactId);
}
async function queuedRewrites(): Promise<number> {
  const rows = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
    tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.tenantId, t.tenant.id), eq(jobs.kind, SEARCH_REFRESH_JOB))),
  );
  return rows.length;
}

beforeAll(async () => {
  ctx = await testApp({ searchRefreshInlineLimit: 1 });
  t = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  for (const name of ['Alder', 'Birch', 'Cedar']) {
    const res = await admin.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: name,
      LastName: 'Tree',
      IsListed: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    people.push(res.json().Data.ContactId);
  }
});
afterAll(() => ctx.close());

describe('search documents follow the definition of a custom field', () => {
  it('a text field made searchable, published, staff-only and deleted: its hits follow (rewritten by a job)', async () => {
    const [a, b] = people as [number, number];
    let motto = await define({ Name: 'Motto', CustomFieldDataTypeId: T.Text, Visibility: 'memberRead' });
    await save(a, { [motto.CustomFieldId as number]: 'Quillwhistle forever' });
    await save(b, { [motto.CustomFieldId as number]: 'Quillwhistle always' });
    expect(await found(admin, 'backoffice', 'quillwhistle')).toEqual([]);

    motto = await change(motto, { Searchable: true });
    // Two records have a value, more than the app rewrites at once: a job did it.
    expect(await queuedRewrites()).toBe(1);
    expect(await found(admin, 'backoffice', 'quillwhistle')).toEqual([a, b]);
    // Not published: members find nothing by it, in global search or the directory.
    expect(await found(member, 'mic', 'quillwhistle')).toEqual([]);
    expect(await directory('quillwhistle')).toEqual([]);

    motto = await change(motto, { InDirectory: true });
    expect(await found(member, 'mic', 'quillwhistle')).toEqual([a, b]);
    expect(await directory('quillwhistle')).toEqual([a, b]);
    const card = await member.get(`/api/mic/Contact/DirectoryContact/${a}`);
    expect(card.json().CustomFields).toContainEqual({ Name: 'Motto', Value: 'Quillwhistle forever' });

    // Renamed: the directory shows the new name; the hits stay.
    motto = await change(motto, { Name: 'Family motto' });
    const renamed = await member.get(`/api/mic/Contact/DirectoryContact/${a}`);
    expect(renamed.json().CustomFields).toContainEqual({
      Name: 'Family motto',
      Value: 'Quillwhistle forever',
    });
    expect(await found(member, 'mic', 'quillwhistle')).toEqual([a, b]);

    // Made staff-only: gone from the members' documents and the directory, staff still find it.
    motto = await change(motto, { Visibility: 'staff' });
    expect(await found(member, 'mic', 'quillwhistle')).toEqual([]);
    expect(await directory('quillwhistle')).toEqual([]);
    expect(await found(admin, 'backoffice', 'quillwhistle')).toEqual([a, b]);

    // Not searchable any more, then searchable again, then deleted.
    motto = await change(motto, { Searchable: false });
    expect(await found(admin, 'backoffice', 'quillwhistle')).toEqual([]);
    motto = await change(motto, { Searchable: true });
    expect(await found(admin, 'backoffice', 'quillwhistle')).toEqual([a, b]);
    expect((await admin.delete(`/api/custom-fields/${motto.CustomFieldId}`)).statusCode).toBe(200);
    expect(await found(admin, 'backoffice', 'quillwhistle')).toEqual([]);
    // A change the documents do not read (the help text) queues nothing.
    const before = await queuedRewrites();
    const other = await define({ Name: 'Other', CustomFieldDataTypeId: T.Text, Searchable: true });
    await save(a, { [other.CustomFieldId as number]: 'x' });
    await save(b, { [other.CustomFieldId as number]: 'y' });
    await change(other, { HelpText: 'Anything' });
    expect(await queuedRewrites()).toBe(before);
  });

  it('a searchable dropdown: a renamed choice is found by its new name, a deleted one by neither (at once)', async () => {
    const c = people[2] as number;
    let guild = await define({
      Name: 'Guild',
      CustomFieldDataTypeId: T.Dropdown,
      Searchable: true,
      InDirectory: true,
      Visibility: 'memberRead',
      SelectListItems: [
        { Id: -1, Name: 'Tinsmiths' },
        { Id: -2, Name: 'Glaziers' },
      ],
    });
    await save(c, { [guild.CustomFieldId as number]: 'Tinsmiths' });
    expect(await found(admin, 'backoffice', 'tinsmiths')).toEqual([c]);
    expect(await found(member, 'mic', 'tinsmiths')).toEqual([c]);
    const jobsBefore = await queuedRewrites();

    const items = guild.SelectListItems as { Id: number; Name: string }[];
    guild = await change(guild, {
      SelectListItems: items.map((i) => (i.Name === 'Tinsmiths' ? { ...i, Name: 'Pewterers' } : i)),
    });
    expect(await found(admin, 'backoffice', 'pewterers')).toEqual([c]);
    expect(await found(member, 'mic', 'pewterers')).toEqual([c]);
    expect(await found(admin, 'backoffice', 'tinsmiths')).toEqual([]);

    // The choice deleted (left out of the list): the value no longer finds the record.
    guild = await change(guild, {
      SelectListItems: (guild.SelectListItems as { Name: string }[]).filter((i) => i.Name !== 'Pewterers'),
    });
    expect(await found(admin, 'backoffice', 'pewterers')).toEqual([]);
    // One record: rewritten in the change's own transaction, no job.
    expect(await queuedRewrites()).toBe(jobsBefore);
  });

  it('a type change that makes a text field a number drops its text from the documents', async () => {
    const c = people[2] as number;
    const code = await define({ Name: 'Lodge code', CustomFieldDataTypeId: T.Text, Searchable: true });
    await save(c, { [code.CustomFieldId as number]: 'Lodgezeta' });
    expect(await found(admin, 'backoffice', 'lodgezeta')).toEqual([c]);
    const applied = await admin.post(`/api/custom-fields/${code.CustomFieldId}/type-change`, {
      CustomFieldDataTypeId: T.Number,
      Confirm: true,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(await found(admin, 'backoffice', 'lodgezeta')).toEqual([]);
  });
});
