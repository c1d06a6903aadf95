/** Contacts on the generic layer, duplicate check, entries, counters, search, directory, own profile and merge. */
import { withTenantTx } from '@guildhall/db';
import { EXPORT_TOP, type ListResponse, type SearchAnswer } from '@guildhall/shared';
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
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
const base = '/api/contacts/contacts';

type Model = Record<string, unknown>;
async function create(c: ReturnType<typeof client>, model: Model): Promise<Model> {
  const res = await c.post(`${base}/contactSave`, { ContactType: 'individual', Status: 'active', ...model });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}
async function list(c: ReturnType<typeof client>, query: string, body: unknown = {}): Promise<ListResponse> {
  const res = await c.post(`${base}/contactData${query}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListResponse;
}
async function search(c: ReturnType<typeof client>, area: string, q: string): Promise<SearchAnswer> {
  const res = await c.get(`/api/search/global/${area}/${encodeURIComponent(q.toLowerCase())}?v=2`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SearchAnswer;
}

let ada: Model;
let bob: Model;
let acme: Model;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  acme = await create(api, {
    ContactType: 'organization',
    OrganizationName: 'Acmé Widgets',
    City: 'Lyon',
    IsListed: true,
    PublishedFields: 16,
  });
  ada = await create(api, {
    FirstName: 'Ada',
    LastName: 'Lovelace',
    Email: 'ada@example.org',
    Phone: '555.123.4567',
    Website: 'ada.example.org',
    City: 'London',
    StateProvince: 'LDN',
    PostalCode: 'N1 9GU',
    AccountNumber: 'ACC-1001',
    IsListed: true,
    PublishedFields: 16 | 32,
    Notes: 'staff-only note',
  });
  bob = await create(api, {
    FirstName: 'Bob',
    LastName: 'Zeller',
    Status: 'prospect',
    Email: 'bob.secret@example.org',
    City: 'Zürich',
    AccountNumber: 'ACC-2002',
    IsListed: false,
  });
  for (const [first, last, status] of [
    ['Carla', 'Müller', 'inactive'],
    ['Dan', 'Lovell', 'active'],
    ['Eve', 'Lovelace-Smith', 'active'],
  ] as const)
    await create(api, { FirstName: first, LastName: last, Status: status, IsListed: true });
  const link = await api.post('/api/contacts/links/linkSave', {
    ContactId: ada.ContactId,
    RelatedContactId: acme.ContactId,
    LinkType: 'employeeOf',
  });
  expect(link.statusCode, link.body).toBe(200);
  await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
    tx.execute(
      sql`update contacts set user_id = ${t.member.id} where contact_id = ${ada.ContactId as number}`,
    ),
  );
});
afterAll(() => ctx.close());

describe('contacts on the generic layer', () => {
  it('saves with formatted phone digits, the website prefix and a display name', () => {
    expect(ada).toMatchObject({
      Phone: '5551234567',
      Website: 'http://ada.example.org',
      DisplayName: 'Lovelace, Ada',
    });
  });

  it('refuses an invalid email with the shared rule', async () => {
    const res = await api.post(`${base}/contactSave`, {
      ContactType: 'individual',
      Status: 'active',
      LastName: 'X',
      Email: 'not-an-email',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.Email).toBeDefined();
  });

  it('sorts, filters, uses named and advanced filters, with exact totals', async () => {
    const all = await list(api, '?$orderby=DisplayName asc');
    expect(all.TotalRecordAvailable).toBe(6);
    expect(all.Results.map((r) => r.DisplayName)).toEqual([
      'Acmé Widgets',
      'Lovelace, Ada',
      'Lovelace-Smith, Eve',
      'Lovell, Dan',
      'Müller, Carla',
      'Zeller, Bob',
    ]);
    const desc = await list(api, '?$orderby=DisplayName desc&$top=2&$skip=1');
    expect(desc.Results.map((r) => r.DisplayName)).toEqual(['Müller, Carla', 'Lovell, Dan']);
    expect(desc.TotalRecordAvailable).toBe(6);
    const active = await list(api, '', { Id: 1 });
    expect(active.TotalRecordAvailable).toBe(4);
    const adv = await list(api, '', {
      Id: 9999,
      Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'prospect' }],
    });
    expect(adv.Results.map((r) => r.DisplayName)).toEqual(['Zeller, Bob']);
    expect(adv.TotalRecordAvailable).toBe(1);
    const two = await list(api, '', {
      Id: 9999,
      Criteria: [
        { PropertyName: 'Status', Operator: 'eq', Value: 'active' },
        { PropertyName: 'LastName', Operator: 'startsWith', Value: 'Love' },
      ],
    });
    expect(two.TotalRecordAvailable).toBe(3);
    const listed = await list(api, '', { Id: 4 });
    expect(listed.TotalRecordAvailable).toBe(5);
    const searched = await list(api, '?$search=lovel');
    expect(searched.TotalRecordAvailable).toBe(3);
    // The search box uses the global search index: accents folded, every word, any field staff search by.
    const folded = await list(api, '', { SearchText: 'MULLER' });
    expect(folded.Results.map((r) => r.DisplayName)).toEqual(['Müller, Carla']);
    expect((await list(api, '', { SearchText: 'ada london' })).Results.map((r) => r.DisplayName)).toEqual([
      'Lovelace, Ada',
    ]);
    expect((await list(api, '', { SearchText: 'zz%_zz' })).TotalRecordAvailable).toBe(0);
    expect((await api.post(`${base}/contactData?$orderby=Notes asc`, {})).statusCode).toBe(400);
    expect(
      (
        await api.post(`${base}/contactData`, {
          Id: 9999,
          Criteria: [{ PropertyName: 'Notes', Operator: 'eq', Value: 'x' }],
        })
      ).statusCode,
    ).toBe(400);
  });

  it('keeps the counted totals exact through update, inline edit and delete', async () => {
    const tmp = await create(api, { FirstName: 'Tim', LastName: 'Temp', Status: 'prospect' });
    expect((await list(api, '', { Id: 2 })).TotalRecordAvailable).toBe(2);
    const edit = await api.post(`${base}/contactInlineEdit/${tmp.ContactId}`, { Status: 'active' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await list(api, '', { Id: 2 })).TotalRecordAvailable).toBe(1);
    expect((await list(api, '', { Id: 1 })).TotalRecordAvailable).toBe(5);
    expect((await api.delete(`${base}/${tmp.ContactId}`)).statusCode).toBe(200);
    expect((await list(api, '', { Id: 1 })).TotalRecordAvailable).toBe(4);
    expect((await list(api, '')).TotalRecordAvailable).toBe(6);
    expect((await list(apiOther, '')).TotalRecordAvailable).toBe(0);
  });

  it('reads deep pages through their keys with the same rows and order', async () => {
    const rows = Array.from(
      { length: 1010 },
      (_, i) => `('${t.tenant.id}', 'Deep, P${String(i).padStart(4, '0')}', 'Deep')`,
    );
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql.raw(`insert into contacts (tenant_id, display_name, last_name) values ${rows.join(',')}`),
      ),
    );
    const deep = await list(api, '?$skip=1003&$top=3&$orderby=DisplayName asc');
    expect(deep.Results.map((r) => r.DisplayName)).toEqual(['Deep, P1002', 'Deep, P1003', 'Deep, P1004']);
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`delete from contacts where last_name = 'Deep'`),
    );
  });

  it('exports the filtered list through the job', async () => {
    const res = await api.post(`${base}/contactData?$skip=0&$top=${EXPORT_TOP}&$orderby=DisplayName asc`, {
      Id: 1,
      ColumnsToShow: ['DisplayName', 'Status'],
    });
    const id = (res.json() as ListResponse).PendingDownloadFileId;
    expect(id).toEqual(expect.any(String));
    let ready = await api.get(`/api/files/ready/${id}`);
    for (let i = 0; i < 50 && ready.statusCode !== 200; i++) {
      await ctx.app.worker.drain(t.tenant.id);
      await new Promise((r) => setTimeout(r, 50));
      ready = await api.get(`/api/files/ready/${id}`);
    }
    expect(ready.statusCode).toBe(200);
    const file = await api.post(`/api/files/download/${id}`);
    const lines = file.body.trim().split('\n');
    expect(lines[0]).toBe('Id,Name,Status');
    expect(file.body).toContain('"Lovelace, Ada",active');
    expect(file.body).not.toContain('Zeller');
    expect(lines).toHaveLength(5);
  });
});

describe('duplicate check on save', () => {
  it('asks YesNo for the same email, then saves on Yes and not on No', async () => {
    const model = {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Ada',
      LastName: 'King',
      Email: 'ADA@example.org',
    };
    const ask = await api.post(`${base}/contactSave`, model);
    expect(ask.statusCode).toBe(422);
    expect(ask.json()).toMatchObject({ class: 'ErrorValidation', Action: 2 });
    expect(ask.json().Message).toContain('Lovelace, Ada');
    expect((await api.post(`${base}/contactSave`, { ...model, Answer: 'No' })).statusCode).toBe(409);
    const yes = await api.post(`${base}/contactSave`, { ...model, Answer: 'Yes' });
    expect(yes.statusCode, yes.body).toBe(200);
    // Editing the saved duplicate without changing its identity asks nothing again.
    const again = await api.post(`${base}/contactSave`, { ...yes.json().Data, City: 'Bath' });
    expect(again.statusCode, again.body).toBe(200);
    expect((await api.delete(`${base}/${yes.json().Data.ContactId}`)).statusCode).toBe(200);
  });

  it('asks for the same name and postal code', async () => {
    const res = await api.post(`${base}/contactSave`, {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'ada',
      LastName: 'LOVELACE',
      PostalCode: 'N1 9GU',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().Action).toBe(2);
  });

  it('another tenant is never told about our contacts', async () => {
    const res = await apiOther.post(`${base}/contactSave`, {
      ContactType: 'individual',
      Status: 'active',
      LastName: 'Other',
      Email: 'ada@example.org',
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('contact-info entries', () => {
  it('detects the type, formats phones, prefixes websites, validates emails', async () => {
    const save = (Value: string) =>
      api.post('/api/contacts/entries/entrySave', { ContactId: bob.ContactId, Value });
    expect((await save('(555) 987-6543')).json().Data).toMatchObject({
      CommType: 'phone',
      Value: '5559876543',
    });
    expect((await save('bob.example.com')).json().Data).toMatchObject({
      CommType: 'website',
      Value: 'http://bob.example.com',
    });
    expect((await save('bob.work@example.com')).json().Data).toMatchObject({ CommType: 'email' });
    expect((await save('hello there')).statusCode).toBe(400);
    const foreign = await apiOther.post('/api/contacts/entries/entrySave', {
      ContactId: bob.ContactId,
      Value: 'x@y.org',
    });
    expect(foreign.statusCode).toBe(400);
    const entries = await api.post('/api/contacts/entries/entryData', {
      Id: 9999,
      Criteria: [{ PropertyName: 'ContactId', Operator: 'eq', Value: bob.ContactId }],
    });
    expect(entries.json().TotalRecordAvailable).toBe(3);
    // The entry is searchable by staff at once (same transaction).
    const hits = await search(api, 'backoffice', 'bob.work');
    expect(hits.Records.map((h) => h.Id)).toContain(String(bob.ContactId));
  });
});

describe('global search', () => {
  it('ranks an exact name first, then prefixes, then substrings; matches accents folded and partial words', async () => {
    const r = await search(api, 'backoffice', 'ada lovelace');
    expect(r.Records[0]).toMatchObject({
      Title: 'Ada Lovelace',
      Type: 'Contact',
      Id: String(ada.ContactId),
      City: 'London',
      StateProvince: 'LDN',
      Status: 'active',
      ContactType: 'individual',
      AccountNumber: 'ACC-1001',
      RelatedTo: 'Acmé Widgets',
    });
    expect(r.Hits).toEqual(r.Records);
    const love = await search(api, 'backoffice', 'lovel');
    expect(love.Records.map((h) => h.Title)).toEqual(
      expect.arrayContaining(['Ada Lovelace', 'Dan Lovell', 'Eve Lovelace-Smith']),
    );
    expect((await search(api, 'backoffice', 'acme')).Records[0]?.Title).toBe('Acmé Widgets');
    expect((await search(api, 'backoffice', 'zurich')).Records[0]?.Title).toBe('Bob Zeller');
    expect((await search(api, 'backoffice', 'muller')).Records[0]?.Title).toBe('Carla Müller');
    expect((await search(api, 'backoffice', 'acc-2002')).Records[0]?.Title).toBe('Bob Zeller');
  });

  it('forgives a small typo', async () => {
    const r = await search(api, 'backoffice', 'lovelase');
    expect(r.Records.map((h) => h.Title)).toContain('Ada Lovelace');
  });

  it('members find listed contacts by published fields only, never staff-only fields or unlisted contacts', async () => {
    const r = await search(member, 'mic', 'lovelace');
    const ids = r.Records.map((h) => h.Id);
    expect(ids).toContain(String(ada.ContactId));
    for (const h of r.Records) {
      expect(h.Type).toBe('DirectoryContact');
      expect(h.Status).toBeNull();
      expect(h.AccountNumber).toBeNull();
    }
    expect((await search(member, 'mic', 'zeller')).Records).toEqual([]);
    expect((await search(member, 'mic', 'ada@example')).Records).toEqual([]);
    expect((await search(member, 'mic', 'acc-1001')).Records).toEqual([]);
    expect((await search(member, 'mic', 'staff-only')).Records).toEqual([]);
    expect((await member.get('/api/search/global/backoffice/ada?v=2')).statusCode).toBe(403);
    expect((await search(apiOther, 'backoffice', 'lovelace')).Records).toEqual([]);
  });

  it('answers 401 without a live session, whatever the cookie says', async () => {
    const path = '/api/search/global/backoffice/lovelace?v=2';
    expect((await client(ctx.app, '').get(path)).statusCode).toBe(401);
    expect((await client(ctx.app, `gh_session=${'x'.repeat(43)}`).get(path)).statusCode).toBe(401);
    const session = await signIn(ctx.app, t.staff);
    const c = client(ctx.app, session.cookie);
    expect((await c.get(path)).statusCode).toBe(200);
    expect((await c.post('/api/auth/logout', {})).statusCode).toBeLessThan(300);
    expect((await c.get(path)).statusCode).toBe(401);
  });
});

describe('member directory', () => {
  it('answers published fields of a listed contact only', async () => {
    const res = await member.get(`/api/mic/Contact/DirectoryContact/${ada.ContactId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      DirectoryContactId: ada.ContactId,
      DisplayName: 'Ada Lovelace',
      City: 'London',
      OrganizationName: 'Acmé Widgets',
      Email: null,
      Phone: null,
      PostalCode: null,
    });
    expect(res.body).not.toContain('ACC-1001');
    expect(res.body).not.toContain('staff-only');
    expect((await member.get(`/api/mic/Contact/DirectoryContact/${bob.ContactId}`)).statusCode).toBe(404);
    expect((await api.get(`/api/mic/Contact/DirectoryContact/${ada.ContactId}`)).statusCode).toBe(403);
    const all = await member.get('/api/mic/Contact/DirectoryContacts?$top=50');
    // Listed and active: Carla Müller is listed but inactive, so the directory leaves her out.
    expect(all.json().TotalRecordAvailable).toBe(4);
    expect(all.body).not.toContain('Zeller');
    expect(all.body).not.toContain('Müller');
    const found = await member.get('/api/mic/Contact/DirectoryContacts?search=lovel');
    expect(found.json().Results.map((c: Model) => c.DisplayName)).toEqual([
      'Ada Lovelace',
      'Dan Lovell',
      'Eve Lovelace-Smith',
    ]);
    // Two letters find the words that begin with them (decision 0199): "lo" Lovelace and Lovell, "ve" not them.
    const names = async (search: string) =>
      (await member.get(`/api/mic/Contact/DirectoryContacts?search=${search}`))
        .json()
        .Results.map((c: Model) => c.DisplayName);
    expect(await names('lo')).toEqual(expect.arrayContaining(['Ada Lovelace', 'Dan Lovell']));
    const ve = await names('ve');
    expect(ve).not.toContain('Ada Lovelace');
    expect(ve).not.toContain('Dan Lovell');
  });

  it('lets a member change only their own contact info and what is published', async () => {
    const mine = await member.get('/api/mic/Contact/MyProfile');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ DisplayName: 'Ada Lovelace', Email: 'ada@example.org' });
    expect(mine.body).not.toContain('staff-only');
    expect((await member.post('/api/mic/Contact/MyProfile', { Status: 'inactive' })).statusCode).toBe(400);
    expect((await member.post('/api/mic/Contact/MyProfile', { LastName: 'Byron' })).statusCode).toBe(400);
    const upd = await member.post('/api/mic/Contact/MyProfile', {
      Phone: '5550001111',
      PublishedFields: 16 | 2,
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const pub = await member.get(`/api/mic/Contact/DirectoryContact/${ada.ContactId}`);
    expect(pub.json()).toMatchObject({ Phone: '(555) 000-1111', OrganizationName: null });
    expect((await search(member, 'mic', '5550001111')).Records.map((h) => h.Id)).toEqual([
      String(ada.ContactId),
    ]);
    const staffView = await api.post(`${base}/contactGet`, { id: ada.ContactId });
    expect(staffView.json()).toMatchObject({
      Status: 'active',
      LastName: 'Lovelace',
      Notes: 'staff-only note',
    });
  });
});

describe('merge', () => {
  it('moves entries and links to the kept contact, deletes the other, writes an audit row', async () => {
    const dup = await create(api, {
      FirstName: 'Robert',
      LastName: 'Zeller',
      PostalCode: '8001',
      Phone: '5552223333',
    });
    await api.post('/api/contacts/entries/entrySave', {
      ContactId: dup.ContactId,
      Value: 'robert@zeller.ch',
    });
    const before = (await list(api, '')).TotalRecordAvailable;
    const res = await api.post(`${base}/merge`, {
      KeepContactId: bob.ContactId,
      MergeContactId: dup.ContactId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ContactId: bob.ContactId, MovedEntries: 1 });
    expect((await list(api, '')).TotalRecordAvailable).toBe(before - 1);
    expect((await api.post(`${base}/contactGet`, { id: dup.ContactId })).statusCode).toBe(404);
    const kept = (await api.post(`${base}/contactGet`, { id: bob.ContactId })).json();
    expect(kept).toMatchObject({ Phone: '5552223333', PostalCode: '8001', Email: 'bob.secret@example.org' });
    const hits = await search(api, 'backoffice', 'robert@zeller');
    expect(hits.Records.map((h) => h.Id)).toEqual([String(bob.ContactId)]);
    const audit = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`select count(*)::int as n from audit_log where action = 'merge' and entity_id = ${String(bob.ContactId)}`,
      ),
    );
    expect((audit as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
    expect(
      (await apiOther.post(`${base}/merge`, { KeepContactId: bob.ContactId, MergeContactId: ada.ContactId }))
        .statusCode,
    ).toBe(404);
  });
});
