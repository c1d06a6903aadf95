/**
 * The session cache (decision 0184): an instance answers a session from its last lookup for at most SESSION_CACHE_MS.
 * What this instance does to a session (a sign-out, a deactivation, a password change) shows on its next request at
 * once; what another instance does (played here by writing to the database directly, as another instance's
 * statements do) shows within the bound. The clock the cache reads is frozen (Date only; the database's timers run),
 * so the bound is a step of the clock, never a wait.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, seedTenant, signIn, type TestContext, testApp } from '../../test/helpers.ts';
import { hashToken, SESSION_CACHE_MS } from './session.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp();
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

const tokenOf = (cookie: string) => cookie.replace(/^gh_session=/, '').split(';')[0] ?? '';

/** Freezes the clock the cache reads (Date), at now. */
function freeze(): { step: (ms: number) => void } {
  let now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  return {
    step(ms) {
      now += ms;
      vi.setSystemTime(now);
    },
  };
}

describe('the session cache', () => {
  it('refuses a session signed out on this instance on its very next request', async () => {
    const t = await seedTenant(ctx.database);
    const { cookie } = await signIn(ctx.app, t.staff);
    const staff = client(ctx.app, cookie);
    freeze();
    expect((await staff.get('/api/auth/me')).statusCode).toBe(200);
    expect((await staff.get('/api/auth/me')).statusCode).toBe(200);
    expect((await staff.post('/api/auth/logout')).statusCode).toBeLessThan(300);
    expect((await staff.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('refuses a session deactivated on this instance on its very next request', async () => {
    const t = await seedTenant(ctx.database);
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    freeze();
    expect((await staff.get('/api/auth/me')).statusCode).toBe(200);
    expect((await admin.post(`/api/users/${t.staff.id}/deactivate`)).statusCode).toBe(200);
    expect((await staff.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('refuses every session of a user whose password changed here, at once', async () => {
    const t = await seedTenant(ctx.database);
    const first = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    const second = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    freeze();
    expect((await first.get('/api/auth/me')).statusCode).toBe(200);
    const changed = await second.post('/api/auth/change-password', {
      currentPassword: t.staff.password,
      newPassword: 'a-new-staff-password-2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await first.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('refuses a session ended by another instance within the bound, never later', async () => {
    const t = await seedTenant(ctx.database);
    const { cookie } = await signIn(ctx.app, t.staff);
    const staff = client(ctx.app, cookie);
    const clock = freeze();
    expect((await staff.get('/api/auth/me')).statusCode).toBe(200);
    // Another instance signs the session out: this one does not know yet.
    await ctx.database.ownerExec(
      `update sessions set revoked_at = now() where id = '${hashToken(tokenOf(cookie))}'`,
    );
    clock.step(SESSION_CACHE_MS - 1);
    expect((await staff.get('/api/auth/me')).statusCode).toBe(200);
    clock.step(1);
    expect((await staff.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('refuses a user deactivated by another instance within the bound, never later', async () => {
    const t = await seedTenant(ctx.database);
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    const clock = freeze();
    expect((await staff.get('/api/auth/me')).statusCode).toBe(200);
    await ctx.database.ownerExec(
      `update tenant_users set is_active = false where tenant_id = '${t.tenant.id}' and user_id = ${t.staff.id}`,
    );
    clock.step(SESSION_CACHE_MS);
    expect((await staff.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('keeps no session with a gate pending: the gate done shows on the next request', async () => {
    const t = await seedTenant(ctx.database);
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    const clock = freeze();
    // A route behind the gates, answered from the database: no gate yet.
    const setZone = () => staff.put('/api/auth/me/time-zone', { TimeZone: null });
    expect((await setZone()).statusCode).toBe(200);
    await ctx.database.ownerExec(
      `update users set is_require_password_reset = true where id = ${t.staff.id}`,
    );
    clock.step(SESSION_CACHE_MS);
    expect((await setZone()).statusCode).toBe(403);
    await ctx.database.ownerExec(
      `update users set is_require_password_reset = false where id = ${t.staff.id}`,
    );
    // Not kept while the gate was pending: the gate done shows on the very next request, the clock unmoved.
    expect((await setZone()).statusCode).toBe(200);
  });
});
