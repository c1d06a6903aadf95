/**
 * Billing as staff and members see it: an invoice's record with the invoice as a document, its PDF downloaded from
 * the record's header (a name like Łukasz Żółć comes back whole from the PDF's text) and sent by mail with the PDF
 * attached (kept in the outbox with the attachment's name).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { q, runFragment, withTenantTx } from '@guildhall/db';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../pages/sign-in.ts';
import { unique } from '../support/seed.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

const SHOTS = process.env.BILLING_SHOTS ?? '';
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function post<T>(page: Page, path: string, data: Record<string, unknown>): Promise<T> {
  const res = await page.request.post(path, { data });
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

async function contact(page: Page, first: string, last: string, email: string | null = null) {
  const saved = await post<{ Data: { ContactId: number } }>(page, '/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: first,
    LastName: last,
    ...(email ? { Email: email } : {}),
  });
  return saved.Data.ContactId;
}

async function invoice(page: Page, contactId: number, lines: Record<string, unknown>[]) {
  return post<{ invoiceId: number; number: string; totalCents: number }>(
    page,
    '/api/billing/invoices/issue',
    {
      contactId,
      lines,
    },
  );
}

describe('invoices', () => {
  it('shows the invoice, downloads its PDF with the Unicode name intact, and sends it by mail', async () => {
    const { page } = await signedInAdmin(run, { width: 1280, height: 900 });
    const last = `Żółć ${unique('')}`;
    const contactId = await contact(page, 'Łukasz', last);
    const inv = await invoice(page, contactId, [
      { description: 'Annual membership dues', unitPriceCents: 12_000, quantity: 1, discountCents: 1_000 },
      { description: 'Conference ticket', unitPriceCents: 4_500, quantity: 2 },
    ]);

    await page.goto(`/micronet/list/billing/invoices/${inv.invoiceId}?tab=invoice`);
    const lines = page.getByRole('table', { name: 'Invoice lines' });
    await lines.waitFor();
    expect(await lines.textContent()).toContain('Conference ticket');
    expect(await page.getByRole('table', { name: 'Invoice totals' }).textContent()).toContain('$200.00');
    await shot(page, 'invoice-record');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Invoice ${inv.number}.pdf`);
    const bytes = readFileSync((await download.path()) as string);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    expect(text).toContain(`Łukasz ${last}`);
    expect(text).toContain('Balance due');
    expect(text).toContain('$200.00');

    await page.getByRole('button', { name: 'Send by mail…' }).click();
    const dialog = page.getByRole('dialog', { name: `Send invoice ${inv.number}` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Send the invoice' }).click();
    // The contact has no address: the dialog says so and asks for one.
    await dialog.getByText('This contact has no email address').waitFor();
    await dialog.getByLabel('To').fill('lukasz@example.org');
    await dialog.getByLabel('Message').fill('Dziękujemy!');
    await shot(page, 'invoice-send');
    await dialog.getByRole('button', { name: 'Send the invoice' }).click();
    await page.getByText('Invoice sent to lukasz@example.org').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    await expect
      .poll(async () => {
        const outbox = (await (await page.request.get('/api/mail/outbox')).json()) as {
          id: number;
          subject: string;
        }[];
        return outbox.find((m) => m.subject.includes(inv.number))?.id ?? null;
      })
      .not.toBeNull();
    const outbox = (await (await page.request.get('/api/mail/outbox')).json()) as {
      id: number;
      subject: string;
    }[];
    const id = outbox.find((m) => m.subject.includes(inv.number))?.id;
    await page.goto(`/a/outbox/${id}`);
    await page.getByText(`Invoice ${inv.number}.pdf`).waitFor();
    await shot(page, 'invoice-outbox');
  });
});

describe('payments and deposits', () => {
  it('takes a check against two invoices, refunds part of it, and deposits it', async () => {
    const { page } = await signedInAdmin(run, { width: 1280, height: 900 });
    const last = unique('Payer');
    const contactId = await contact(page, 'Grace', last);
    const a = await invoice(page, contactId, [
      { description: 'Annual dues', unitPriceCents: 12_000, quantity: 1 },
    ]);
    const b = await invoice(page, contactId, [
      { description: 'Gala ticket', unitPriceCents: 8_000, quantity: 1 },
    ]);

    await page.goto(`/a/billing/payments/record?contact=${contactId}`);
    await page.getByRole('table', { name: 'Open invoices' }).waitFor();
    await page.getByLabel('Amount received').fill('250');
    await page.getByLabel('Check number').fill('5150');
    await page.getByRole('button', { name: 'Apply oldest first' }).click();
    await expect.poll(() => page.getByTestId('applied-total').textContent()).toBe('$200.00');
    expect(await page.getByTestId('left-total').textContent()).toBe('$50.00');
    await shot(page, 'record-payment');
    await page.getByRole('button', { name: 'Record the payment' }).click();
    await page.waitForURL(/\/micronet\/list\/billing\/payments\/\d+/, { timeout: 15_000 });
    const paymentId = Number(page.url().match(/payments\/(\d+)/)?.[1]);
    for (const inv of [a, b]) {
      const detail = await (await page.request.get(`/api/billing/invoices/${inv.invoiceId}`)).json();
      expect(detail.status).toBe('paid');
    }

    // Refund: more than was paid is refused by the refund rule; part of it goes through.
    await page.getByRole('button', { name: 'Refund…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund the payment' });
    await dialog.getByLabel('Amount to refund').fill('300');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.locator('.mantine-TextInput-error').waitFor();
    await shot(page, 'refund-refused');
    await dialog.getByLabel('Amount to refund').fill('70');
    await dialog.getByLabel('Reason').fill('Gala cancelled');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const payment = await (await page.request.get(`/api/billing/payments/${paymentId}`)).json();
    expect(payment.refundedCents).toBe(7_000);
    // $50 was unapplied; the rest is freed by taking back the newest invoice's application, which owes again.
    const gala = await (await page.request.get(`/api/billing/invoices/${b.invoiceId}`)).json();
    expect(gala.status).toBe('open');
    expect(payment.unappliedCents).toBe(6_000);

    await page.goto('/a/billing/deposits/make');
    await page.getByRole('table', { name: 'Undeposited payments' }).waitFor();
    await page.getByRole('checkbox', { name: `Deposit payment ${paymentId} from` }).check();
    expect(await page.getByTestId('deposit-total').textContent()).toBe('$180.00');
    await page.getByLabel('Slip reference').fill('Slip 0042');
    await shot(page, 'make-deposit');
    await page.getByRole('button', { name: 'Make the deposit' }).click();
    await page.waitForURL(/\/micronet\/list\/billing\/deposits\/\d+/, { timeout: 15_000 });
    const after = await (await page.request.get(`/api/billing/payments/${paymentId}`)).json();
    expect(after.depositId).not.toBeNull();

    // The deposit's record prints its slip: the check, its number and the total.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download slip' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Deposit slip ${after.depositId}.pdf`);
    const slip = readFileSync((await download.path()) as string);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(slip)), { mergePages: true });
    expect(text).toContain('DEPOSIT SLIP');
    expect(text).toContain('Slip 0042');
    expect(text).toContain('$180.00');
    expect(await page.getByRole('link', { name: 'Print deposit slip' }).getAttribute('href')).toBe(
      `/api/billing/deposits/${after.depositId}/slip?open=true`,
    );
  });
});

describe('billing reports', () => {
  it('ages what is owed by days past due, and shows revenue by account and month', async () => {
    const { page } = await signedInAdmin(run, { width: 1280, height: 900 });
    const contactId = await contact(page, 'Olga', `Nowak ${unique('')}`);
    const issue = (cents: number, issueDate: string, dueDate: string) =>
      post(page, '/api/billing/invoices/issue', {
        contactId,
        issueDate,
        dueDate,
        lines: [{ description: 'Dues', unitPriceCents: cents, quantity: 1 }],
      });
    await issue(10_000, '2026-01-05', '2026-02-04');
    await issue(2_500, '2026-03-01', '2026-03-31');
    await page.goto('/a/billing/reports');
    const aging = page.getByRole('table', { name: 'Aging totals' });
    await aging.waitFor();
    // A typed day counts once the field is left, as in every date field of the product.
    await page.getByLabel('As of').fill('4/15/2026');
    await page.getByLabel('As of').blur();
    // On April 15: the March invoice is 15 days late, the January one 70.
    await page.getByRole('table', { name: 'Aging by contact' }).getByText('Olga', { exact: false }).waitFor();
    const cells = await aging.getByRole('cell').allTextContents();
    expect(cells).toEqual(['$0.00', '$25.00', '$0.00', '$100.00', '$0.00', '$125.00']);
    // A day that is not one is said so, and asks for nothing.
    await page.getByLabel('From').fill('2026-01-01');
    await page.getByLabel('From').blur();
    await page.getByText('Enter the date as month/day/year, for example 3/31/2026.').waitFor();
    await page.getByLabel('From').fill('1/1/2026');
    await page.getByLabel('From').blur();
    await page.getByLabel('To', { exact: true }).fill('03/31/2026');
    await page.getByLabel('To', { exact: true }).blur();
    const revenue = page.getByRole('table', { name: 'Revenue by account and month' });
    await revenue.getByRole('columnheader', { name: 'Mar 2026' }).waitFor();
    expect(await revenue.textContent()).toContain('$125.00');
    // The period as one of the date-range options of the lists' filters: This Year replaces the From and To days.
    const year = new Date().getFullYear();
    await page
      .getByRole('combobox', { name: 'Period' })
      .or(page.getByRole('textbox', { name: 'Period' }))
      .click();
    await page.getByRole('option', { name: 'This Year', exact: true }).click();
    await page.getByTestId('revenue-period').getByText(`From 01/01/${year} to 12/31/${year}.`).waitFor();
    expect(await page.getByLabel('From').count()).toBe(0);
    await revenue.getByRole('columnheader', { name: `Dec ${year}` }).waitFor();
    expect(await revenue.textContent()).toContain('$125.00');
    await shot(page, 'billing-reports');
  });
});

describe('create invoices from file', () => {
  it('from the invoices list: refuses a file that is not a CSV, shows refused rows with why, creates the rest', async () => {
    const { t, page, context } = await signedInAdmin(run, { width: 1280, height: 900 });
    // This association keeps its books in euros: the amounts show in euros.
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      runFragment(
        tx,
        q`update tenants set settings = settings || '{"currency":"EUR"}'::jsonb where id = ${t.tenant.id}`,
      ),
    );
    const tag = unique('Csv')
      .replace(/[^A-Za-z0-9]/g, '')
      .toLowerCase();
    const last = `Żółć${tag}`;
    await contact(page, 'Łukasz', last, `lukasz.${tag}@example.org`);
    await contact(page, 'Ada', last, `ada.${tag}@example.org`);

    await page.goto('/micronet/list/billing/invoices');
    await page.getByRole('button', { name: 'Create invoices from file…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create invoices from file' });
    await dialog.waitFor();
    const choose = (name: string, bytes: Buffer | string, mimeType = 'text/csv') =>
      dialog.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer: Buffer.from(bytes) });

    // A PDF named .csv is refused with the reason, and the dialog stays on the file step.
    await choose('dues.csv', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 0x20)]));
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/This file cannot be used.*not a CSV text file/);
    await shot(page, 'invoice-import-refused-file');

    // A file with two invoices (one of two lines) and a row for nobody, refused with its line and reason.
    await choose(
      `${tag}.csv`,
      [
        'Email,Reference,Item,Qty,Unit price,Due date',
        `lukasz.${tag}@example.org,GALA,Gala ticket,2,45.00,2026-12-31`,
        `ada.${tag}@example.org,,Annual dues,1,120,2026-12-15`,
        `nobody.${tag}@example.org,,Annual dues,1,120,`,
        `lukasz.${tag}@example.org,GALA,Gala dinner wine,1,"1,000.50",2026-12-31`,
      ].join('\n'),
    );
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText(`Match the columns (4 rows in ${tag}.csv)`).waitFor();
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    const refused = dialog.getByRole('table', { name: 'Refused rows' });
    await refused.waitFor();
    const row = refused.getByRole('row').filter({ hasText: 'nobody' });
    expect(await row.getByRole('cell').first().textContent()).toBe('4');
    expect(await row.textContent()).toContain(`No contact has the email nobody.${tag}@example.org.`);
    const planned = dialog.getByRole('table', { name: 'Invoices to create' });
    expect(await planned.textContent()).toContain('€1,090.50');
    expect(await planned.textContent()).toContain(`${last}, Ada`);
    await dialog.getByText('1 row refused').waitFor();
    await shot(page, 'invoice-import-check');

    await dialog.getByRole('button', { name: 'Create 2 invoices' }).click();
    await dialog.getByText('Created 2 invoices. 1 refused row was left out.').waitFor({ timeout: 30_000 });
    await shot(page, 'invoice-import-done');
    await dialog.getByRole('button', { name: 'Show the invoices' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByLabel('Search invoices').fill(last);
    await expect
      .poll(async () => page.getByRole('row').filter({ hasText: last }).count(), { timeout: 10_000 })
      .toBe(2);
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: `${last}, Łukasz` })
        .textContent(),
    ).toContain('€1,090.50');
    await context.close();
  });
});
