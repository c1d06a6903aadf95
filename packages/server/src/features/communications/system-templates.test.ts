/**
 * System messages (decision 0154): the product's transactional mail in the association's wording. The list shows
 * each declared message with its default; staff reword one (sanitized, only its own values), and the feature's next
 * message uses the new wording, for that association only; restoring the default brings the product's text back.
 * Through the password reset, whose link stays out of the outbox.
 */
import { mailOutbox, withTenantTx } from '@guildhall/db';
import { desc, eq } from 'drizzle-orm';
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
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;

async function lastMail(tenantId: string, to: string) {
  await ctx.app.background.settled();
  const [row] = await withTenantTx(ctx.database.db, { tenantId }, (tx) =>
    tx.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id)).limit(1),
  );
  return row;
}

async function reset(c: ReturnType<typeof client>, userId: number) {
  const res = await c.post(`/api/users/${userId}/send-password-reset`, {});
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
});
afterAll(async () => {
  await ctx.close();
});

describe('system messages', () => {
  it('lists each declared message with its default wording and the values it offers', async () => {
    const list = (await api.get('/api/communication/system-templates')).json() as {
      Key: string;
      IsCustomized: boolean;
      BodyHtml: string;
      Subject: string;
    }[];
    const keys = list.map((x) => x.Key);
    expect(keys).toEqual(expect.arrayContaining(['auth.passwordReset', 'users.staffInvitation']));
    const reset = list.find((x) => x.Key === 'auth.passwordReset');
    expect(reset).toMatchObject({ IsCustomized: false, Subject: 'Choose a new password' });
    expect(reset?.BodyHtml).toContain('data-merge-field="User.DisplayName"');
    expect(reset?.BodyHtml).toContain('href="merge:Reset.Link"');
    const fields = (await api.get('/api/communication/mergefields/1/3/system:auth.passwordReset')).json() as {
      Name: string;
    }[];
    expect(fields.map((f) => f.Name)).toEqual([
      'User.DisplayName',
      'User.Username',
      'Reset.Link',
      'Association.Name',
      'Association.Website',
    ]);
    const chip = await api.post('/api/communication/resolvemergefield/User.DisplayName', {
      Default: 'there',
    });
    expect(chip.statusCode, chip.body).toBe(200);
    expect((await api.get('/api/communication/system-templates/nope')).statusCode).toBe(404);
  });

  it('an edited message changes the mail the feature sends, for that association only; the default comes back', async () => {
    // The default first.
    await reset(api, t.staff.id);
    const before = await lastMail(t.tenant.id, `${t.staff.username}@example.org`);
    expect(before?.subject).toBe('Choose a new password');
    expect(before?.text).toMatch(/^Hello \S+/);

    // A value the message does not offer is refused; a script is dropped.
    const chipOf = (name: string) =>
      `<span data-merge-field="${name}" data-merge-params="{&quot;Default&quot;:&quot;&quot;}">${name}</span>`;
    const refused = await api.put('/api/communication/system-templates/auth.passwordReset', {
      Subject: 'x',
      BodyHtml: `<p>${chipOf('Invoice.Number')}</p>`,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('Merge field "Invoice.Number" is not available');
    const badSubject = await api.put('/api/communication/system-templates/auth.passwordReset', {
      Subject: 'Hi {{Contact.Nope}}',
      BodyHtml: '<p>x</p>',
    });
    expect(badSubject.statusCode).toBe(400);

    const saved = await api.put('/api/communication/system-templates/auth.passwordReset', {
      Subject: 'Your {{Association.Name}} password',
      BodyHtml: `<p>Bonjour ${chipOf('User.DisplayName')} !</p><p><a href="merge:Reset.Link">Nouveau mot de passe</a></p><script>alert(1)</script>`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ IsCustomized: true });
    expect(saved.json().BodyHtml).not.toContain('<script');

    const preview = await api.post('/api/communication/system-templates/auth.passwordReset/preview');
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().Subject).toBe(`Your ${t.tenant.name} password`);
    expect(preview.json().Html).toContain('Bonjour Ada Lovelace !');

    await reset(api, t.staff.id);
    const after = await lastMail(t.tenant.id, `${t.staff.username}@example.org`);
    expect(after?.subject).toBe(`Your ${t.tenant.name} password`);
    expect(after?.html).toMatch(/Bonjour [^<]+ !/);
    expect(after?.html).toContain('Nouveau mot de passe');
    // The link's token travels only in the delivery.
    expect(after?.html).toContain('[hidden: sent to the recipient only]');
    expect(after?.html).not.toMatch(/token=[A-Za-z0-9_-]{20,}/);

    // Another association keeps the product's wording.
    await reset(apiOther, other.staff.id);
    expect((await lastMail(other.tenant.id, `${other.staff.username}@example.org`))?.subject).toBe(
      'Choose a new password',
    );
    expect(
      (await apiOther.get('/api/communication/system-templates/auth.passwordReset')).json().IsCustomized,
    ).toBe(false);

    // Back to the default.
    const restored = await api.delete('/api/communication/system-templates/auth.passwordReset');
    expect(restored.json()).toMatchObject({ IsCustomized: false, Subject: 'Choose a new password' });
    await reset(api, t.staff.id);
    expect((await lastMail(t.tenant.id, `${t.staff.username}@example.org`))?.subject).toBe(
      'Choose a new password',
    );
  });
});
