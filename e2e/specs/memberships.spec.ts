/**
 * Memberships as staff see them: the join wizard from the navigation, with every fee priced live and recalculated
 * when the bill frequency changes, then the new membership's record, approved from its header, with its history;
 * the contact's Memberships tab lists it; the renewal run screen's preview, run, progress and results.
 */
import { mkdirSync } from 'node:fs';
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../pages/sign-in.ts';
import { seedTenant, unique } from '../support/seed.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

const SHOTS = process.env.MEMBERSHIPS_SHOTS ?? '';
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function save(page: Page, path: string, model: Record<string, unknown>) {
  const res = await page.request.post(path, { data: model });
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()).Data as Record<string, number>;
}

/** An Individual type priced as decision 0012's example 6, billed annually or monthly at +3 %. */
async function setUp(page: Page) {
  const type = await save(page, '/api/memberships/types/typeSave', {
    Name: 'Individual',
    Description: 'For practising professionals.',
    TermKind: 'anniversary',
    DurationMonths: 12,
    IsActive: true,
  });
  const typeId = type.MembershipTypeId;
  await save(page, '/api/memberships/levels/levelSave', {
    MembershipTypeId: typeId,
    Name: 'Regular',
    SortOrder: 1,
  });
  const fees = [
    { FeeId: 1, Name: 'Annual dues', OriginalPrice: 25_000, BillFrequencyTypeId: 12 },
    { FeeId: 2, Name: 'Processing', OriginalPrice: 0, PerBillAmount: 150, BillFrequencyTypeId: 254 },
    { FeeId: 3, Name: 'Application fee', OriginalPrice: 2_500, BillFrequencyTypeId: 0 },
    { FeeId: 4, Name: 'Chapter fee', OriginalPrice: 3_000, BillFrequencyTypeId: 255 },
  ];
  for (const fee of fees)
    await save(page, '/api/memberships/fees/feeSave', { MembershipTypeId: typeId, ...fee });
  await save(page, '/api/memberships/frequencies/frequencySave', {
    MembershipTypeId: typeId,
    BillFrequencyTypeId: 12,
    Name: 'Annually',
    IsDefault: true,
  });
  await save(page, '/api/memberships/frequencies/frequencySave', {
    MembershipTypeId: typeId,
    BillFrequencyTypeId: 1,
    Name: 'Monthly',
    PriceChangePercentage: '3',
  });
  const last = unique('Lovelace');
  const contact = await save(page, '/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Ada',
    LastName: last,
  });
  return { contactId: contact.ContactId, last };
}

async function choose(page: Page, label: RegExp, option: RegExp, typed?: string) {
  const input = page.getByLabel(label).first();
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

describe('memberships as staff see them', () => {
  it('joins a member through the wizard with live pricing and a bill-frequency change, then approves', async () => {
    const t = await seedTenant(run.database);
    const { page } = await run.newPage({ width: 1280, height: 900 });
    await signInAs(page, t.admin.username, t.admin.password);
    await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
    const { contactId, last } = await setUp(page);

    await page.getByRole('link', { name: 'Join a member' }).first().click();
    await page.getByRole('heading', { name: 'Join a member' }).waitFor();
    await shot(page, 'join-0');
    await choose(page, /^Member/, new RegExp(last), last);
    await choose(page, /^Membership type/, /^Individual$/);
    await choose(page, /^Level/, /^Regular$/);
    await shot(page, 'join-1-membership');
    await page.getByRole('button', { name: 'Next' }).click();

    const table = page.getByTestId('fee-items');
    await table.waitFor();
    await expect.poll(() => page.getByTestId('term-total').textContent()).toBe('$306.50');
    await shot(page, 'join-2-annual');
    await page.getByRole('radio', { name: 'Monthly' }).check();
    // Every item recalculated: dues at +3 % ($257.50, twelve bills of about $21.46), processing on each bill.
    await expect
      .poll(() => page.getByTestId('term-total').textContent(), { timeout: 10_000 })
      .toBe('$330.50');
    const dues = table.getByRole('row', { name: /Annual dues/ });
    expect(await dues.textContent()).toContain('$257.50');
    expect(await dues.textContent()).toContain('$21.46');
    expect(await table.getByRole('row', { name: /Processing/ }).textContent()).toContain('$18.00');
    await shot(page, 'join-2-monthly');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('first-invoice').textContent()).toContain('$77.96');
    await shot(page, 'join-3-review');
    await page.getByRole('button', { name: 'Join', exact: true }).click();

    await page.waitForURL(/\/micronet\/list\/memberships\/memberships\/\d+/, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await shot(page, 'record-pending');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^OK$|^Yes$|^Confirm$/ })
      .click();
    await page.getByRole('button', { name: 'Drop…' }).waitFor({ timeout: 10_000 });
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByText('Approved').first().waitFor();
    await shot(page, 'record-history');

    await page.goto(`/micronet/list/contacts/contacts/${contactId}`);
    await page.getByRole('tab', { name: 'Memberships' }).click();
    await page.getByText('Individual - Regular').first().waitFor();
    await shot(page, 'contact-tab');
  });

  it('a member sees their membership from the member area and turns autopay on', async () => {
    const t = await seedTenant(run.database);
    const staff = await run.newPage({ width: 1280, height: 900 });
    await signInAs(staff.page, t.admin.username, t.admin.password);
    await staff.page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
    const { contactId } = await setUp(staff.page);
    const options = await (await staff.page.request.get('/api/memberships/options')).json();
    const type = options.Types[0];
    const joined = await staff.page.request.post('/api/memberships/join', {
      data: {
        ContactId: contactId,
        MembershipTypeId: type.MembershipTypeId,
        MembershipLevelId: type.Levels[0].MembershipLevelId,
      },
    });
    expect(joined.ok(), await joined.text()).toBe(true);
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id}
        and contact_id = ${contactId}`),
    );

    const { page } = await run.newPage({ width: 1280, height: 900 });
    await signInAs(page, t.member.username, t.member.password);
    await page.waitForURL(/\/m\/?$/, { timeout: 15_000 });
    await expect
      .poll(() => page.getByTestId('home-summary-membership').textContent())
      .toBe('Individual - Regular, pending: it starts once paid or approved.');
    await page.getByRole('link', { name: 'View your membership' }).click();
    await page.getByRole('heading', { name: 'Individual - Regular' }).waitFor();
    expect(await page.getByTestId('my-status').textContent()).toBe('Pending');
    const autopay = page.getByRole('switch', { name: /autopay/ });
    expect(await autopay.isChecked()).toBe(false);
    await autopay.click({ force: true });
    await expect.poll(() => autopay.isChecked()).toBe(true);
    await shot(page, 'member-area');
    await page.reload();
    await page.getByRole('heading', { name: 'Individual - Regular' }).waitFor();
    expect(await page.getByRole('switch', { name: /autopay/ }).isChecked()).toBe(true);
  });
  it('previews the renewals due, runs them and shows what the run made', async () => {
    const t = await seedTenant(run.database);
    const { page } = await run.newPage({ width: 1280, height: 900 });
    await signInAs(page, t.admin.username, t.admin.password);
    await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
    const { contactId, last } = await setUp(page);
    const options = await (await page.request.get('/api/memberships/options')).json();
    const type = options.Types[0];
    const joined = await page.request.post('/api/memberships/join', {
      data: {
        ContactId: contactId,
        MembershipTypeId: type.MembershipTypeId,
        MembershipLevelId: type.Levels[0].MembershipLevelId,
      },
    });
    const membershipId = (await joined.json()).MembershipId as number;
    // Active, its term ending in ten days: due for renewal (invoices are made 30 days before the end).
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`update memberships set status = 'active', term_start = current_date - 355,
          term_end = current_date + 10
        where tenant_id = ${t.tenant.id} and membership_id = ${membershipId}`),
    );

    await page.getByRole('link', { name: 'Renewal run' }).first().click();
    await page.getByRole('heading', { name: 'Renewal run' }).waitFor();
    const preview = page.getByTestId('renewal-preview');
    await preview.getByText(last).waitFor();
    const row = preview.getByRole('row', { name: new RegExp(last) });
    expect(await row.textContent()).toContain('$306.50');
    const invoiceAmount = (await row.locator('td').last().textContent()) ?? '';
    expect(invoiceAmount).toMatch(/^\$\d/);
    await shot(page, 'renewal-preview');
    await page.getByRole('button', { name: 'Run renewals now' }).click();
    const result = page.getByTestId('renewal-run-result');
    await result.getByText('Done').waitFor({ timeout: 20_000 });
    await result.getByText('Renewal invoices').waitFor();
    const invoices = page.getByTestId('renewal-run-invoices');
    await invoices.getByText(last).waitFor();
    expect(await invoices.textContent()).toContain(invoiceAmount);
    await page.getByText('Nothing to renew today').waitFor({ timeout: 10_000 });
    await page.getByTestId('renewal-runs').getByText('Done').first().waitFor();
    await shot(page, 'renewal-run-done');
    await invoices.getByRole('link', { name: /Invoice \d+/ }).click();
    await page.waitForURL(/\/micronet\/list\/billing\/invoices\/\d+/);
  });

  it('upgrades a membership mid-term after previewing the credit and the new invoice', async () => {
    const t = await seedTenant(run.database);
    const { page } = await run.newPage({ width: 1280, height: 900 });
    await signInAs(page, t.admin.username, t.admin.password);
    await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
    const { contactId } = await setUp(page);
    const premium = await save(page, '/api/memberships/types/typeSave', {
      Name: 'Premium',
      TermKind: 'anniversary',
      DurationMonths: 12,
      IsActive: true,
    });
    await save(page, '/api/memberships/fees/feeSave', {
      MembershipTypeId: premium.MembershipTypeId,
      FeeId: 1,
      Name: 'Premium dues',
      OriginalPrice: 36_500,
      BillFrequencyTypeId: 12,
    });
    const options = await (await page.request.get('/api/memberships/options')).json();
    const type = options.Types.find((x: { Name: string }) => x.Name === 'Individual');
    const joined = await page.request.post('/api/memberships/join', {
      data: {
        ContactId: contactId,
        MembershipTypeId: type.MembershipTypeId,
        MembershipLevelId: type.Levels[0].MembershipLevelId,
      },
    });
    const membershipId = (await joined.json()).MembershipId as number;
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`update memberships set status = 'active', term_start = current_date - 100,
          term_end = current_date + 264
        where tenant_id = ${t.tenant.id} and membership_id = ${membershipId}`),
    );
    const expected = await (
      await page.request.post(`/api/memberships/memberships/${membershipId}/change/preview`, {
        data: { MembershipTypeId: premium.MembershipTypeId },
      })
    ).json();
    const money = (cents: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

    await page.goto(`/micronet/list/memberships/memberships/${membershipId}`);
    await page.getByRole('button', { name: 'Upgrade or downgrade…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade or downgrade' });
    await dialog.getByLabel('Membership type').click();
    await page.getByRole('option', { name: /^Premium$/ }).click();
    const summary = dialog.getByRole('status');
    await summary.getByText('Individual - Regular to Premium (upgrade)', { exact: false }).waitFor();
    const text = (await summary.textContent()) ?? '';
    expect(expected.ChargeCents).toBeGreaterThan(0);
    expect(text).toContain(money(expected.CreditCents));
    expect(text).toContain(money(expected.ChargeCents));
    expect(text).toContain(money(expected.NetCents));
    await shot(page, 'change-preview');
    await dialog.getByRole('button', { name: 'Confirm the change' }).click();
    await page.getByText('Changed to Premium.').first().waitFor({ timeout: 10_000 });
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'Premium', level: 1 }).waitFor();
    await page
      .getByText(`Credit ${money(expected.CreditCents)}, new invoice ${money(expected.ChargeCents)}`)
      .first()
      .waitFor();
    await shot(page, 'change-history');
  });
});
