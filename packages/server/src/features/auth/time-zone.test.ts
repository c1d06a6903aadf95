/** A person chooses the time zone they read times in; by default it is the association's. */
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

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

describe('the user’s own time zone', () => {
  it('is null (the association’s) until chosen, then answered in me, kept across sign-ins, and audited', async () => {
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    const me = (await staff.get('/api/auth/me')).json();
    expect(me.user.timeZone).toBeNull();
    expect(me.tenant.settings.defaultTimezone).toBeTruthy();

    const set = await staff.put('/api/auth/me/time-zone', { TimeZone: 'Europe/Warsaw' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user.timeZone).toBe('Europe/Warsaw');
    const again = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    expect((await again.get('/api/auth/me')).json().user.timeZone).toBe('Europe/Warsaw');

    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const audit = JSON.stringify((await admin.get('/api/audit')).json());
    expect(audit).toContain('set-time-zone');

    const back = await staff.put('/api/auth/me/time-zone', { TimeZone: null });
    expect(back.json().user.timeZone).toBeNull();
  });

  it('refuses a zone that does not exist, and a visitor', async () => {
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    const bad = await member.put('/api/auth/me/time-zone', { TimeZone: 'Mars/Olympus_Mons' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Choose a time zone from the list.');
    expect((await member.put('/api/auth/me/time-zone', { TimeZone: 'America/Denver' })).statusCode).toBe(200);
    const anonymous = await ctx.app.inject({
      method: 'PUT',
      url: '/api/auth/me/time-zone',
      payload: { TimeZone: 'UTC' },
      headers: { origin: 'http://localhost:3000' },
    });
    expect([401, 403]).toContain(anonymous.statusCode);
  });
});
