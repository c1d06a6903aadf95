/**
 * Transactional mail (system messages) delivered by SMTP like a mailing's: a VERP return path naming its own log
 * row, so a bounce of a password reset is recorded and suppresses the address; the task reminder is a system
 * message too, in the association's wording, its tasks listed. The self-service reset and the staff invitation (and
 * its resend) are system messages logged the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailingRecipients, mailSuppressions, membershipReminders, withTenantTx } from '@guildhall/db';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signedIn } from '../../../test/fixtures/api.ts';
import { saveContact } from '../../../test/fixtures/contacts.ts';
import { type RecordingSmtp, startRecordingSmtp } from '../../../test/fixtures/mail.ts';
import { seedTenant, type TenantWithUsers, type TestContext, testApp } from '../../../test/helpers.ts';
import { sendRenewalReminders } from '../memberships/memberships.reminders.ts';
import { sendReminders } from '../tasks/tasks.service.ts';

const fixtures = join(import.meta.dirname, '../../../test/fixtures/dsn');
let smtp: RecordingSmtp;
let ctx: TestContext;
let t: TenantWithUsers;
let api: Api;

beforeAll(async () => {
  // Refuses `bounce.…` for good and defers `defer.…` once; every other address is taken.
  smtp = await startRecordingSmtp({ refusals: true });
  ctx = await testApp({ smtpUrl: smtp.url, mailFrom: 'Guildhall <no-reply@guildhall.test>' });
  t = await seedTenant(ctx.database);
  api = await signedIn(ctx.app, t.admin);
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** The transactional log rows (no mailing) to an address. */
async function logOf(email: string) {
  return withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
    tx
      .select()
      .from(mailingRecipients)
      .where(and(isNull(mailingRecipients.mailingId), eq(mailingRecipients.email, email.toLowerCase())))
      .orderBy(mailingRecipients.recipientId),
  );
}

describe('transactional mail', () => {
  it('a password reset carries a VERP return path; its bounce is recorded and suppresses the address', async () => {
    const email = `${t.staff.username}@example.org`;
    // The staff user is a contact of the association too: the message shows in the contact's history.
    const made = await saveContact(api, {
      FirstName: 'Staff',
      LastName: 'Member',
      Email: email.toUpperCase(),
    });
    const contactId = made.ContactId as number;
    const res = await api.post(`/api/users/${t.staff.id}/send-password-reset`, {});
    expect(res.statusCode, res.body).toBe(200);
    await ctx.app.background.settled();
    const mail = smtp.to(email);
    expect(mail).toHaveLength(1);
    const [row] = await logOf(email);
    expect(row).toMatchObject({ status: 'sent', subject: 'Choose a new password', attempts: 1 });
    expect(mail[0]?.from).toBe(`bounces+${t.tenant.id}.${row?.token}@guildhall.test`);
    expect((await api.get(`/api/communication/contacts/${contactId}/history`)).json()).toEqual([
      expect.objectContaining({ MailingId: null, Subject: 'Choose a new password', Status: 'sent' }),
    ]);

    // The DSN returned to that address.
    const raw = readFileSync(join(fixtures, 'postfix-hard-user-unknown.eml'), 'utf8')
      .replaceAll('{{TENANT}}', t.tenant.id)
      .replaceAll('{{TOKEN}}', row?.token as string)
      .replaceAll('{{EMAIL}}', email)
      .replace(/\r?\n/g, '\r\n');
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/communication/bounces',
      headers: { 'content-type': 'message/rfc822' },
      payload: raw,
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ Matched: true, Hard: 1 });
    expect((await logOf(email))[0]?.status).toBe('bounced');
    const notice = (await api.get(`/api/communication/contacts/${contactId}/deliverability`)).json();
    expect(notice).toMatchObject({ HardBounces: 1, Suppressed: { Reason: 'bounced' } });
    const suppressed = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.select().from(mailSuppressions).where(eq(mailSuppressions.email, email.toLowerCase())),
    );
    expect(suppressed).toEqual([expect.objectContaining({ reason: 'bounced' })]);
  });

  it('the self-service reset, a staff invitation and its resend go out in the association’s wording, each logged with its own return path', async () => {
    // The association's wording of the reset: the self-service request (no one signed in) uses it too.
    const reworded = await api.put('/api/communication/system-templates/auth.passwordReset', {
      Subject: 'Your {{Association.Name}} password',
      BodyHtml: '<p><a href="merge:Reset.Link">Choose it here</a></p>',
    });
    expect(reworded.statusCode, reworded.body).toBe(200);
    const adminEmail = `${t.admin.username}@example.org`;
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { usernameOrEmail: t.admin.username },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    await ctx.app.background.settled();
    const resetMail = smtp.to(adminEmail);
    expect(resetMail).toHaveLength(1);
    expect(resetMail[0]?.data).toContain(`Subject: Your ${t.tenant.name} password`);
    expect(resetMail[0]?.data).toContain('Choose it here');
    const [resetRow] = await logOf(adminEmail);
    expect(resetRow).toMatchObject({
      status: 'sent',
      subject: `Your ${t.tenant.name} password`,
      attempts: 1,
    });
    expect(resetMail[0]?.from).toBe(`bounces+${t.tenant.id}.${resetRow?.token}@guildhall.test`);
    await api.delete('/api/communication/system-templates/auth.passwordReset');

    // The staff invitation and its resend: two messages, two log rows, each with its own return path.
    const invited = `invited.${Date.now()}@example.org`;
    const sent = await api.post('/api/users/invitations/invite', {
      Email: invited,
      DisplayName: 'Noor Haddad',
      Role: 'staff',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const pending = (await api.get('/api/users/invitations')).json() as {
      invitationId: number;
      email: string;
    }[];
    const invitationId = pending.find((i) => i.email === invited)?.invitationId as number;
    const resent = await api.post(`/api/users/invitations/${invitationId}/resend`, {});
    expect(resent.statusCode, resent.body).toBe(200);
    await ctx.app.background.settled();
    const invitations = smtp.to(invited);
    expect(invitations).toHaveLength(2);
    const rows = await logOf(invited);
    expect(rows).toEqual([
      expect.objectContaining({
        status: 'sent',
        subject: `You are invited to ${t.tenant.name}`,
        mailingId: null,
      }),
      expect.objectContaining({
        status: 'sent',
        subject: `You are invited to ${t.tenant.name}`,
        mailingId: null,
      }),
    ]);
    expect(invitations.map((m) => m.from)).toEqual(
      rows.map((r) => `bounces+${t.tenant.id}.${r.token}@guildhall.test`),
    );
    expect(rows[0]?.token).not.toBe(rows[1]?.token);
  });

  it('a system message the SMTP server refuses for good is logged bounced and suppresses the address; refused for now, failed', async () => {
    const invite = async (email: string) => {
      const res = await api.post('/api/users/invitations/invite', {
        Email: email,
        DisplayName: 'Sam Lee',
        Role: 'staff',
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const hard = `bounce.${Date.now()}@example.org`;
    await invite(hard);
    expect(smtp.to(hard)).toHaveLength(0);
    expect(await logOf(hard)).toEqual([
      expect.objectContaining({ status: 'bounced', lastError: expect.stringContaining('550') }),
    ]);
    const suppressed = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.select().from(mailSuppressions).where(eq(mailSuppressions.email, hard)),
    );
    expect(suppressed).toEqual([expect.objectContaining({ reason: 'bounced' })]);

    const soft = `defer.${Date.now()}@example.org`;
    await invite(soft);
    expect(await logOf(soft)).toEqual([
      expect.objectContaining({ status: 'failed', lastError: expect.stringContaining('450') }),
    ]);
    const notSuppressed = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.select().from(mailSuppressions).where(eq(mailSuppressions.email, soft)),
    );
    expect(notSuppressed).toEqual([]);
  });

  it('the task reminder is a system message in the association’s wording, listing the tasks', async () => {
    const solo = await seedTenant(ctx.database);
    const admin = await signedIn(ctx.app, solo.admin);
    const staff = await signedIn(ctx.app, solo.staff);
    const listed = (await admin.get('/api/communication/system-templates')).json() as { Key: string }[];
    expect(listed.map((x) => x.Key)).toEqual(expect.arrayContaining(['tasks.reminder', 'tasks.mention']));
    const chip = (name: string) =>
      `<span data-merge-field="${name}" data-merge-params="{&quot;Default&quot;:&quot;&quot;}">${name}</span>`;
    const saved = await admin.put('/api/communication/system-templates/tasks.reminder', {
      Subject: 'To do: {{Reminder.Summary}}',
      BodyHtml: `<p>Bonjour ${chip('User.DisplayName')}</p>${chip('Reminder.Tasks')}<p><a href="merge:Reminder.Link">Mes tâches</a></p>`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const now = new Date();
    const made = await staff.post('/api/tasks/tasks/taskSave', {
      Title: 'Renew <the> insurance',
      Status: 'todo',
      Priority: 'high',
      DueAt: new Date(now.getTime() - 86_400_000).toISOString(),
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(await sendReminders(ctx.app.services, ctx.database, solo.tenant.id, now)).toEqual({
      mails: 1,
      tasks: 1,
    });
    const email = `${solo.staff.username}@example.org`;
    const mail = smtp.to(email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.data).toContain('Subject: To do: 1 overdue');
    expect(mail[0]?.data).toMatch(
      /<p><strong>Overdue<\/strong><\/p><ul><li>Renew &lt;the&gt; insurance: due /,
    );
    expect(mail[0]?.data).toContain('href="http://guildhall.test/a/tasks/my"');
    expect(mail[0]?.from).toMatch(
      new RegExp(`^bounces\\+${solo.tenant.id}\\.[0-9a-f]{32}@guildhall\\.test$`),
    );
  });

  it('a membership notice written in its final words goes out as a system message, logged like the others', async () => {
    const email = 'old.notice@example.org';
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.insert(membershipReminders).values({
        tenantId: t.tenant.id,
        membershipId: 999_001,
        termEnd: '2026-12-31',
        kind: 'charge-1',
        sentOn: '2026-11-20',
        email,
        subject: 'Your card is charged today',
        body: 'Hello Ada, your card on file is charged <$120.00> today.',
      }),
    );
    expect(await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id)).toBe(1);
    const mail = smtp.to(email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.data).toContain('Subject: Your card is charged today');
    expect(mail[0]?.data).toContain('your card on file is charged &lt;$120.00&gt; today.');
    expect(mail[0]?.from).toMatch(new RegExp(`^bounces\\+${t.tenant.id}\\.[0-9a-f]{32}@guildhall\\.test$`));
    expect(await logOf(email)).toEqual([
      expect.objectContaining({ status: 'sent', subject: 'Your card is charged today' }),
    ]);
    // Listed with the association's other system messages, so it can be reworded like them.
    const listed = (await api.get('/api/communication/system-templates')).json() as { Key: string }[];
    expect(listed.map((x) => x.Key)).toContain('memberships.notice');
  });
});
