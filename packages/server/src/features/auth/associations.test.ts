import { addMembership } from '@guildhall/db/seed/factories';
import { type Association, needsAssociationChoice } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, cookieOf, seedTenant, signIn, type TestContext, testApp } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp();
});
afterAll(() => ctx.close());

describe('several associations per person', () => {
  it('lists them, switches without signing in again, and shows nothing of one in the other', async () => {
    const a = await seedTenant(ctx.database);
    const b = await seedTenant(ctx.database);
    const stranger = await seedTenant(ctx.database);
    await addMembership(ctx.database.db, b.tenant.id, a.staff.id, 'admin');
    const { cookie, me } = await signIn(ctx.app, a.staff);
    expect(me.tenant.id).toBe(a.tenant.id);
    const inA = client(ctx.app, cookie);
    const saved = await inA.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Only',
      LastName: 'InA',
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const list = await inA.get('/api/auth/associations');
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .map((x: { tenantId: string; role: string; current: boolean }) => [x.tenantId, x.role, x.current])
        .sort(),
    ).toEqual(
      [
        [a.tenant.id, 'staff', true],
        [b.tenant.id, 'admin', false],
      ].sort(),
    );

    // Not one of theirs: the same answer as an association that does not exist.
    expect((await inA.post(`/api/auth/associations/${stranger.tenant.id}/switch`)).statusCode).toBe(404);

    const switched = await inA.post(`/api/auth/associations/${b.tenant.id}/switch`);
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().tenant.id).toBe(b.tenant.id);
    expect(switched.json().role).toBe('admin');
    // The old association's session is gone; the new one sees only the new association.
    expect((await inA.get('/api/auth/me')).statusCode).toBe(401);
    const inB = client(ctx.app, cookieOf(switched));
    const contacts = await inB.post('/api/contacts/contacts/contactData?$top=50&$skip=0', {
      SearchText: 'InA',
    });
    expect(contacts.statusCode, contacts.body).toBe(200);
    expect(contacts.json().TotalRecordAvailable).toBe(0);
    const back = await inB.post(`/api/auth/associations/${a.tenant.id}/switch`);
    expect(back.statusCode).toBe(200);
    const againA = client(ctx.app, cookieOf(back));
    const seen = await againA.post('/api/contacts/contacts/contactData?$top=50&$skip=0', {
      SearchText: 'InA',
    });
    expect(seen.json().TotalRecordAvailable).toBe(1);
    // Switching back ended the second session too.
    expect((await client(ctx.app, cookieOf(switched)).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('opens the association the person used last at the next sign-in; the chooser only when none is remembered', async () => {
    const a = await seedTenant(ctx.database);
    const b = await seedTenant(ctx.database);
    await addMembership(ctx.database.db, b.tenant.id, a.staff.id, 'admin');
    const first = await signIn(ctx.app, a.staff);
    // Nothing remembered yet: the oldest opens, and the web asks which.
    expect(first.me.tenant.id).toBe(a.tenant.id);
    const listed = (
      await client(ctx.app, first.cookie).get('/api/auth/associations')
    ).json() as Association[];
    expect(listed.every((x) => !x.lastUsed)).toBe(true);
    expect(needsAssociationChoice(listed)).toBe(true);

    const chose = await client(ctx.app, first.cookie).post(`/api/auth/associations/${b.tenant.id}/switch`);
    expect(chose.statusCode, chose.body).toBe(200);
    await client(ctx.app, cookieOf(chose)).post('/api/auth/logout');

    const next = await signIn(ctx.app, a.staff);
    expect(next.me.tenant.id).toBe(b.tenant.id);
    const now = (await client(ctx.app, next.cookie).get('/api/auth/associations')).json() as Association[];
    expect(now.find((x) => x.current)).toMatchObject({ tenantId: b.tenant.id, lastUsed: true });
    expect(needsAssociationChoice(now)).toBe(false);

    // Choosing the one already open is remembered too (the chooser switches to it).
    const stay = await client(ctx.app, next.cookie).post(`/api/auth/associations/${a.tenant.id}/switch`);
    expect(stay.statusCode).toBe(200);
    expect((await signIn(ctx.app, a.staff)).me.tenant.id).toBe(a.tenant.id);
  });
});
