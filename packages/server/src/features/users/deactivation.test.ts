import { addMembership } from '@guildhall/db/seed/factories';
import { MESSAGES } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, seedTenant, signIn, type TestContext, testApp } from '../../../test/helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp();
});
afterAll(() => ctx.close());

const login = (username: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('deactivating a user in one association', () => {
  it('ends their sessions there only, keeps them out of it until reactivated, and audits both', async () => {
    const a = await seedTenant(ctx.database);
    const b = await seedTenant(ctx.database);
    await addMembership(ctx.database.db, b.tenant.id, a.staff.id, 'staff');
    const admin = client(ctx.app, (await signIn(ctx.app, a.admin)).cookie);

    // The person is signed in to both associations (two sessions).
    const inA = client(ctx.app, (await signIn(ctx.app, a.staff)).cookie);
    const other = client(ctx.app, (await signIn(ctx.app, a.staff)).cookie);
    const switched = await other.post(`/api/auth/associations/${b.tenant.id}/switch`);
    expect(switched.statusCode, switched.body).toBe(200);
    const inB = client(ctx.app, switched.cookies.map((c) => `${c.name}=${c.value}`).join('; '));
    expect((await inA.get('/api/auth/me')).statusCode).toBe(200);

    const off = await admin.post(`/api/users/${a.staff.id}/deactivate`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ id: a.staff.id, isActive: false });
    // Their session in A ends now; the one in B goes on.
    expect((await inA.get('/api/auth/me')).statusCode).toBe(401);
    expect((await inB.get('/api/auth/me')).statusCode).toBe(200);
    // The users list says so.
    const row = (await admin.get('/api/setup/users'))
      .json()
      .Results.find((u: { UserId: number }) => u.UserId === a.staff.id);
    expect(row.IsActive).toBe(false);
    // The switcher no longer offers A, and switching there is refused.
    const mine = (await inB.get('/api/auth/associations')).json() as { tenantId: string }[];
    expect(mine.map((x) => x.tenantId)).toEqual([b.tenant.id]);
    expect((await inB.post(`/api/auth/associations/${a.tenant.id}/switch`)).statusCode).toBe(404);
    // Signing in opens B, the association they are still active in.
    const again = await login(a.staff.username, a.staff.password);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().tenant.id).toBe(b.tenant.id);

    const on = await admin.post(`/api/users/${a.staff.id}/reactivate`);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().isActive).toBe(true);
    const back = await inB.post(`/api/auth/associations/${a.tenant.id}/switch`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().tenant.id).toBe(a.tenant.id);

    const audit = (await admin.get('/api/audit')).json() as {
      action: string;
      entityId: string;
      actorUsername: string;
    }[];
    for (const action of ['deactivate', 'reactivate']) {
      const entry = audit.find((x) => x.action === action);
      expect(entry, action).toMatchObject({ entityId: String(a.staff.id), actorUsername: a.admin.username });
    }
  });

  it('says so at sign-in when the person is deactivated in every association', async () => {
    const t = await seedTenant(ctx.database);
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    expect((await admin.post(`/api/users/${t.member.id}/deactivate`)).statusCode).toBe(200);
    const refused = await login(t.member.username, t.member.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.deactivated);
    // A wrong password is still just wrong: nothing tells whether the account exists or is deactivated.
    const wrong = await login(t.member.username, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(MESSAGES.badCredentials);
    // Nobody works as them or sends them a reset link meanwhile; the administrator's own session is kept.
    const impersonate = await admin.post(`/api/auth/impersonate/${t.member.id}`);
    expect(impersonate.statusCode, impersonate.body).toBe(400);
    expect((await admin.post(`/api/users/${t.member.id}/send-password-reset`)).statusCode).toBe(400);
    expect((await admin.get('/api/auth/me')).statusCode).toBe(200);
    expect((await admin.post(`/api/users/${t.member.id}/reactivate`)).statusCode).toBe(200);
    expect((await login(t.member.username, t.member.password)).statusCode).toBe(200);
  });

  it('is for administrators, of their own association, never of themselves', async () => {
    const t = await seedTenant(ctx.database);
    const stranger = await seedTenant(ctx.database);
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    expect((await staff.post(`/api/users/${t.member.id}/deactivate`)).statusCode).toBe(403);
    expect((await admin.post(`/api/users/${stranger.staff.id}/deactivate`)).statusCode).toBe(404);
    const self = await admin.post(`/api/users/${t.admin.id}/deactivate`);
    expect(self.statusCode).toBe(400);
    // The other association's user is untouched.
    expect((await login(stranger.staff.username, stranger.staff.password)).statusCode).toBe(200);
    // Deactivating twice changes nothing more (one audit entry).
    expect((await admin.post(`/api/users/${t.member.id}/deactivate`)).statusCode).toBe(200);
    expect((await admin.post(`/api/users/${t.member.id}/deactivate`)).statusCode).toBe(200);
    const audit = (await admin.get('/api/audit')).json() as { action: string; entityId: string }[];
    expect(audit.filter((x) => x.action === 'deactivate' && x.entityId === String(t.member.id))).toHaveLength(
      1,
    );
  });
});
