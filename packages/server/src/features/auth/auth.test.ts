import { createUser } from '@guildhall/db/seed/factories';
import { MESSAGES } from '@guildhall/shared';
import { SMTPServer } from 'smtp-server';
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
import { REDACTED } from '../../platform/mailer.ts';

let ctx: TestContext;
let t: TenantWithUsers;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

const login = (username: string, password: string, ip = '10.0.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    remoteAddress: ip,
  });

describe('sign-in', () => {
  it('sets an HttpOnly, SameSite session cookie and answers who is signed in', async () => {
    const res = await login(t.admin.username, t.admin.password);
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'gh_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.value.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    const me = res.json();
    expect(me.user.username).toBe(t.admin.username);
    expect(me.tenant.id).toBe(t.tenant.id);
    expect(me.area).toBe('backoffice');
    expect(me.tenant.settings.defaultTimezone).toBe('America/Chicago');
    const again = await client(ctx.app, cookieOf(res)).get('/api/auth/me');
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(t.admin.id);
  });

  it('puts members in the member area', async () => {
    const { me } = await signIn(ctx.app, t.member);
    expect(me.area).toBe('member');
    expect(me.role).toBe('member');
  });

  it('is case-insensitive on the username', async () => {
    const res = await login(t.staff.username.toUpperCase(), t.staff.password);
    expect(res.statusCode).toBe(200);
  });

  it('answers one generic message for an unknown user and for a wrong password', async () => {
    const unknown = await login('nobody.at.all', 'whatever-password');
    const wrong = await login(t.staff.username, 'wrong-password-1');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: MESSAGES.badCredentials });
    expect(wrong.json()).toEqual({ message: MESSAGES.badCredentials });
  });

  it('throttles after 10 failures for one username from one address, with a retry time', async () => {
    const u = await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: unique('throttle.'),
      password: 'right-password-2026',
    });
    for (let i = 0; i < 10; i++)
      expect((await login(u.username, `wrong-${i}-password`, '10.9.9.9')).statusCode).toBe(401);
    const blocked = await login(u.username, u.password, '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(MESSAGES.throttled);
    expect(blocked.json().retryAfterSeconds).toBeGreaterThan(0);
    expect(blocked.json().retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    // Another address is not blocked.
    expect((await login(u.username, u.password, '10.9.9.10')).statusCode).toBe(200);
  });

  it('stores passwords as argon2id with at least 19 MiB and t=2', async () => {
    const r = await ctx.database.db.execute(
      (await import('drizzle-orm')).sql`select password_hash from users where id = ${t.admin.id}`,
    );
    const hash = (r as unknown as { rows: { password_hash: string }[] }).rows[0]?.password_hash ?? '';
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=\d+\$/);
    const [, m, tt] = /m=(\d+),t=(\d+)/.exec(hash)!;
    expect(Number(m)).toBeGreaterThanOrEqual(19_456);
    expect(Number(tt)).toBeGreaterThanOrEqual(2);
  });
});

describe('sessions', () => {
  it('are revoked at sign-out', async () => {
    const { cookie } = await signIn(ctx.app, t.staff);
    const api = client(ctx.app, cookie);
    expect((await api.post('/api/auth/logout')).statusCode).toBe(200);
    const after = await api.get('/api/auth/me');
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(MESSAGES.notSignedIn);
  });

  it('are replaced at sign-in', async () => {
    const first = await signIn(ctx.app, t.staff);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: first.cookie },
      payload: { username: t.staff.username, password: t.staff.password },
    });
    expect(res.statusCode).toBe(200);
    expect(cookieOf(res)).not.toBe(first.cookie);
    expect((await client(ctx.app, first.cookie).get('/api/auth/me')).statusCode).toBe(401);
    expect((await client(ctx.app, cookieOf(res)).get('/api/auth/me')).statusCode).toBe(200);
  });

  it('are all revoked on a password change, which opens a new one', async () => {
    const u = await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: unique('pw.'),
      password: 'old-password-2026',
    });
    const a = await signIn(ctx.app, u);
    const b = await signIn(ctx.app, u);
    const wrongCurrent = await client(ctx.app, a.cookie).post('/api/auth/change-password', {
      currentPassword: 'not-the-password',
      newPassword: 'new-password-2026',
    });
    expect(wrongCurrent.statusCode).toBe(400);
    expect(wrongCurrent.json().errors.currentPassword).toBeDefined();
    const res = await client(ctx.app, a.cookie).post('/api/auth/change-password', {
      currentPassword: 'old-password-2026',
      newPassword: 'new-password-2026',
    });
    expect(res.statusCode).toBe(200);
    expect((await client(ctx.app, a.cookie).get('/api/auth/me')).statusCode).toBe(401);
    expect((await client(ctx.app, b.cookie).get('/api/auth/me')).statusCode).toBe(401);
    expect((await client(ctx.app, cookieOf(res)).get('/api/auth/me')).statusCode).toBe(200);
    expect((await login(u.username, 'old-password-2026')).statusCode).toBe(401);
    expect((await login(u.username, 'new-password-2026')).statusCode).toBe(200);
  });

  it('refuse a forged or malformed cookie', async () => {
    const res = await client(ctx.app, 'gh_session=forged-token-that-does-not-exist-anywhere').get(
      '/api/auth/me',
    );
    expect(res.statusCode).toBe(401);
  });
});

describe('security prompts', () => {
  it('ask for a security question, and block the product until it is set', async () => {
    const u = await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: unique('sq.'),
      password: 'question-password-2026',
      hasSecurityQuestion: false,
    });
    const { cookie, me } = await signIn(ctx.app, u);
    expect(me.pendingPrompts.securityQuestion).toBe(true);
    const api = client(ctx.app, cookie);
    const blocked = await api.get('/api/setup/users');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('GatePending');
    const questions = (await api.get('/api/auth/security-questions')).json();
    expect(questions.length).toBeGreaterThan(2);
    expect(
      (await api.post('/api/auth/security-question', { SecurityQuestionId: 999, Answer: 'x y' })).statusCode,
    ).toBe(400);
    const res = await api.post('/api/auth/security-question', {
      SecurityQuestionId: questions[0].Id,
      Answer: 'Rex',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().pendingPrompts.securityQuestion).toBe(false);
    expect((await api.get('/api/setup/users')).statusCode).toBe(200);
  });

  it('force a password change without asking for the current password', async () => {
    const u = await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: unique('force.'),
      password: 'temporary-password-1',
      isRequirePasswordReset: true,
    });
    const { cookie, me } = await signIn(ctx.app, u);
    expect(me.pendingPrompts.passwordReset).toBe(true);
    const short = await client(ctx.app, cookie).post('/api/auth/change-password', { newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.newPassword).toBeDefined();
    const res = await client(ctx.app, cookie).post('/api/auth/change-password', {
      newPassword: 'a-brand-new-password',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().pendingPrompts.passwordReset).toBe(false);
  });

  it('force a username change and refuse a taken one', async () => {
    const u = await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: unique('rename.'),
      password: 'rename-password-2026',
      mustChangeUsername: true,
    });
    const { cookie, me } = await signIn(ctx.app, u);
    expect(me.pendingPrompts.usernameChange).toBe(true);
    const api = client(ctx.app, cookie);
    const taken = await api.post('/api/auth/change-username', {
      newUsername: t.admin.username.toUpperCase(),
    });
    expect(taken.statusCode).toBe(409);
    const fresh = unique('renamed.');
    const res = await api.post('/api/auth/change-username', { newUsername: fresh });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe(fresh);
    expect(res.json().pendingPrompts.usernameChange).toBe(false);
    expect((await login(fresh, 'rename-password-2026')).statusCode).toBe(200);
  });
});

describe('forgotten password', () => {
  let smtp: SMTPServer;
  let port = 0;
  const inbox: string[] = [];
  let mailCtx: TestContext;

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
          inbox.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as { port: number }).port;
    mailCtx = await testApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await mailCtx.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends a single-use link by SMTP, keeps it in the outbox, and the same answer for unknown accounts', async () => {
    const s = await seedTenant(mailCtx.database);
    const unknown = await mailCtx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { usernameOrEmail: 'nobody@nowhere.example' },
    });
    const known = await mailCtx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { usernameOrEmail: s.staff.username },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await expect
      .poll(() => inbox.some((m) => m.includes(`${s.staff.username}@example.org`)), { timeout: 5000 })
      .toBe(true);
    const mail = inbox.find((m) => m.includes(`${s.staff.username}@example.org`))!.replace(/=\r?\n/g, '');
    const token = /reset-password\?token=3D([A-Za-z0-9_-]+)|reset-password\?token=([A-Za-z0-9_-]+)/.exec(
      mail,
    );
    const value = token?.[1] ?? token?.[2];
    expect(value).toBeTruthy();

    const reset = await mailCtx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: value, newPassword: 'reset-password-2026' },
    });
    expect(reset.statusCode).toBe(200);
    const again = await mailCtx.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: value, newPassword: 'another-password-2026' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This reset link is invalid or has expired.');
    const ok = await mailCtx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: s.staff.username, password: 'reset-password-2026' },
    });
    expect(ok.statusCode).toBe(200);

    const { cookie } = await signIn(mailCtx.app, s.admin);
    const outbox = (await client(mailCtx.app, cookie).get('/api/mail/outbox')).json();
    await mailCtx.app.background.settled();
    expect(outbox[0].subject).toBe('Choose a new password');
    expect(outbox[0].sentAt).not.toBeNull();
  });

  it('keeps mail in the outbox when no SMTP server is configured', async () => {
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { usernameOrEmail: t.member.username },
    });
    await ctx.app.background.settled();
    const { cookie } = await signIn(ctx.app, t.admin);
    const api = client(ctx.app, cookie);
    const list = (await api.get('/api/mail/outbox')).json();
    const msg = list.find((m: { to: string }) => m.to === `${t.member.username}@example.org`);
    expect(msg.sentAt).toBeNull();
    const full = (await api.get(`/api/mail/outbox/${msg.id}`)).json();
    // The link's token is kept out of the outbox: only a delivery carries it.
    expect(full.text).toContain(`/reset-password?token=${REDACTED}`);
  });
});
