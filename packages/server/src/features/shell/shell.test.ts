import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
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

describe('status banner', () => {
  it('is acknowledged once the user opened it after its last update', async () => {
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.get('/api/status')).json()).toMatchObject({ Message: '', Acknowledged: true });
    expect((await member.put('/api/status', { Message: 'x', Level: 'info' })).statusCode).toBe(403);
    const set = await admin.put('/api/status', { Message: 'Payments are delayed today.', Level: 'warning' });
    expect(set.statusCode).toBe(200);
    expect((await member.get('/api/status')).json()).toMatchObject({
      Message: 'Payments are delayed today.',
      Level: 'warning',
      Acknowledged: false,
    });
    expect((await member.post('/api/status/open')).json().Acknowledged).toBe(true);
    expect((await member.get('/api/status')).json().Acknowledged).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    await admin.put('/api/status', { Message: 'Payments are back.', Level: 'info' });
    expect((await member.get('/api/status')).json()).toMatchObject({
      Message: 'Payments are back.',
      Acknowledged: false,
    });
  });

  it('keeps a maintenance window', async () => {
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const body = {
      Message: 'Upgrade on Sunday',
      StartsAt: '2026-12-06T08:00:00.000Z',
      EndsAt: '2026-12-06T10:00:00.000Z',
    };
    expect((await admin.put('/api/status/maintenance', body)).json()).toEqual(body);
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.get('/api/status/maintenance')).json()).toEqual(body);
    expect(
      (await admin.put('/api/status/maintenance', { ...body, StartsAt: 'next sunday' })).statusCode,
    ).toBe(400);
  });
});

describe('help panel', () => {
  it("answers the product's text for a screen the association has not written, and staff can write their own", async () => {
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    expect((await staff.get('/api/help/Setup.Settings')).json()).toMatchObject({
      StateName: 'Setup.Settings',
      Title: 'Settings',
      Content: expect.stringContaining('time zone'),
    });
    // Each resource's screens are named after it.
    expect((await staff.get('/api/help/Contacts.List')).json().Content).toContain('Search by name');
    expect((await staff.get('/api/help/No.Such.Screen')).json()).toEqual({
      StateName: 'No.Such.Screen',
      Title: '',
      Content: '',
    });
    const put = await staff.post('/api/setup/helpTexts/helpTextSave', {
      StateName: 'Setup.Settings',
      Title: 'Settings',
      Content: '<p>Page size and time zone.</p>',
    });
    expect(put.statusCode).toBe(200);
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.get('/api/help/Setup.Settings')).json().Content).toBe(
      '<p>Page size and time zone.</p>',
    );
    expect(
      (
        await member.post('/api/setup/helpTexts/helpTextSave', {
          StateName: 'Setup.Settings',
          Title: 'x',
          Content: 'y',
        })
      ).statusCode,
    ).toBe(403);
    expect((await staff.get('/api/help/bad%20name!')).statusCode).toBe(400);
  });
});

describe('tooltips', () => {
  it("answers the declared tooltips, the association's own over them, and 404 for an unknown resource", async () => {
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    const declared = (await staff.get('/api/help/tooltips/samples')).json();
    expect(declared).toEqual({ Price: 'In cents on the wire; shown as money.' });
    const put = await staff.post('/api/setup/helpTexts/helpTextSave', {
      StateName: 'Samples.Tooltip.Quantity',
      Title: 'Quantity',
      Content: '<p>How many &amp; of what size.</p>',
    });
    expect(put.statusCode).toBe(200);
    await staff.post('/api/setup/helpTexts/helpTextSave', {
      StateName: 'Samples.Tooltip.Price',
      Title: 'Price',
      Content: 'The price per item.',
    });
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.get('/api/help/tooltips/samples')).json()).toEqual({
      Price: 'The price per item.',
      Quantity: 'How many & of what size.',
    });
    expect((await staff.get('/api/help/tooltips/nothing')).statusCode).toBe(404);
    // Another association reads its own (none written): the declared ones.
    const otherTenant = await seedTenant(ctx.database);
    const stranger = client(ctx.app, (await signIn(ctx.app, otherTenant.staff)).cookie);
    expect((await stranger.get('/api/help/tooltips/samples')).json()).toEqual(declared);
  });
});

describe('tenant settings', () => {
  const get = '/api/settings/tenantSettings/tenantSettingsGet';
  const save = '/api/settings/tenantSettings/tenantSettingsSave';
  it('are edited one way, through the generic single-record screen: validated, saved, carried by the identity', async () => {
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const current = (await admin.post(get, {})).json();
    expect(current).toMatchObject({
      ListPageSize: 50,
      DefaultTimezone: 'America/Chicago',
      WebsitePrefix: 'http://',
    });
    const bad = await admin.post(save, { ...current, DefaultTimezone: 'Mars/Base', ListPageSize: 0 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['ListPageSize', 'DefaultTimezone']),
    );
    // The trial's end is set by sign-up, not by the form: a save keeps it.
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update tenants set settings = settings || '{"trialEndsAt":"2030-01-01T00:00:00.000Z"}'::jsonb`,
      ),
    );
    const reread = (await admin.post(get, {})).json();
    expect((await admin.post(save, { ...reread, Currency: 'XYZ' })).statusCode).toBe(400);
    const saved = await admin.post(save, {
      ...reread,
      Name: 'Renamed Association',
      ListPageSize: 25,
      DefaultTimezone: 'Europe/Paris',
      Currency: 'EUR',
      Address: '12 Rue de Rivoli\n75004 Paris',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const me = (await admin.get('/api/auth/me')).json();
    expect(me.tenant.name).toBe('Renamed Association');
    expect(me.tenant.settings).toMatchObject({
      listPageSize: 25,
      defaultTimezone: 'Europe/Paris',
      currency: 'EUR',
      address: '12 Rue de Rivoli\n75004 Paris',
      trialEndsAt: '2030-01-01T00:00:00.000Z',
    });
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    expect((await staff.post(get, {})).statusCode).toBe(403);
    // The older pair of routes is gone: one way to edit the settings.
    expect((await admin.get('/api/settings/tenant')).statusCode).toBe(404);
  });
});

describe('feature flags', () => {
  it('are set per user and read through me', async () => {
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const res = await admin.put(`/api/users/${t.staff.id}/feature-flags`, {
      flags: { betaDashboard: true, outbox: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().featureFlags).toMatchObject({ betaDashboard: true, outbox: false, auditLog: true });
    const me = (await signIn(ctx.app, t.staff)).me;
    expect(me.featureFlags).toMatchObject({ betaDashboard: true, outbox: false });
    expect(
      (await admin.put(`/api/users/${t.staff.id}/feature-flags`, { flags: { notAFlag: true } })).statusCode,
    ).toBe(400);
  });
});
