import { withTenantTx } from '@guildhall/db';
import { TENANT_PROVISIONED, tenantProvisionedPayload } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, seedTenant, type TestContext, testApp, unique } from '../../../test/helpers.ts';
import { type Inbox, signupTokenOf, startInbox } from '../../../test/smtp-inbox.ts';
import { defineFeature } from '../../platform/feature-module.ts';
import { features } from '../index.ts';
import { BEGIN_SIGNUP_PER_MINUTE } from './signup.routes.ts';

let ctx: TestContext;
let inbox: Inbox;
const seen: { tenantId: string; administratorUserId: number }[] = [];

/** A subscriber as billing and memberships write theirs: it runs in the sign-up's transaction. */
const listener = defineFeature({
  name: 'listener',
  subscribes: {
    [TENANT_PROVISIONED]: () => async (tx, tenantId, payload) => {
      const p = tenantProvisionedPayload.parse(payload);
      expect(p.tenantId).toBe(tenantId);
      // It sees the new association's rows: the same transaction, scoped to the new tenant.
      const r = await tx.execute(
        sql`select count(*)::int as n from tenant_users where user_id = ${p.administratorUserId}`,
      );
      expect((r as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
      seen.push(p);
    },
  },
});

beforeAll(async () => {
  inbox = await startInbox();
  ctx = await testApp({ smtpUrl: inbox.url }, 8, { modules: [...features, listener] });
});
afterAll(async () => {
  await ctx.close();
  await inbox.close();
});

const post = (url: string, payload: Record<string, unknown>, ip = '10.0.0.1') =>
  ctx.app.inject({ method: 'POST', url, payload, remoteAddress: ip });

async function begin(email: string, ip?: string): Promise<string> {
  const res = await post(
    '/api/Signup/BeginSignup',
    { Email: email, FirstName: 'Ada', LastName: 'Lovelace' },
    ip,
  );
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ Data: { success: true } });
  return signupTokenOf(await inbox.waitFor(email));
}

function model(token: string, extra: Record<string, unknown> = {}) {
  return {
    Token: token,
    AssociationName: 'Riverside Rowing Club',
    Name: 'Ada Lovelace',
    Email: 'ada@example.org',
    NewUsername: unique('ada.'),
    NewPassword: 'correct horse battery',
    CustomFields: [{ Name: 'Members', Value: '120' }],
    TrialKey: 'spring',
    browserTimeZone: 'Europe/London',
    ...extra,
  };
}

describe('minimal sign-up', () => {
  it('refuses a malformed address with a message, and answers the same for a known and a new address', async () => {
    const bad = await post('/api/Signup/BeginSignup', {
      Email: 'not-an-address',
      FirstName: 'A',
      LastName: 'B',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.Email.length).toBeGreaterThan(0);

    const t = await seedTenant(ctx.database);
    const knownEmail = `${t.admin.username}@example.org`;
    const known = await post('/api/Signup/BeginSignup', {
      Email: knownEmail,
      FirstName: 'Kim',
      LastName: 'Known',
    });
    const fresh = await post('/api/Signup/BeginSignup', {
      Email: unique('new') + '@example.org',
      Name: 'New Person',
    });
    expect(known.statusCode).toBe(200);
    expect(fresh.statusCode).toBe(200);
    expect(known.body).toBe(fresh.body);
    // The known address is told where its account is, beside the link.
    const mail = await inbox.waitFor(knownEmail);
    expect(mail).toContain('already has an account');
    expect(signupTokenOf(mail).length).toBeGreaterThan(30);
  });

  it('stores only a hash of the link’s token', async () => {
    const email = `${unique('hash')}@example.org`;
    const token = await begin(email);
    const rows = await ctx.database.db.execute(
      sql`select token_hash from signup_requests where email = ${email}`,
    );
    const hashes = (rows as unknown as { rows: { token_hash: string }[] }).rows.map((r) => r.token_hash);
    expect(hashes).toHaveLength(1);
    expect(hashes[0]).not.toContain(token);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is rate-limited per address', async () => {
    const ip = '10.9.9.9';
    const answers: number[] = [];
    for (let i = 0; i <= BEGIN_SIGNUP_PER_MINUTE; i += 1) {
      const res = await post('/api/Signup/BeginSignup', { Email: 'not-an-address' }, ip);
      answers.push(res.statusCode);
    }
    expect(answers.slice(0, BEGIN_SIGNUP_PER_MINUTE).every((s) => s === 400)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });

  it('validates an email address without a session (the sign-up form asks first)', async () => {
    const res = await post('/api/utils/email/validate', { emailAddress: 'someone@mailinator.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().Data.Valid).toBe(false);
  });
});

describe('ValidateUsername', () => {
  it('answers Valid for a free name, and for a taken one where to sign in or reset the password', async () => {
    const free = await ctx.app.inject({
      method: 'GET',
      url: `/api/Signup/ValidateUsername/${unique('free.')}`,
    });
    expect(free.json()).toEqual({
      Data: { Valid: true, ErrorMessages: [], PasswordResetUrl: null, LoginUrl: null },
    });
    const t = await seedTenant(ctx.database);
    const taken = await ctx.app.inject({
      method: 'GET',
      url: `/api/Signup/ValidateUsername/${t.staff.username.toUpperCase()}`,
    });
    expect(taken.json().Data).toMatchObject({
      Valid: false,
      PasswordResetUrl: 'http://guildhall.test/forgot-password',
      LoginUrl: 'http://guildhall.test/sign-in',
    });
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/Signup/ValidateUsername/a%20b' });
    expect(bad.json().Data.Valid).toBe(false);
    expect(bad.json().Data.ErrorMessages[0]).toContain('letters, digits');
  });
});

describe('CompleteSignup', () => {
  it('makes the association in one go and signs its administrator in', async () => {
    const token = await begin(`${unique('ada')}@example.org`);
    const link = await ctx.app.inject({ method: 'GET', url: `/api/signup/links/${token}` });
    expect(link.json().Data).toMatchObject({ Valid: true, Name: 'Ada Lovelace' });
    const body = model(token);
    const res = await post('/api/Signup/CompleteSignup', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Data: { success: true, url: 'http://guildhall.test/a' } });
    const cookie = cookieOf(res);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const identity = me.json();
    expect(identity.role).toBe('admin');
    expect(identity.user.username).toBe(body.NewUsername);
    expect(identity.user.displayName).toBe('Ada Lovelace');
    expect(identity.tenant.name).toBe('Riverside Rowing Club');
    expect(identity.tenant.settings.defaultTimezone).toBe('Europe/London');
    expect(identity.tenant.settings.currency).toBe('USD');
    const trialEnd = Date.parse(identity.tenant.settings.trialEndsAt);
    expect(Math.round((trialEnd - Date.now()) / 86_400_000)).toBe(30);
    // Staff terms were accepted on the form: no gate stands between the administrator and the home page.
    expect(identity.pendingPrompts.terms).toEqual([]);

    const tenantId = identity.tenant.id as string;
    expect(seen).toContainEqual({ tenantId, administratorUserId: identity.user.id });
    const counts = await withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
      const r = await tx.execute(sql`select
        (select count(*)::int from terms_of_use) as terms,
        (select count(*)::int from status_messages) as welcome,
        (select count(*)::int from audit_log where action = 'sign-up') as audited,
        (select count(*)::int from tenant_users where role = 'admin') as admins,
        (select count(*)::int from membership_types) as "membershipTypes",
        (select count(*)::int from membership_levels) as "membershipLevels",
        (select count(*)::int from ledger_accounts where role is not null) > 0 as "ledgerAccounts",
        (select count(*)::int from tax_sets) as "taxSets"`);
      return (r as unknown as { rows: Record<string, number>[] }).rows[0];
    });
    expect(counts).toEqual({
      terms: 2,
      welcome: 1,
      audited: 1,
      admins: 1,
      membershipTypes: 1,
      membershipLevels: 1,
      ledgerAccounts: true,
      taxSets: 1,
    });

    // The link is spent: its page says so.
    const spent = await ctx.app.inject({ method: 'GET', url: `/api/signup/links/${token}` });
    expect(spent.json().Data.Valid).toBe(false);
  });

  it('refuses each field in the form’s order, by the model’s names', async () => {
    const token = await begin(`${unique('order')}@example.org`);
    const all = await post(
      '/api/Signup/CompleteSignup',
      model(token, {
        AssociationName: '',
        Name: 'Cher',
        Email: 'x',
        NewUsername: 'a b',
        NewPassword: 'short',
      }),
    );
    expect(all.statusCode).toBe(400);
    expect(Object.keys(all.json().errors)).toEqual([
      'AssociationName',
      'Name',
      'Email',
      'NewUsername',
      'NewPassword',
    ]);
    const weak = await post('/api/Signup/CompleteSignup', model(token, { NewPassword: 'password123' }));
    expect(weak.json().errors.NewPassword[0]).toContain('most common');
    const personal = await post(
      '/api/Signup/CompleteSignup',
      model(token, { NewUsername: 'adalove', NewPassword: 'adalove-2026-rows' }),
    );
    expect(personal.json().errors.NewPassword[0]).toContain('username');
    const t = await seedTenant(ctx.database);
    const taken = await post('/api/Signup/CompleteSignup', model(token, { NewUsername: t.staff.username }));
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors.NewUsername).toBeDefined();
    // None of these spent the link.
    expect((await post('/api/Signup/CompleteSignup', model(token))).statusCode).toBe(200);
  });

  it('refuses an unknown, a reused and an expired link', async () => {
    const unknown = await post('/api/Signup/CompleteSignup', model('x'.repeat(43)));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.Token).toBeDefined();

    const expiredEmail = `${unique('late')}@example.org`;
    const expired = await begin(expiredEmail);
    await ctx.database.db.execute(
      sql`update signup_requests set expires_at = now() - interval '1 minute' where email = ${expiredEmail}`,
    );
    const late = await post('/api/Signup/CompleteSignup', model(expired));
    expect(late.statusCode).toBe(400);
    expect(late.json().errors.Token).toBeDefined();
  });

  it('makes one association when the same link is sent twice, even at once', async () => {
    const email = `${unique('twice')}@example.org`;
    const token = await begin(email);
    const body = model(token, { AssociationName: unique('Twice Club ') });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/Signup/CompleteSignup', body)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.every((a) => a.json().Data.success === true)).toBe(true);
    // Exactly one of them made it and signed in.
    expect(answers.filter((a) => a.cookies.some((c) => c.name === 'gh_session')).length).toBe(1);
    const r = await ctx.database.db.execute(
      sql`select count(*)::int as n from signup_requests where email = ${email} and provisioned_tenant_id is not null`,
    );
    expect((r as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
    const admins = await ctx.database.db.execute(
      sql`select count(*)::int as n from users where lower(username) = ${body.NewUsername.toLowerCase()}`,
    );
    expect((admins as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
  });

  it('50 parallel sign-ups of distinct associations all succeed', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 50; i += 1)
      tokens.push(await begin(`${unique(`many${i}-`)}@example.org`, `10.1.${i}.1`));
    const answers = await Promise.all(
      tokens.map((token, i) =>
        post(
          '/api/Signup/CompleteSignup',
          model(token, { AssociationName: `Parallel Club ${i}` }),
          `10.2.${i}.1`,
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(tokens.map(() => 200));
    const tenants = new Set(answers.map((a) => cookieOf(a)));
    expect(tenants.size).toBe(50);
  }, 120_000);

  it('a subscriber that fails rolls the whole sign-up back', async () => {
    const failing = defineFeature({
      name: 'failing',
      subscribes: {
        [TENANT_PROVISIONED]: () => async () => {
          throw new Error('defaults refused');
        },
      },
    });
    const other = await testApp({ smtpUrl: inbox.url }, 2, { modules: [...features, failing] });
    try {
      const email = `${unique('rollback')}@example.org`;
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/Signup/BeginSignup',
        payload: { Email: email, FirstName: 'Ro', LastName: 'Back' },
      });
      expect(res.statusCode).toBe(200);
      const token = signupTokenOf(await inbox.waitFor(email));
      const body = model(token, { AssociationName: unique('Rollback Club ') });
      const done = await other.app.inject({
        method: 'POST',
        url: '/api/Signup/CompleteSignup',
        payload: body,
      });
      expect(done.statusCode).toBe(500);
      const left = await other.database.db.execute(
        sql`select (select count(*)::int from users where lower(username) = ${body.NewUsername.toLowerCase()}) as users,
                   (select count(*)::int from signup_requests where email = ${email} and used_at is null) as unused`,
      );
      expect((left as unknown as { rows: Record<string, number>[] }).rows[0]).toEqual({
        users: 0,
        unused: 1,
      });
    } finally {
      await other.close();
    }
  });
});

describe('the trial', () => {
  async function newAssociation() {
    const token = await begin(`${unique('trial')}@example.org`);
    const res = await post(
      '/api/Signup/CompleteSignup',
      model(token, { AssociationName: unique('Trial Club ') }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const cookie = cookieOf(res);
    // The one prompt a new administrator meets: a security question.
    const question = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/security-question',
      headers: { cookie },
      payload: { SecurityQuestionId: 1, Answer: 'Whiskers' },
    });
    expect(question.statusCode, question.body).toBe(200);
    const me = (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json();
    return { cookie, tenantId: me.tenant.id as string, settings: me.tenant.settings };
  }
  const call = (
    cookie: string,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: Record<string, unknown>,
  ) => ctx.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  it('the settings form cannot move the trial’s end', async () => {
    const a = await newAssociation();
    const form = (await call(a.cookie, 'POST', '/api/settings/tenantSettings/tenantSettingsGet', {})).json();
    expect(form).not.toHaveProperty('TrialEndsAt');
    const put = await call(a.cookie, 'POST', '/api/settings/tenantSettings/tenantSettingsSave', {
      ...form,
      Name: 'Renamed Club',
      TrialEndsAt: '2099-01-01T00:00:00.000Z',
      trialEndsAt: '2099-01-01T00:00:00.000Z',
      Currency: 'EUR',
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = (await call(a.cookie, 'GET', '/api/auth/me')).json();
    expect(after.tenant.settings.trialEndsAt).toBe(a.settings.trialEndsAt);
    expect(after.tenant.settings.currency).toBe('EUR');
  });

  it('an ended trial makes the back office read-only and deletes nothing', async () => {
    const a = await newAssociation();
    const saved = await call(a.cookie, 'POST', '/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Kept',
      LastName: 'Contact',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await withTenantTx(ctx.database.db, { tenantId: a.tenantId }, (tx) =>
      tx.execute(
        sql`update tenants set settings = settings || jsonb_build_object('trialEndsAt', (now() - interval '1 minute')::text) where id = ${a.tenantId}`,
      ),
    );
    const refused = await call(a.cookie, 'POST', '/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'New',
      LastName: 'Contact',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('TrialEnded');
    expect(refused.json().message).toContain('read-only');
    const form = await call(a.cookie, 'POST', '/api/settings/tenantSettings/tenantSettingsGet', {});
    expect(form.statusCode).toBe(200);
    const settings = await call(a.cookie, 'POST', '/api/settings/tenantSettings/tenantSettingsSave', {
      ...form.json(),
      Name: 'X Club',
    });
    expect(settings.statusCode).toBe(403);
    // Reading still works, and what was there is still there.
    const list = await call(a.cookie, 'POST', '/api/contacts/contacts/contactData?$top=10&$skip=0', {});
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().TotalRecordAvailable).toBe(1);
    // A record opens too (its read is a POST, as the screens' reads are).
    const record = await call(a.cookie, 'POST', '/api/contacts/contacts/contactGet', {
      id: saved.json().Data.ContactId,
    });
    expect(record.statusCode, record.body).toBe(200);
    expect((await call(a.cookie, 'GET', '/api/auth/me')).statusCode).toBe(200);
    // Signing out and in again still works.
    expect((await call(a.cookie, 'POST', '/api/auth/logout')).statusCode).toBe(200);
  });
});
