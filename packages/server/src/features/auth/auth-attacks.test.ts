/**
 * Sign-in, reset and session attacks over HTTP: forged forwarded addresses, parallel guesses, guesses spread over
 * addresses, lockouts aimed at a victim, reset links read by staff, stale reset tokens. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL (where parallel attempts really run in parallel).
 */
import { createHash } from 'node:crypto';
import { createUser } from '@guildhall/db/seed/factories';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  unique,
} from '../../../test/helpers.ts';
import { REDACTED } from '../../platform/mailer.ts';
import { RESET_MAX_PER_WINDOW, storeResetToken, THROTTLE_MAX_ACCOUNT_FAILURES } from './auth.repo.ts';

let ctx: TestContext;
let t: TenantWithUsers;

// A real SMTP server: only the delivery carries a reset link's token.
let smtp: SMTPServer;
const inbox: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => {
        data += c.toString('utf8');
      });
      stream.on('end', () => {
        inbox.push(data.replace(/=\r?\n/g, '').replaceAll('=3D', '='));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  ctx = await testApp({ smtpUrl: `smtp://127.0.0.1:${port}` }, 8);
  t = await seedTenant(ctx.database);
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const login = (username: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    remoteAddress: ip,
    headers,
  });

const newUser = (prefix: string) =>
  createUser(ctx.database.db, {
    tenantId: t.tenant.id,
    username: unique(prefix),
    password: 'right-password-2026',
  });

/** The reset tokens delivered to an address so far. */
function tokensSentTo(email: string): string[] {
  return inbox
    .filter((m) => m.includes(email))
    .map((m) => /reset-password\?token=([A-Za-z0-9_-]+)/.exec(m)?.[1])
    .filter((x): x is string => Boolean(x));
}

describe('sign-in throttling', () => {
  it('ignores X-Forwarded-For from a peer that is not a configured proxy', async () => {
    const u = await newUser('xff.');
    for (let i = 0; i < 12; i++) {
      const res = await login(u.username, `wrong-${i}-password`, '10.20.0.1', {
        'x-forwarded-for': `198.51.100.${i + 1}`,
      });
      expect(res.statusCode).toBe(i < 10 ? 401 : 429);
    }
    const blocked = await login(u.username, u.password, '10.20.0.1', { 'x-forwarded-for': '198.51.100.99' });
    expect(blocked.statusCode).toBe(429);
  });

  it('believes X-Forwarded-For only from the proxies named in TRUST_PROXY', async () => {
    const proxied = await testApp({ trustProxy: ['10.30.0.0/16'] });
    try {
      const s = await seedTenant(proxied.database);
      const via = (ip: string, forwarded: string, password: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: s.staff.username, password },
          remoteAddress: ip,
          headers: { 'x-forwarded-for': forwarded },
        });
      for (let i = 0; i < 10; i++)
        expect((await via('10.30.0.5', '203.0.113.7', `bad-${i}-pw`)).statusCode).toBe(401);
      // The client behind the trusted proxy is blocked; another client behind it is not.
      expect((await via('10.30.0.5', '203.0.113.7', s.staff.password)).statusCode).toBe(429);
      expect((await via('10.30.0.5', '203.0.113.8', s.staff.password)).statusCode).toBe(200);
      // A peer outside the proxies cannot borrow the unblocked client's address.
      for (let i = 0; i < 10; i++)
        expect((await via('192.0.2.1', '203.0.113.9', `bad-${i}-pw`)).statusCode).toBe(401);
      expect((await via('192.0.2.1', '203.0.113.10', s.staff.password)).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('lets no more than 10 of 200 parallel guesses from one address through to a password check', async () => {
    const u = await newUser('parallel.');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => login(u.username, `wrong-${i}-password`, '10.40.0.1')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c !== 401 && c !== 429)).toEqual([]);
    // Attempts refused while others were in flight guessed nothing; sequential guesses fill the rest.
    for (let i = 0; i < 20; i++)
      codes.push((await login(u.username, `more-${i}-password`, '10.40.0.1')).statusCode);
    expect(codes.filter((c) => c === 401).length).toBe(10);
    expect((await login(u.username, u.password, '10.40.0.1')).statusCode).toBe(429);
  });

  it('bounds one account’s guesses over many addresses, and spares the addresses its user signs in from', async () => {
    const u = await newUser('spread.');
    // The user's own address: signed in from it before the attack.
    expect((await login(u.username, u.password, '10.50.0.1')).statusCode).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(u.username, `wrong-${i}-password`, `172.16.${i}.1`)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c !== 401 && c !== 429)).toEqual([]);
    for (let i = 0; i < 40; i++)
      codes.push((await login(u.username, `more-${i}-password`, `172.18.${i}.1`)).statusCode);
    expect(codes.filter((c) => c === 401).length).toBe(THROTTLE_MAX_ACCOUNT_FAILURES);
    // A fresh address is refused even with the right password: the account is under attack.
    expect((await login(u.username, u.password, '172.17.0.1')).statusCode).toBe(429);
    // The lockout cannot be aimed at the user: their own address still signs in.
    const own = await login(u.username, u.password, '10.50.0.1');
    expect(own.statusCode).toBe(200);
  });

  it('does not refuse a correct password from an address that has not failed', async () => {
    const u = await newUser('victim.');
    for (let i = 0; i < 12; i++) await login(u.username, `wrong-${i}-password`, '10.60.0.1');
    expect((await login(u.username, u.password, '10.60.0.1')).statusCode).toBe(429);
    expect((await login(u.username, u.password, '10.60.0.2')).statusCode).toBe(200);
  });

  it('keeps the session a failed sign-in was sent with', async () => {
    const { cookie } = await signIn(ctx.app, t.staff);
    const failed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie },
      payload: { username: t.staff.username, password: 'not-the-password' },
    });
    expect(failed.statusCode).toBe(401);
    expect((await client(ctx.app, cookie).get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe('password reset', () => {
  it('keeps reset links out of the outbox: only the delivery carries the token', async () => {
    const s = await seedTenant(ctx.database);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { usernameOrEmail: s.member.username },
    });
    expect(res.statusCode).toBe(200);
    await ctx.app.background.settled();
    const email = `${s.member.username}@example.org`;
    await expect.poll(() => tokensSentTo(email).length, { timeout: 5000 }).toBe(1);
    const token = tokensSentTo(email)[0]!;

    const staff = client(ctx.app, (await signIn(ctx.app, s.staff)).cookie);
    const list = (await staff.get('/api/mail/outbox')).json();
    const msg = list.find((m: { to: string }) => m.to === email);
    const full = (await staff.get(`/api/mail/outbox/${msg.id}`)).json();
    expect(full.text).toContain(REDACTED);
    expect(full.text).not.toContain(token);
    expect(JSON.stringify(full)).not.toContain(token);
  });

  it('lets an administrator send a reset link, never read it, with the administrator as the actor', async () => {
    const s = await seedTenant(ctx.database);
    const admin = client(ctx.app, (await signIn(ctx.app, s.admin)).cookie);
    const staff = client(ctx.app, (await signIn(ctx.app, s.staff)).cookie);
    // Staff without user management cannot, not even for the administrator.
    expect((await staff.post(`/api/users/${s.admin.id}/send-password-reset`)).statusCode).toBe(403);
    // Nor for a user of another association.
    expect((await admin.post(`/api/users/${t.staff.id}/send-password-reset`)).statusCode).toBe(404);

    const sent = await admin.post(`/api/users/${s.staff.id}/send-password-reset`);
    expect(sent.statusCode).toBe(200);
    const email = `${s.staff.username}@example.org`;
    await expect.poll(() => tokensSentTo(email).length, { timeout: 5000 }).toBe(1);
    const audit = (await admin.get('/api/audit')).json();
    const entry = audit.find((a: { action: string }) => a.action === 'send-password-reset');
    expect(entry.actorUsername).toBe(s.admin.username);
    expect(entry.entityId).toBe(String(s.staff.id));

    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: tokensSentTo(email)[0], newPassword: 'chosen-by-the-user-2026' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(s.staff.username, 'chosen-by-the-user-2026', '10.70.0.1')).statusCode).toBe(200);
  });

  it('answers forgot-password before looking anything up: the answer cannot tell a known account from an unknown one', async () => {
    const u = await newUser('timing.');
    // Hold the work that runs after the answer (the lookup, the token and the mail) until both answers are in.
    const background = ctx.app.background;
    const run = background.run;
    const held: (() => void)[] = [];
    background.run = (name, work) => {
      held.push(() => run.call(background, name, work));
    };
    const tokens = async () =>
      (
        (await ctx.database.db.execute(
          sql`select count(*)::int as n from password_reset_tokens where user_id = ${u.id}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]?.n;
    let answers: Awaited<ReturnType<typeof ctx.app.inject>>[];
    try {
      answers = await Promise.all(
        [
          u.username,
          `${u.username}@example.org`,
          unique('nobody.'),
          `${unique('nobody')}@nowhere.example`,
        ].map((usernameOrEmail, i) =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/auth/forgot-password',
            payload: { usernameOrEmail },
            remoteAddress: `10.81.${i}.1`,
          }),
        ),
      );
      // Every answer went out while the lookup had not run: no token exists yet, so none of them could depend on it.
      expect(await tokens()).toBe(0);
      expect(held).toHaveLength(4);
    } finally {
      background.run = run;
      for (const go of held) go();
    }
    const shape = (r: (typeof answers)[number]) => ({
      status: r.statusCode,
      body: r.body,
      headers: Object.keys(r.headers)
        .filter((h) => !['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(h))
        .sort()
        .map((h) => `${h}: ${h === 'content-length' || h.startsWith('content-') ? r.headers[h] : ''}`),
    });
    const [known, byEmail, unknown, unknownEmail] = answers.map(shape);
    expect(known).toEqual(unknown);
    expect(byEmail).toEqual(unknownEmail);
    expect(known).toEqual(byEmail);
    await ctx.app.background.settled();
    // The held work then ran: the known account got its link (two asks, two links), the unknown ones nothing.
    expect(await tokens()).toBe(2);
  });

  it('sends one account at most a few links, whatever the addresses asking', async () => {
    const u = await newUser('flood.');
    const asks = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { usernameOrEmail: u.username },
          remoteAddress: `10.80.${i}.1`,
        }),
      ),
    );
    expect(asks.every((r) => r.statusCode === 200)).toBe(true);
    await ctx.app.background.settled();
    const r = await ctx.database.db.execute(
      sql`select count(*)::int as n from password_reset_tokens where user_id = ${u.id}`,
    );
    expect((r as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(RESET_MAX_PER_WINDOW);
  });

  it('kills every outstanding token of a user when one is used', async () => {
    const u = await newUser('tokens.');
    const first = unique('first-token-value-');
    const second = unique('second-token-value-');
    const hour = new Date(Date.now() + 3_600_000);
    await storeResetToken(ctx.database, u.id, sha256(first), hour);
    await storeResetToken(ctx.database, u.id, sha256(second), hour);
    const reset = (token: string, newPassword: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, newPassword } });
    expect((await reset(second, 'second-new-password')).statusCode).toBe(200);
    const stale = await reset(first, 'first-new-password');
    expect(stale.statusCode).toBe(400);
    expect((await login(u.username, 'second-new-password', '10.90.0.1')).statusCode).toBe(200);
  });

  it('kills every outstanding token of a user when the password is changed', async () => {
    const u = await newUser('change.');
    const token = unique('outstanding-token-');
    await storeResetToken(ctx.database, u.id, sha256(token), new Date(Date.now() + 3_600_000));
    const { cookie } = await signIn(ctx.app, u);
    const changed = await client(ctx.app, cookie).post('/api/auth/change-password', {
      currentPassword: u.password,
      newPassword: 'changed-password-2026',
    });
    expect(changed.statusCode).toBe(200);
    const stale = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, newPassword: 'attacker-password-2026' },
    });
    expect(stale.statusCode).toBe(400);
  });
});

describe('usernames', () => {
  it('refuses a username that is another user’s email', async () => {
    const u = await newUser('named.');
    const { cookie } = await signIn(ctx.app, u);
    const res = await client(ctx.app, cookie).post('/api/auth/change-username', {
      newUsername: `${t.admin.username}@example.org`.toUpperCase(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.newUsername).toBeDefined();
  });
});

describe('API caching', () => {
  it('answers every API request with Cache-Control: no-store, errors included', async () => {
    const { cookie } = await signIn(ctx.app, t.staff);
    const me = await client(ctx.app, cookie).get('/api/auth/me');
    expect(me.headers['cache-control']).toBe('no-store');
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/no/such/route' });
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
