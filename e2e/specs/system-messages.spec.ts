/**
 * System messages and deliverability in the browser (issue 18): staff reword a system message (the task reminder),
 * preview it with sample values and restore the default; a contact whose address bounced hard shows it on the
 * record's Communications tab (the alert, the bounced message in the history), and staff send to it again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowsOf, withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile } from '../support/suite.ts';

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });
const fixtures = join(import.meta.dirname, '../../packages/server/test/fixtures/dsn');

const run = bootForFile();

describe('system messages', () => {
  it('rewords a message, previews it with sample values, and restores the default', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.getByRole('link', { name: 'System messages' }).first().click();
    const table = page.getByRole('table', { name: 'System messages' });
    const row = table.getByRole('row').filter({ hasText: 'Task reminder' });
    await row.getByText('Default').waitFor();
    await row.getByRole('link', { name: 'Task reminder' }).click();
    await page.waitForURL(/\/a\/system-messages\/tasks\.reminder$/);

    const subject = page.getByRole('textbox', { name: 'Subject' });
    await poll(() => subject.inputValue()).toBe('Your tasks: {{Reminder.Summary}}');
    await subject.fill('Still to do: {{Reminder.Summary}}');
    const editor = page.getByRole('textbox', { name: 'Message' });
    await editor.locator('.gh-merge-chip').first().waitFor();
    await editor.locator('p').first().click();
    await page.keyboard.press('Home');
    await page.keyboard.type('Good morning. ');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /saved/i }).waitFor();

    await page.getByRole('button', { name: 'Preview with sample values' }).click();
    await page.getByText('Still to do: 2 overdue, 1 due today').waitFor();
    const frame = page.frameLocator('iframe[title="Preview of the message"]');
    await frame.getByText(/Good morning\. Hello Ada Lovelace/).waitFor();

    // The list says it is reworded; the default comes back.
    await page.getByRole('link', { name: 'System messages' }).first().click();
    await table
      .getByRole('row')
      .filter({ hasText: 'Task reminder' })
      .getByText(/Reworded/)
      .waitFor();
    await table.getByRole('link', { name: 'Task reminder' }).click();
    await poll(() => subject.inputValue()).toBe('Still to do: {{Reminder.Summary}}');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Restore the default' }).click();
    await poll(() => subject.inputValue()).toBe('Your tasks: {{Reminder.Summary}}');
    const saved = await page.request.get('/api/communication/system-templates/tasks.reminder');
    expect(((await saved.json()) as { IsCustomized: boolean }).IsCustomized).toBe(false);
    await context.close();
  });
});

describe('deliverability', () => {
  it('a hard bounce shows on the contact’s Communications tab; staff send to the address again', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const made = await page.request.post('/api/contacts/contacts/contactSave', {
      data: {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Bo',
        LastName: 'Bouncer',
        Email: 'bo.bouncer@example.org',
      },
    });
    const contactId = ((await made.json()) as { Data: { ContactId: number } }).Data.ContactId;
    const created = await page.request.post('/api/communication/mailings', {
      data: {
        Name: 'Spring news',
        Subject: 'Spring news',
        BodyHtml: '<p>Hello</p>',
        Audience: { Kind: 'contacts', ContactIds: [contactId] },
      },
    });
    const mailingId = ((await created.json()) as { MailingId: number }).MailingId;
    await page.request.post(`/api/communication/mailings/${mailingId}/send`, { data: {} });
    await poll(
      async () =>
        (
          (await (await page.request.get(`/api/communication/mailings/${mailingId}`)).json()) as {
            Status: string;
          }
        ).Status,
    ).toBe('sent');

    // The mail server hands back a DSN sent to the recipient's VERP address.
    const [r] = await withTenantTx(run.database.db, { tenantId: t.tenant.id }, async (tx) =>
      rowsOf<{ token: string }>(
        await tx.execute(
          sql`select token from mailing_recipients where tenant_id = ${t.tenant.id} and mailing_id = ${mailingId}`,
        ),
      ),
    );
    const raw = readFileSync(join(fixtures, 'postfix-hard-user-unknown.eml'), 'utf8')
      .replaceAll('{{TENANT}}', t.tenant.id)
      .replaceAll('{{TOKEN}}', r?.token as string)
      .replaceAll('{{EMAIL}}', 'bo.bouncer@example.org')
      .replace(/\r?\n/g, '\r\n');
    const dsn = await page.request.post('/api/communication/bounces', {
      headers: { 'content-type': 'message/rfc822' },
      data: raw,
    });
    expect(dsn.status(), await dsn.text()).toBe(200);

    await page.goto(`/micronet/list/contacts/contacts/${contactId}?tab=communications`);
    const alert = page.getByRole('status').filter({ hasText: 'Mailings skip this address' });
    await alert.getByText(/bo\.bouncer@example\.org bounced on .*5\.1\.1/).waitFor();
    await alert.getByText('Hard bounces: 1 · soft bounces: 0').waitFor();
    await page
      .getByRole('table', { name: 'Communication history' })
      .getByRole('row')
      .filter({ hasText: 'Spring news' })
      .filter({ hasText: 'bounced' })
      .waitFor();

    await alert.getByRole('button', { name: 'Send to this address again' }).click();
    await alert.waitFor({ state: 'detached' });
    // Still counted, no longer skipped.
    await page.getByRole('status').filter({ hasText: 'Delivery problems' }).waitFor();
    const d = await page.request.get(`/api/communication/contacts/${contactId}/deliverability`);
    expect(((await d.json()) as { Suppressed: unknown }).Suppressed).toBeNull();
    await context.close();
  });
});
