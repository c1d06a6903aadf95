/**
 * The member area's invoices: a member finds their invoices from the home page, opens one, downloads its PDF, has
 * a declined card refused with the gateway's message, then pays the invoice by card through the test gateway and
 * sees it paid, with the payment in their account; the home page says what they owe before and after.
 */
import { readFileSync } from 'node:fs';
import { q, runFragment, withTenantTx } from '@guildhall/db';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { makeContact, useTestGateway } from '../../packages/server/src/features/billing/billing.fixtures.ts';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, poll } from '../support/suite.ts';

const run = bootForFile();

describe('member invoices', () => {
  it('a member opens an invoice, downloads its PDF, and pays it by card after a decline', async () => {
    const { t, page: admin } = await signedInAdmin(run);
    const contactId = await makeContact(run.database, t.tenant.id, 'Zofia Wróbel');
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      runFragment(
        tx,
        q`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${contactId}`,
      ),
    );
    await useTestGateway(run.database, t.tenant.id);
    const issue = async (description: string, cents: number) => {
      const res = await admin.request.post('/api/billing/invoices/issue', {
        data: { contactId, lines: [{ description, unitPriceCents: cents, quantity: 1 }] },
      });
      if (!res.ok()) throw new Error(await res.text());
      return (await res.json()) as { invoiceId: number; number: string };
    };
    await issue('Spring workshop', 4_000);
    const dues = await issue('Annual membership dues', 12_500);

    const { page } = await run.newPage({ width: 1280, height: 900 });
    await signInAs(page, t.member.username, t.member.password);
    await page.waitForURL(/\/m\/?$/);
    // The home says what the member has in each place: what they owe, their membership, their next event.
    await poll(() => page.getByTestId('home-summary-invoices').textContent()).toBe(
      'You owe $165.00 on 2 invoices.',
    );
    await poll(() => page.getByTestId('home-summary-membership').textContent()).toBe(
      'You have no membership yet.',
    );
    await poll(() => page.getByTestId('home-summary-events').textContent()).toBe(
      'No upcoming registrations.',
    );
    await page.getByRole('link', { name: 'View your invoices' }).click();
    const list = page.getByRole('table', { name: 'Your invoices' });
    await list.waitFor();
    expect(await list.textContent()).toContain(dues.number);
    await page.getByText('$165.00').first().waitFor();

    await list.getByRole('link', { name: dues.number, exact: true }).click();
    await page.getByRole('heading', { name: `Invoice ${dues.number}` }).waitFor();
    expect(await page.getByRole('table', { name: 'Invoice lines' }).textContent()).toContain(
      'Annual membership dues',
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Invoice ${dues.number}.pdf`);
    const bytes = readFileSync((await download.path()) as string);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    expect(text).toContain('Zofia Wróbel');
    expect(text).toContain('$125.00');

    const form = page.getByRole('region', { name: 'Pay $125.00 by card' });
    await form.getByLabel('Card number').fill('4000 0000 0000 0002');
    await form.getByLabel('Expiry (MM/YY)').fill('12/30');
    await form.getByLabel('Security code').fill('123');
    await form.getByRole('button', { name: 'Pay $125.00' }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'Payment refused' }).textContent()).toContain(
      'Your card was declined.',
    );

    await form.getByLabel('Card number').fill('4242 4242 4242 4242');
    await form.getByRole('button', { name: 'Pay $125.00' }).click();
    await page.getByTestId('invoice-status').filter({ hasText: 'Paid' }).waitFor();
    expect(await page.getByRole('table', { name: 'Invoice totals' }).textContent()).toContain(
      'Balance due$0.00',
    );
    await page.getByRole('link', { name: '← Your invoices' }).click();
    const payments = page.getByRole('table', { name: 'Your payments' });
    await payments.waitFor();
    // Dated as every date of the product reads, in the association's zone.
    expect(await payments.textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}Card\$125\.00$/);
    await page.getByText('$40.00').first().waitFor();
    await page.goto('/m');
    await poll(() => page.getByTestId('home-summary-invoices').textContent()).toBe(
      'You owe $40.00 on 1 invoice.',
    );
  });
});
