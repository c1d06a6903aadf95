import { publishTerms } from '@guildhall/db/seed/factories';
import { LOGIN_TYPE_IDS, MESSAGES } from '@guildhall/shared';
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

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

describe('terms-of-use gate', () => {
  it('publishing terms makes them pending for that login type only, and blocks the product until accepted', async () => {
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const published = await admin.post('/api/setup/terms', {
      LoginType: 'member',
      Title: 'Member terms 2027',
      Description: 'Be kind.',
    });
    expect(published.statusCode).toBe(201);
    const termsId = published.json().TermsOfUseId;

    const staffMe = (await signIn(ctx.app, t.staff)).me;
    expect(staffMe.pendingPrompts.terms).toEqual([]);

    const { cookie, me } = await signIn(ctx.app, t.member);
    expect(me.pendingPrompts.terms).toHaveLength(1);
    expect(me.pendingPrompts.terms[0]).toMatchObject({
      TermsOfUseId: termsId,
      LoginType: 'member',
      UserLoginTypeId: LOGIN_TYPE_IDS.member,
      Title: 'Member terms 2027',
      Description: 'Be kind.',
    });
    const member = client(ctx.app, cookie);
    expect((await member.get('/api/help/Home')).statusCode).toBe(403);

    const res = await member.post('/api/Setup/TermsofUse/terms/takeaction', {
      UserLoginTypeId: LOGIN_TYPE_IDS.member,
      TermsOfUseId: termsId,
      IsAccepted: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Success: true, SignedOut: false });
    expect((await member.get('/api/auth/me')).json().pendingPrompts.terms).toEqual([]);
    expect((await member.get('/api/help/Home')).statusCode).toBe(200);

    const list = (await admin.get('/api/setup/terms/current')).json();
    expect(list.find((x: { TermsOfUseId: number }) => x.TermsOfUseId === termsId).AcceptedCount).toBe(1);
  });

  it('declining signs the user out', async () => {
    const termsId = await publishTerms(ctx.database.db, {
      tenantId: t.tenant.id,
      loginType: 'staff',
      title: 'Staff terms',
    });
    const { cookie } = await signIn(ctx.app, t.staff);
    const api = client(ctx.app, cookie);
    const res = await api.post('/api/Setup/TermsofUse/terms/takeaction', {
      UserLoginTypeId: LOGIN_TYPE_IDS.staff,
      TermsOfUseId: termsId,
      IsAccepted: false,
    });
    expect(res.json()).toEqual({ Success: true, SignedOut: true });
    expect((await api.get('/api/auth/me')).statusCode).toBe(401);
    // Still pending at the next sign-in.
    expect((await signIn(ctx.app, t.staff)).me.pendingPrompts.terms[0]?.TermsOfUseId).toBe(termsId);
  });

  it("refuses another association's terms and terms of another login type", async () => {
    const foreign = await publishTerms(ctx.database.db, {
      tenantId: other.tenant.id,
      loginType: 'staff',
      title: 'Foreign terms',
    });
    const own = await publishTerms(ctx.database.db, {
      tenantId: t.tenant.id,
      loginType: 'member',
      title: 'Member only',
    });
    const api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const res = await api.post('/api/Setup/TermsofUse/terms/takeaction', {
      UserLoginTypeId: 1,
      TermsOfUseId: foreign,
      IsAccepted: true,
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Foreign terms');
    const wrongType = await api.post('/api/Setup/TermsofUse/terms/takeaction', {
      UserLoginTypeId: 1,
      TermsOfUseId: own,
      IsAccepted: true,
    });
    expect(wrongType.statusCode).toBe(404);
    const mismatch = await api.post('/api/Setup/TermsofUse/terms/takeaction', {
      UserLoginTypeId: 2,
      TermsOfUseId: own,
      IsAccepted: true,
    });
    expect(mismatch.statusCode).toBe(400);
  });

  it('lets only users with terms.manage publish', async () => {
    const staff = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    const res = await staff.post('/api/setup/terms', { LoginType: 'staff', Title: 'x', Description: 'y' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MESSAGES.forbidden);
  });
});

describe('privacy-policy acceptance (spec 000 s2)', () => {
  let third: TenantWithUsers;
  beforeAll(async () => {
    third = await seedTenant(ctx.database);
  });
  async function setPolicy(text: string, url = '') {
    const admin = client(ctx.app, (await signIn(ctx.app, third.admin)).cookie);
    const current = (await admin.post('/api/settings/tenantSettings/tenantSettingsGet', {})).json() as object;
    const saved = await admin.post('/api/settings/tenantSettings/tenantSettingsSave', {
      ...current,
      PrivacyPolicy: text,
      PrivacyPolicyUrl: url,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return admin;
  }

  it('an association without a policy asks nothing', async () => {
    expect((await signIn(ctx.app, t.member)).me.pendingPrompts.privacyPolicy).toBeNull();
  });

  it('a published policy is asked of each user until accepted; a changed text is asked again', async () => {
    await setPolicy('We keep your name and email to run the association.', 'https://example.org/privacy');
    const { cookie, me } = await signIn(ctx.app, third.member);
    expect(me.pendingPrompts.privacyPolicy).toMatchObject({
      Text: 'We keep your name and email to run the association.',
      Url: 'https://example.org/privacy',
    });
    const version = me.pendingPrompts.privacyPolicy?.Version as string;
    expect(version).toMatch(/^[0-9a-f]{32}$/);
    const member = client(ctx.app, cookie);

    // Another association's user is not asked this association's policy.
    expect((await signIn(ctx.app, t.staff)).me.pendingPrompts.privacyPolicy).toBeNull();

    const stale = await member.post('/api/privacy-policy/acceptance', {
      Version: 'f'.repeat(32),
      IsAccepted: true,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(
      'The privacy policy has changed since it was shown. Please read it again.',
    );

    const ok = await member.post('/api/privacy-policy/acceptance', { Version: version, IsAccepted: true });
    expect(ok.json()).toEqual({ Success: true, SignedOut: false });
    expect((await member.get('/api/auth/me')).json().pendingPrompts.privacyPolicy).toBeNull();
    // The staff user of the same association has not accepted it yet.
    expect((await signIn(ctx.app, third.staff)).me.pendingPrompts.privacyPolicy?.Version).toBe(version);

    await setPolicy('We keep your name, email and phone to run the association.');
    const changed = (await member.get('/api/auth/me')).json().pendingPrompts.privacyPolicy;
    expect(changed.Version).not.toBe(version);
    expect(changed.Url).toBeNull();

    const audit = await client(ctx.app, (await signIn(ctx.app, third.admin)).cookie).get(
      '/api/audit?limit=50',
    );
    expect(audit.body).toContain('privacy-policy-accept');
  });

  it('declining signs the user out and is asked again at the next sign-in', async () => {
    await setPolicy('Version for declining.');
    const { cookie, me } = await signIn(ctx.app, third.staff);
    const version = me.pendingPrompts.privacyPolicy?.Version as string;
    const staff = client(ctx.app, cookie);
    const res = await staff.post('/api/privacy-policy/acceptance', { Version: version, IsAccepted: false });
    expect(res.json()).toEqual({ Success: true, SignedOut: true });
    expect((await staff.get('/api/auth/me')).statusCode).toBe(401);
    expect((await signIn(ctx.app, third.staff)).me.pendingPrompts.privacyPolicy?.Version).toBe(version);
  });

  it('there is nothing to accept where the association has no policy', async () => {
    const { cookie } = await signIn(ctx.app, t.staff);
    const res = await client(ctx.app, cookie).post('/api/privacy-policy/acceptance', {
      Version: 'a'.repeat(32),
      IsAccepted: true,
    });
    expect(res.statusCode).toBe(404);
  });
});
