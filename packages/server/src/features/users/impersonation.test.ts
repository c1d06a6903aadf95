import { createUser, publishTerms } from '@guildhall/db/seed/factories';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  cookieOf,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  unique,
} from '../../../test/helpers.ts';
import { hashToken } from '../../platform/session.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

describe('impersonation', () => {
  it('lets an admin work as a user of the same association, skipping prompts, and come back', async () => {
    const target = await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: unique('imp.'),
      password: 'impersonated-pass-2026',
      role: 'member',
      hasSecurityQuestion: false,
      isRequirePasswordReset: true,
    });
    await publishTerms(ctx.database.db, {
      tenantId: t.tenant.id,
      loginType: 'member',
      title: 'Pending member terms',
    });
    const { cookie } = await signIn(ctx.app, t.admin);
    const res = await client(ctx.app, cookie).post(`/api/auth/impersonate/${target.id}`);
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(me.user.id).toBe(target.id);
    expect(me.area).toBe('member');
    expect(me.impersonation.impersonator.id).toBe(t.admin.id);
    expect(me.pendingPrompts).toEqual({
      terms: [],
      securityQuestion: false,
      passwordReset: false,
      usernameChange: false,
      privacyPolicy: null,
    });
    const as = client(ctx.app, cookieOf(res));
    // Not blocked by the target's pending gates while impersonating.
    expect((await as.get('/api/help/Home')).statusCode).toBe(200);
    // The staff session was replaced.
    expect((await client(ctx.app, cookie).get('/api/auth/me')).statusCode).toBe(401);
    // The target's own password is not changed by the staff member.
    expect(
      (await as.post('/api/auth/change-password', { newPassword: 'staff-chosen-password' })).statusCode,
    ).toBe(403);

    const back = await as.post('/api/auth/impersonate/stop');
    expect(back.statusCode).toBe(200);
    expect(back.json().user.id).toBe(t.admin.id);
    expect(back.json().impersonation).toBeNull();
    expect((await as.get('/api/auth/me')).statusCode).toBe(401);

    const audit = (await client(ctx.app, cookieOf(back)).get('/api/audit')).json();
    const start = audit.find((a: { action: string }) => a.action === 'impersonate-start');
    expect(start.actorUsername).toBe(t.admin.username);
    expect(start.onBehalfOfUsername).toBe(target.username);
  });

  it('keeps both identities in the audit log for changes made while impersonating', async () => {
    const { cookie } = await signIn(ctx.app, t.admin);
    const res = await client(ctx.app, cookie).post(`/api/auth/impersonate/${t.staff.id}`);
    const as = client(ctx.app, cookieOf(res));
    expect(
      (
        await as.post('/api/setup/helpTexts/helpTextSave', {
          StateName: 'Users.List',
          Title: 'Users',
          Content: 'Who works here.',
        })
      ).statusCode,
    ).toBe(200);
    const back = await as.post('/api/auth/impersonate/stop');
    const audit = (await client(ctx.app, cookieOf(back)).get('/api/audit')).json();
    const change = audit.find(
      (a: { entity: string; entityId: string }) => a.entity === 'helpTexts' && a.entityId === 'Users.List',
    );
    expect(change.actorUsername).toBe(t.admin.username);
    expect(change.onBehalfOfUsername).toBe(t.staff.username);
    expect(change.after).toMatchObject({ StateName: 'Users.List', Title: 'Users' });
    expect(change.after.Content).toContain('Who works here.');
  });

  it('refuses users of another association, staff without the permission, and oneself', async () => {
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const foreign = await admin.post(`/api/auth/impersonate/${other.staff.id}`);
    expect(foreign.statusCode).toBe(404);
    expect((await admin.post(`/api/auth/impersonate/${t.admin.id}`)).statusCode).toBe(400);
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    expect((await staff.post(`/api/auth/impersonate/${t.member.id}`)).statusCode).toBe(403);
    expect((await staff.post('/api/auth/impersonate/stop')).statusCode).toBe(400);
  });
});

describe('the impersonation session and its cookie', () => {
  it('end with the staff session they came from, and the cookie never outlives its session', async () => {
    const { cookie } = await signIn(ctx.app, t.admin);
    // The staff session has ten minutes left.
    const staffToken = cookie.slice('gh_session='.length);
    await ctx.database.db.execute(
      sql`update sessions set expires_at = now() + interval '10 minutes' where id = ${hashToken(staffToken)}`,
    );
    const res = await client(ctx.app, cookie).post(`/api/auth/impersonate/${t.member.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const set = res.cookies.find((c) => c.name === 'gh_session');
    expect(set?.maxAge).toBeLessThanOrEqual(600);
    expect(set?.expires?.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
    const r = await ctx.database.db.execute(
      sql`select expires_at from sessions where id = ${hashToken(set?.value ?? '')}`,
    );
    const sessionEnds = new Date((r as unknown as { rows: { expires_at: string }[] }).rows[0]!.expires_at);
    expect(sessionEnds.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
    // The cookie ends when the session does (to the second the header carries).
    expect(Math.abs((set?.expires?.getTime() ?? 0) - sessionEnds.getTime())).toBeLessThan(1000);
  });

  it('a sign-in cookie ends with its session too', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: t.staff.username, password: t.staff.password },
    });
    const set = res.cookies.find((c) => c.name === 'gh_session');
    const r = await ctx.database.db.execute(
      sql`select expires_at from sessions where id = ${hashToken(set?.value ?? '')}`,
    );
    const sessionEnds = new Date((r as unknown as { rows: { expires_at: string }[] }).rows[0]!.expires_at);
    expect(Math.abs((set?.expires?.getTime() ?? 0) - sessionEnds.getTime())).toBeLessThan(1000);
  });
});
