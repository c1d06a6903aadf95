/**
 * The session cache (decision 0184): an instance answers a session from its last lookup for at most SESSION_CACHE_MS.
 * What this instance does to a session (a sign-out, a deactivation, a password change) shows on its next request at
 * once; what another instance does (played here by writing to the database directly, as another instance's
 * statements do) shows within the bound. The clock the cache reads is frozen (Date only; the database's timers run),
 * so the bound is a step of the clock, never a wait.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, seedTenant, signIn, type TestContext, testApp } from '../../test/helpers.ts';
import { hashToken, lookupSession, SESSION_CACHE_MS } from './session.ts';

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

  it("forgets every session of an association whose settings were saved here, and only that association's", async () => {
    const t = await seedTenant(ctx.database);
    const other = await seedTenant(ctx.database);
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const staffToken = tokenOf((await signIn(ctx.app, t.staff)).cookie);
    const otherToken = tokenOf((await signIn(ctx.app, other.staff)).cookie);
    const pageSize = async (token: string) =>
      (await lookupSession(ctx.database, token))?.tenantSettings?.listPageSize;
    /** Another instance changes an association's page size: this one does not know while it keeps the session. */
    const elsewhere = (tenantId: string, size: number) =>
      ctx.database.ownerExec(
        `update tenants set settings = jsonb_set(coalesce(settings, '{}'), '{listPageSize}', '${size}') where id = '${tenantId}'`,
      );
    const clock = freeze();
    const before = await pageSize(staffToken);
    const otherBefore = await pageSize(otherToken);
    await elsewhere(t.tenant.id, 41);
    await elsewhere(other.tenant.id, 42);
    expect(await pageSize(staffToken)).toBe(before);
    expect(await pageSize(otherToken)).toBe(otherBefore);
    // The admin saves the association's settings here (any field): every session of it is looked up again at once.
    const current = await admin.post('/api/settings/tenantSettings/tenantSettingsGet', {});
    expect(current.statusCode, current.body).toBe(200);
    const saved = await admin.post('/api/settings/tenantSettings/tenantSettingsSave', {
      ...(current.json() as Record<string, unknown>),
      Name: 'Renamed association',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await pageSize(staffToken)).toBe(41);
    // Another association's sessions are still answered from memory.
    expect(await pageSize(otherToken)).toBe(otherBefore);
    // Until the save has surely committed, no session of the association is kept: each lookup reads the database.
    await elsewhere(t.tenant.id, 43);
    expect(await pageSize(staffToken)).toBe(43);
    clock.step(SESSION_CACHE_MS);
    expect(await pageSize(staffToken)).toBe(43);
    await elsewhere(t.tenant.id, 44);
    expect(await pageSize(staffToken)).toBe(43);
    clock.step(SESSION_CACHE_MS);
    expect(await pageSize(staffToken)).toBe(44);
    expect(await pageSize(otherToken)).toBe(42);
  });
});
