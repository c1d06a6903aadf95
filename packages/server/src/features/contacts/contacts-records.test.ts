/**
 * Contacts' records kept whole: merge loses nothing of the duplicate, the duplicate check catches the same name and
 * postal code, new contacts are numbered per association (race-free), the member directory lists what the
 * association publishes only.
 */
import { withTenantTx } from '@guildhall/db';
import { mergeConfirmation, type SearchAnswer } from '@guildhall/shared';
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
const get = async (id: unknown) => (await api.post(`${base}/contactGet`, { id })).json() as Model;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
});
afterAll(async () => {
  await ctx?.close();
});

describe('merge', () => {
  it('keeps the duplicate’s notes, its differing email and address, and audits the notes', async () => {
    const william = await create(api, {
      FirstName: 'William',
      LastName: 'Adams',
      Email: 'william@adams.example',
      City: 'Boston',
      Notes: 'Board member since 2019.',
    });
    const bill = await create(api, {
      FirstName: 'Bill',
      LastName: 'Adams',
      Email: 'bill@adams.example',
      City: 'Cambridge',
      PostalCode: '02139',
      Notes: 'Prefers phone calls after 5 pm.',
    });
    const res = await api.post(`${base}/merge`, {
      KeepContactId: william.ContactId,
      MergeContactId: bill.ContactId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const kept = await get(william.ContactId);
    expect(kept.Notes).toContain('Board member since 2019.');
    expect(kept.Notes).toContain('Prefers phone calls after 5 pm.');
    expect(kept.Notes).toContain(`From Adams, Bill (${bill.AccountNumber})`);
    expect(kept.Notes).toContain('City: Cambridge');
    expect(kept).toMatchObject({ Email: 'william@adams.example', City: 'Boston', PostalCode: '02139' });
    const entries = await api.post(`/api/contacts/entries/entryData`, {
      Criteria: [{ PropertyName: 'ContactId', Operator: 'eq', Value: william.ContactId }],
    });
    expect(entries.body).toContain('bill@adams.example');
    const rows = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`select before, after from audit_log where action = 'merge' and entity_id = ${String(william.ContactId)}`,
      ),
    );
    const audit = (rows as unknown as { rows: { before: Model; after: Model }[] }).rows[0];
    if (!audit) throw new Error('no merge audit row');
    expect((audit.before.merged as Model).Notes).toBe('Prefers phone calls after 5 pm.');
    expect((audit.after.kept as Model).Notes).toContain('Prefers phone calls after 5 pm.');
    expect(
      mergeConfirmation(
        { DisplayName: kept.DisplayName, AccountNumber: kept.AccountNumber },
        { DisplayName: 'Adams, Bill', AccountNumber: bill.AccountNumber },
      ),
    ).toBe(`Adams, William (${william.AccountNumber}) will absorb Adams, Bill (${bill.AccountNumber})`);
  });
});

describe('phones, websites and countries', () => {
  it('keeps an international number with its country code and extension, and shows it in its own format', async () => {
    const c = await create(api, {
      FirstName: 'Gwen',
      LastName: 'Holloway',
      Phone: '+44 20 7946 0958 ext. 12',
      CountryCode: 'United Kingdom',
      IsListed: true,
      PublishedFields: 2,
    });
    expect(c).toMatchObject({ Phone: '+442079460958 x12', CountryCode: 'GB' });
    const dir = await member.get(`/api/mic/Contact/DirectoryContact/${c.ContactId}`);
    expect(dir.json()).toMatchObject({ Phone: '+44 20 7946 0958 ext. 12' });
    const na = await create(api, { FirstName: 'Nora', LastName: 'Ames', Phone: '(312) 555-0100 x7' });
    expect(na.Phone).toBe('3125550100 x7');
    const entry = await api.post('/api/contacts/entries/entrySave', {
      ContactId: c.ContactId,
      Value: '+33 1 42 68 53 00',
    });
    expect(entry.statusCode, entry.body).toBe(200);
    expect(entry.json().Data).toMatchObject({ CommType: 'phone', Value: '+33142685300' });
  });

  it('refuses an incomplete phone, letters in a phone, a website that is no address and an unknown country', async () => {
    const c = await create(api, { FirstName: 'Kept', LastName: 'Number', Phone: '3125550100' });
    const cases: [Model, string, RegExp][] = [
      [{ Phone: '555-1234' }, 'Phone', /10 digits/],
      [{ Phone: 'call after five' }, 'Phone', /digits/],
      [{ Phone: '+44 20 79' }, 'Phone', /country code/],
      [{ Website: 'not a url' }, 'Website', /web address/],
      [{ CountryCode: 'Atlantis' }, 'CountryCode', /two-letter code/],
    ];
    for (const [change, field, message] of cases) {
      const res = await api.post(`${base}/contactSave`, { ...c, ...change });
      expect(res.statusCode, `${JSON.stringify(change)} ${res.body}`).toBe(400);
      expect(res.json().errors[field]?.join(' ')).toMatch(message);
    }
    // Nothing was erased by the refused saves.
    expect(await get(c.ContactId)).toMatchObject({ Phone: '3125550100', Website: null, CountryCode: null });
    const inline = await api.post(`${base}/contactInlineEdit/${c.ContactId}`, { Phone: 'abc' });
    expect(inline.statusCode).toBe(400);
    expect((await get(c.ContactId)).Phone).toBe('3125550100');
  });
});

describe('related contacts', () => {
  it('shows each link on both contacts, by name and from each one’s side', async () => {
    const org = await create(api, { ContactType: 'organization', OrganizationName: 'Relations Widgets' });
    const person = await create(api, { FirstName: 'Rita', LastName: 'Related' });
    const link = await api.post('/api/contacts/links/linkSave', {
      ContactId: person.ContactId,
      RelatedContactId: org.ContactId,
      LinkType: 'employeeOf',
    });
    expect(link.statusCode, link.body).toBe(200);
    const mine = await api.get(`${base}/${person.ContactId}/relations`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual([
      {
        LinkId: link.json().Data.LinkId,
        LinkType: 'employeeOf',
        Relation: 'Employee of',
        OtherContactId: org.ContactId,
        OtherName: `Relations Widgets (${org.AccountNumber})`,
      },
    ]);
    const theirs = await api.get(`${base}/${org.ContactId}/relations`);
    expect(theirs.json()).toMatchObject([
      {
        Relation: 'Employer of',
        OtherContactId: person.ContactId,
        OtherName: `Related, Rita (${person.AccountNumber})`,
      },
    ]);
    expect((await apiOther.get(`${base}/${org.ContactId}/relations`)).statusCode).toBe(404);
    expect((await api.delete(`/api/contacts/links/${link.json().Data.LinkId}`)).statusCode).toBe(200);
    expect((await api.get(`${base}/${org.ContactId}/relations`)).json()).toEqual([]);
  });
});

describe('contact lookup', () => {
  it('tells namesakes apart by account number and city, never by internal id', async () => {
    await create(api, { FirstName: 'Lookup', LastName: 'Twin', City: 'Ghent' });
    await create(api, { FirstName: 'Lookup', LastName: 'Twin', City: 'Bruges' });
    const res = await api.get(`${base}/contactLookup?search=twin`);
    expect(res.statusCode, res.body).toBe(200);
    const options = res.json() as { Name: string; ExtraData: { AccountNumber: string; City: string } }[];
    expect(options.map((o) => o.ExtraData.City).sort()).toEqual(['Bruges', 'Ghent']);
    for (const o of options) expect(o.ExtraData.AccountNumber).toMatch(/^A\d{7}$/);
  });
});

describe('duplicate check', () => {
  it('catches the same individual at the same postal code whatever organisation or spacing', async () => {
    await create(api, {
      FirstName: 'Emma',
      LastName: 'Allen',
      OrganizationName: 'Allen Widgets',
      PostalCode: 'sw1a 1aa',
    });
    const ask = await api.post(`${base}/contactSave`, {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'emma',
      LastName: 'ALLEN',
      PostalCode: 'SW1A1AA',
    });
    expect(ask.statusCode, ask.body).toBe(422);
    expect(ask.json()).toMatchObject({ class: 'ErrorValidation', Action: 2, NoCancelsSave: true });
    expect(ask.json().Message).toMatch(/Allen, Emma \(A\d{7}\), same name and postal code/);
    expect(ask.json().Message).not.toContain('#');
    // Another tenant's Emma Allen is not a duplicate.
    expect(
      (
        await apiOther.post(`${base}/contactSave`, {
          ContactType: 'individual',
          Status: 'active',
          FirstName: 'Emma',
          LastName: 'Allen',
          PostalCode: 'SW1A 1AA',
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('account numbers', () => {
  it('numbers new contacts per association after the highest number given, skipping one typed by hand', async () => {
    const fresh = await seedTenant(ctx.database);
    const c = client(ctx.app, (await signIn(ctx.app, fresh.staff)).cookie);
    const typed = await create(c, { LastName: 'Typed', AccountNumber: 'A0000041' });
    expect(typed.AccountNumber).toBe('A0000041');
    const first = await create(c, { LastName: 'First' });
    expect(first.AccountNumber).toBe('A0000042');
    await create(c, { LastName: 'Hand', AccountNumber: 'A0000043' });
    expect((await create(c, { LastName: 'Second' })).AccountNumber).toBe('A0000044');
    // Another association keeps its own count.
    const elsewhere = await seedTenant(ctx.database);
    const e = client(ctx.app, (await signIn(ctx.app, elsewhere.staff)).cookie);
    expect((await create(e, { LastName: 'Elsewhere' })).AccountNumber).toBe('A0000001');
  });

  it('gives parallel creates distinct numbers', async () => {
    const fresh = await seedTenant(ctx.database);
    const c = client(ctx.app, (await signIn(ctx.app, fresh.staff)).cookie);
    const saved = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(c, { FirstName: `P${i}`, LastName: 'Parallel' })),
    );
    const numbers = saved.map((s) => s.AccountNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => `A${String(i + 1).padStart(7, '0')}`));
  });
});

describe('member directory', () => {
  it('lists active listed members only, then what the association chooses to publish', async () => {
    const mk = (LastName: string, Status: string) =>
      create(api, { FirstName: 'Dir', LastName, Status, IsListed: true, PostalCode: `D-${LastName}` });
    const active = await mk('Activeperson', 'active');
    const lapsed = await mk('Lapsedperson', 'lapsed');
    const prospect = await mk('Prospectperson', 'prospect');
    const names = async () =>
      ((await member.get('/api/mic/Contact/DirectoryContacts?$top=200')).json().Results as Model[]).map(
        (r) => r.DisplayName,
      );
    const found = async (q: string) =>
      ((await member.get(`/api/search/global/mic/${q}?v=2`)).json() as SearchAnswer).Records.map((h) => h.Id);
    expect(await names()).toContain('Dir Activeperson');
    expect(await names()).not.toContain('Dir Lapsedperson');
    expect(await names()).not.toContain('Dir Prospectperson');
    expect((await member.get(`/api/mic/Contact/DirectoryContact/${lapsed.ContactId}`)).statusCode).toBe(404);
    expect(await found('lapsedperson')).toEqual([]);
    expect(await found('activeperson')).toEqual([String(active.ContactId)]);

    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const current = (await admin.post('/api/settings/tenantSettings/tenantSettingsGet', {})).json() as Model;
    expect(current.DirectoryStatuses).toEqual(['active']);
    const saved = await admin.post('/api/settings/tenantSettings/tenantSettingsSave', {
      ...current,
      DirectoryStatuses: ['active', 'lapsed'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await names()).toContain('Dir Lapsedperson');
    expect(await names()).not.toContain('Dir Prospectperson');
    expect((await member.get(`/api/mic/Contact/DirectoryContact/${lapsed.ContactId}`)).statusCode).toBe(200);
    expect(await found('lapsedperson')).toEqual([String(lapsed.ContactId)]);
    expect(await found('prospectperson')).toEqual([]);
    expect((await member.get(`/api/mic/Contact/DirectoryContact/${prospect.ContactId}`)).statusCode).toBe(
      404,
    );
  });
});
