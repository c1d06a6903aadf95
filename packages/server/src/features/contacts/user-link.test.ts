/** Staff link a contact and a user (sign-in) from either record; the member then edits their own profile. */
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
const base = '/api/contacts/contacts';

async function newContact(LastName: string): Promise<number> {
  const res = await admin.post(`${base}/contactSave`, {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Mo',
    LastName,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data.ContactId;
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
});
afterAll(() => ctx.close());

describe('a contact linked to a user', () => {
  it('links from the contact, reads from both records, moves a link and unlinks', async () => {
    const first = await newContact('First');
    const second = await newContact('Second');
    expect((await admin.get(`/api/contacts/userContact/${t.member.id}`)).json()).toBeNull();
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.get('/api/mic/Contact/MyProfile')).statusCode).not.toBe(200);

    const linked = await admin.put(`${base}/${first}/user`, { UserId: t.member.id });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({
      ContactId: first,
      UserId: t.member.id,
      Username: t.member.username,
    });
    expect((await admin.get(`/api/contacts/userContact/${t.member.id}`)).json()).toMatchObject({
      ContactId: first,
      ContactName: expect.stringContaining('First'),
    });
    const profile = await member.get('/api/mic/Contact/MyProfile');
    expect(profile.statusCode, profile.body).toBe(200);

    // Linking the user to another contact moves the link: one contact per user in an association.
    await admin.put(`${base}/${second}/user`, { UserId: t.member.id });
    expect((await admin.get(`${base}/${first}/user`)).json().UserId).toBeNull();
    expect((await admin.get(`/api/contacts/userContact/${t.member.id}`)).json().ContactId).toBe(second);

    const unlinked = await admin.put(`${base}/${second}/user`, { UserId: null });
    expect(unlinked.json()).toMatchObject({ UserId: null, UserName: null });
    expect((await admin.get(`/api/contacts/userContact/${t.member.id}`)).json()).toBeNull();
  });

  it("refuses another association's user and contact, and a staff member without users.manage", async () => {
    const id = await newContact('Guarded');
    const foreign = await admin.put(`${base}/${id}/user`, { UserId: other.member.id });
    expect(foreign.statusCode).toBe(400);
    expect((await admin.get(`/api/contacts/userContact/${other.member.id}`)).statusCode).toBe(404);
    const otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
    expect((await otherAdmin.put(`${base}/${id}/user`, { UserId: other.member.id })).statusCode).toBe(404);
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    expect((await staff.put(`${base}/${id}/user`, { UserId: t.member.id })).statusCode).toBe(403);
    expect((await staff.get(`${base}/${id}/user`)).statusCode).toBe(200);
  });
});
