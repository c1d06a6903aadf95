/**
 * Custom fields in global search and the member directory (decision 0111): staff find a contact by a searchable
 * text field as soon as its value is saved (and no longer by the old value); members find, in the directory, only
 * by fields published there that members may read, never by a staff-only or unsearchable value; the directory's
 * list and detail show the published fields (a staff-only one never); a deleted contact is found by none.
 */
import { type SearchAnswer, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
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
let member: ReturnType<typeof client>;
let otherAdmin: ReturnType<typeof client>;
const f = { Nickname: 0, Note: 0, Secret: 0, Chapter: 0, Hidden: 0 };
let listed = 0;

async function define(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/api/custom-fields', { Entity: 'Contact', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().CustomFieldId;
}

async function search(c: ReturnType<typeof client>, area: string, q: string): Promise<string[]> {
  const res = await c.get(`/api/search/global/${area}/${encodeURIComponent(q.toLowerCase())}?v=2`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SearchAnswer).Records.map((r) => r.Id);
}

async function save(id: number, Values: Record<string, unknown>, api = admin) {
  const res = await api.put(`/api/custom-fields/values/Contact/${id}`, { Values });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
  const text = { CustomFieldDataTypeId: T.Text };
  f.Nickname = await define(admin, {
    ...text,
    Name: 'Nickname',
    Searchable: true,
    InDirectory: true,
    Visibility: 'memberRead',
  });
  f.Note = await define(admin, { ...text, Name: 'Staff note', Searchable: true, InDirectory: true });
  f.Secret = await define(admin, { ...text, Name: 'Secret word', Visibility: 'memberRead' });
  f.Chapter = await define(admin, {
    Name: 'Chapter',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [{ Id: -1, Name: 'Northshire' }],
    InDirectory: true,
    Visibility: 'memberEdit',
  });
  f.Hidden = await define(admin, { ...text, Name: 'Not published', Visibility: 'memberRead' });
  const res = await admin.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Listed',
    LastName: 'Person',
    IsListed: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  listed = res.json().Data.ContactId;
  await save(listed, {
    [f.Nickname]: 'Zebrafinch',
    [f.Note]: 'Quokkaquest',
    [f.Secret]: 'Wombatword',
    [f.Chapter]: 'Northshire',
    [f.Hidden]: 'Unpublished value',
  });
});
afterAll(() => ctx.close());

describe('custom fields in global search and the directory', () => {
  it('staff find a contact by a searchable text field, members only by one published to them', async () => {
    expect(await search(admin, 'backoffice', 'zebrafinch')).toEqual([String(listed)]);
    expect(await search(admin, 'backoffice', 'quokkaquest')).toEqual([String(listed)]);
    // Not searchable: found by no one.
    expect(await search(admin, 'backoffice', 'wombatword')).toEqual([]);
    // Members: the published, member-readable searchable field, never the staff-only one.
    expect(await search(member, 'mic', 'zebrafinch')).toEqual([String(listed)]);
    expect(await search(member, 'mic', 'quokkaquest')).toEqual([]);
    expect(await search(member, 'mic', 'wombatword')).toEqual([]);
    // The directory's own search box reads the member documents too.
    const dir = await member.get('/api/mic/Contact/DirectoryContacts?search=zebrafinch');
    expect(dir.json().Results.map((r: { DirectoryContactId: number }) => r.DirectoryContactId)).toEqual([
      listed,
    ]);
    const none = await member.get('/api/mic/Contact/DirectoryContacts?search=quokkaquest');
    expect(none.json().TotalRecordAvailable).toBe(0);
    // Another association finds nothing of it.
    expect(await search(otherAdmin, 'backoffice', 'zebrafinch')).toEqual([]);
  });

  it('follows a changed value at once: the new text is found, the old one no longer', async () => {
    await save(listed, { [f.Nickname]: 'Kestrelwing' });
    expect(await search(admin, 'backoffice', 'kestrelwing')).toEqual([String(listed)]);
    expect(await search(member, 'mic', 'kestrelwing')).toEqual([String(listed)]);
    expect(await search(admin, 'backoffice', 'zebrafinch')).toEqual([]);
  });

  it('the directory shows the published fields members may read, in the list and the detail', async () => {
    const expected = [
      { Name: 'Nickname', Value: 'Kestrelwing' },
      { Name: 'Chapter', Value: 'Northshire' },
    ];
    const detail = await member.get(`/api/mic/Contact/DirectoryContact/${listed}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().CustomFields).toEqual(expected);
    const list = await member.get('/api/mic/Contact/DirectoryContacts');
    const card = list
      .json()
      .Results.find((r: { DirectoryContactId: number }) => r.DirectoryContactId === listed);
    expect(card.CustomFields).toEqual(expected);
    expect(JSON.stringify(list.json())).not.toContain('Quokkaquest');
    expect(JSON.stringify(list.json())).not.toContain('Unpublished value');
  });

  it('a deleted contact is found by none of its custom values', async () => {
    expect((await admin.delete(`/api/contacts/contacts/${listed}`)).statusCode).toBe(200);
    expect(await search(admin, 'backoffice', 'kestrelwing')).toEqual([]);
    expect(await search(member, 'mic', 'kestrelwing')).toEqual([]);
  });
});
