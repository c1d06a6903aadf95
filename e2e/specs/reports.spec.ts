/**
 * The report builder in the browser (issue 20): a report built over the contacts list, grouped in two levels with a
 * chart, previewed as it is made, saved, run from the Reports screen with its chart and grouped table, exported to
 * CSV and pinned to the home dashboard; parameters asked when a report runs, over custom fields too, and a lookup
 * parameter named by its record in the "Run with …" line.
 */
import { readFileSync } from 'node:fs';
import { contacts, withTenantTx } from '@guildhall/db';
import { CUSTOM_FIELD_DATA_TYPES } from '@guildhall/shared';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { choose, createContact } from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

/** Each row's cells' text joined by `|`. */
const cells = (rows: Locator) =>
  rows.evaluateAll((trs) =>
    trs.map((tr) =>
      Array.from((tr as unknown as { cells: ArrayLike<{ textContent: string | null }> }).cells)
        .map((c) => c.textContent ?? '')
        .join('|'),
    ),
  );

describe('the report builder', () => {
  it('builds a grouped report with a chart, saves it, exports CSV and pins it to the dashboard', async () => {
    const { t, page, context } = await signedInAdmin(run, { width: 1400, height: 1000 });
    await withTenantTx(run.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
      await tx.insert(contacts).values(
        Array.from({ length: 12 }, (_, i) => ({
          tenantId: t.tenant.id,
          displayName: `Person ${i}`,
          accountNumber: `B${i}`,
          status: i % 3 === 0 ? 'lapsed' : 'active',
          stateProvince: i % 2 === 0 ? 'IL' : 'WI',
          contactType: 'individual',
        })),
      );
    });
    await page.getByRole('link', { name: 'Reports' }).first().click();
    await page.waitForURL(/\/a\/reports$/);
    await page.getByRole('link', { name: 'New report' }).click();
    await page.waitForURL(/\/a\/reports\/new$/);

    await page.getByRole('textbox', { name: 'Title' }).fill('Contacts by status and state');
    await choose(page, 'Group by', 'Status');
    await choose(page, 'Then by', 'State or province');
    // Grouping brings a bar chart; the preview follows every change.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.locator('[data-report-chart="bar"]').waitFor();
    const table = preview.getByRole('table', { name: 'Preview' });
    await expect.poll(() => cells(table.locator('tr[data-level="1"]'))).toEqual(['Active||8', 'Lapsed||4']);
    expect(await table.locator('tr[data-level="2"]').count()).toBe(4);
    expect(await cells(table.locator('tr[data-level="0"]'))).toEqual(['Total||12']);
    await page.getByText('All staff', { exact: true }).click();
    expect(await page.getByRole('radio', { name: 'All staff' }).isChecked()).toBe(true);
    await page.screenshot({ path: '/tmp/reports-builder.png', fullPage: true });

    await page.getByRole('button', { name: 'Save report' }).click();
    await page.waitForURL(/\/a\/reports\/saved-\d+$/);
    await page.getByRole('heading', { level: 1, name: 'Contacts by status and state' }).waitFor();
    await page.locator('[data-report-chart="bar"]').waitFor();
    const grouped = page.getByRole('table', { name: 'Contacts by status and state' });
    await expect.poll(() => grouped.locator('tr[data-level="2"]').count()).toBe(4);
    expect(await page.getByText('Shared', { exact: true }).count()).toBe(1);
    await page.screenshot({ path: '/tmp/reports-view.png', fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^contacts-by-status-and-state-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines).toEqual([
      'Status,State or province,Count',
      'Active,Subtotal,8',
      'Active,IL,4',
      'Active,WI,4',
      'Lapsed,Subtotal,4',
      'Lapsed,IL,2',
      'Lapsed,WI,2',
      'Total,,12',
    ]);

    await page.getByRole('button', { name: 'Pin to dashboard' }).click();
    await page.getByRole('button', { name: 'On the dashboard' }).waitFor();
    await page.goto('/a');
    const widget = page.getByRole('region', { name: 'Contacts by status and state' });
    await widget.locator('[data-report-chart="bar"]').waitFor();
    await widget.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/reports-dashboard.png', fullPage: true });
    await widget.getByRole('link', { name: 'Open the report' }).click();
    await page.waitForURL(/\/a\/reports\/saved-\d+$/);

    // The catalogue lists it with its kind, sharing and pin; the shipped grouped reports are there too.
    await page.goto('/a/reports');
    const list = page.getByRole('list', { name: 'Reports' });
    await list.getByRole('link', { name: 'Invoices by status' }).waitFor();
    const card = list.locator('li', { hasText: 'Contacts by status and state' });
    expect(await card.textContent()).toContain('On the dashboard');
    await context.close();
  });
});

describe('a report scheduled by mail', () => {
  it('schedules a saved report, lists the schedule and sends it as CSV to the outbox', async () => {
    const { t, page, context } = await signedInAdmin(run, { width: 1400, height: 1000 });
    await withTenantTx(run.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
      await tx.insert(contacts).values(
        Array.from({ length: 5 }, (_, i) => ({
          tenantId: t.tenant.id,
          displayName: `Member ${i}`,
          accountNumber: `M${i}`,
          status: i % 2 === 0 ? 'active' : 'lapsed',
          contactType: 'individual',
        })),
      );
    });
    await page.goto('/a/reports/new');
    await page.getByRole('textbox', { name: 'Title' }).fill('Members by status for the board');
    await choose(page, 'Group by', 'Status');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.waitForURL(/\/a\/reports\/saved-\d+$/);
    await page.getByRole('heading', { level: 1, name: 'Members by status for the board' }).waitFor();

    await page.getByRole('button', { name: 'Schedule by mail…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule by mail' });
    await dialog.getByText('Daily', { exact: true }).click();
    const addresses = dialog.getByLabel('Other addresses');
    await addresses.fill('board@example.org');
    await addresses.press('Enter');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    const schedule = page.getByTestId('report-schedule');
    await schedule.getByText('Every day to board@example.org').waitFor();
    await schedule.getByText('Not sent yet').waitFor();

    await schedule.getByRole('button', { name: 'Send now' }).click();
    await schedule.getByText('Sent to 1 recipient (3 rows).', { exact: false }).waitFor();
    await page.screenshot({ path: '/tmp/reports-schedule.png', fullPage: true });

    await page.goto('/a/outbox');
    await page
      .getByRole('link', { name: /^Report: Members by status for the board/ })
      .first()
      .click();
    await page.getByText('3 rows on', { exact: false }).first().waitFor();
    await context.close();
  });
});

describe('a report with parameters', () => {
  it('asks its parameters when it runs, orders its groups by their count and pins one figure to the dashboard', async () => {
    const { t, page, context } = await signedInAdmin(run, { width: 1400, height: 1000 });
    const people = [
      ...['IL', 'OH', 'OH', 'OH', 'WI', 'WI'].map((state) => ({ state, status: 'lapsed' })),
      ...['IL', 'IL', 'IL', 'IL', 'WI'].map((state) => ({ state, status: 'active' })),
    ];
    await withTenantTx(run.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
      await tx.insert(contacts).values(
        people.map((p, i) => ({
          tenantId: t.tenant.id,
          displayName: `Person ${i}`,
          accountNumber: `P${i}`,
          status: p.status,
          stateProvince: p.state,
          contactType: 'individual',
        })),
      );
    });
    await page.goto('/a/reports/new');
    await page.getByRole('textbox', { name: 'Title' }).fill('Contacts by state, most first');
    await choose(page, 'Group by', 'State or province');
    await choose(page, 'Order groups by', 'Count, largest first');
    // Two parameters: a required status and an optional date range on when the contact was created.
    await choose(page, 'Add a parameter', 'Status');
    await choose(page, 'Add a parameter', 'Created');
    const parameters = page.getByTestId('report-parameter');
    await expect.poll(() => parameters.count()).toBe(2);
    await parameters.first().getByRole('checkbox', { name: 'Required' }).check();
    // The preview runs without the parameters, ordered by the count: IL 5, WI 3, OH 3 (equal counts by key).
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect
      .poll(() => cells(preview.getByRole('table', { name: 'Preview' }).locator('tr[data-level="1"]')))
      .toEqual(['IL|5', 'OH|3', 'WI|3']);
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.waitForURL(/\/a\/reports\/saved-\d+$/);
    await page.getByRole('heading', { level: 1, name: 'Contacts by state, most first' }).waitFor();

    // Nothing runs until the required status is given.
    await page.getByText('Fill in the required parameters, then Run.').waitFor();
    const form = page.getByRole('group', { name: 'Report parameters' });
    await choose(page, /^Status/, 'Lapsed');
    await choose(page, /^Created/, 'Last 7 Days');
    await form.getByRole('combobox', { name: /^Created/ }).blur();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('report-parameters-applied').textContent())
      .toBe('Run with Status: Lapsed · Created: Last 7 Days');
    const grouped = page.getByRole('table', { name: 'Contacts by state, most first' });
    await expect.poll(() => cells(grouped.locator('tr[data-level="1"]'))).toEqual(['OH|3', 'WI|2', 'IL|1']);
    expect(await cells(grouped.locator('tr[data-level="0"]'))).toEqual(['Total|6']);
    await page.screenshot({ path: '/tmp/reports-parameters.png', fullPage: true });

    // The CSV runs with the same values, in the same order.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const lines = readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines).toEqual(['State or province,Count', 'OH,3', 'WI,2', 'IL,1', 'Total,6']);

    // A mail schedule keeps the values the report ran with (asked again in its form).
    await page.getByRole('button', { name: 'Schedule by mail…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule by mail' });
    expect(await dialog.getByRole('combobox', { name: /^Status/ }).inputValue()).toBe('Lapsed');
    const addresses = dialog.getByLabel('Other addresses');
    await addresses.fill('board@example.org');
    await addresses.press('Enter');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    await page
      .getByTestId('report-schedule')
      .getByText('With Status: Lapsed · Created: Last 7 Days')
      .waitFor();

    // One figure on the dashboard: the count, with the values it runs with.
    await page.getByRole('button', { name: 'Pin a figure' }).click();
    await page.getByRole('menuitem', { name: 'Count' }).click();
    await page.getByText('Figure on the dashboard').waitFor();
    await page.goto('/a');
    const widget = page.getByRole('region', { name: 'Contacts by state, most first' });
    await widget.locator('[data-widget-figure="count"]').waitFor();
    expect(await widget.locator('[data-widget-figure="count"]').textContent()).toBe('6');
    expect(await widget.textContent()).toContain('Status: Lapsed · Created: Last 7 Days');
    await widget.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/reports-figure.png', fullPage: true });
    await context.close();
  });
});

describe('parameters over custom fields and lookups', () => {
  it("asks a custom field as a parameter, and names a lookup parameter's record in its Run with line", async () => {
    const { page, context } = await signedInAdmin(run, { width: 1400, height: 1000 });
    const post = async (url: string, data: unknown) => {
      const res = await page.request.post(url, { data });
      if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const region = Number(
      (
        await post('/api/custom-fields', {
          Entity: 'Contact',
          Name: 'Region',
          CustomFieldDataTypeId: CUSTOM_FIELD_DATA_TYPES.Dropdown,
          SelectListItems: [
            { Id: 0, Name: 'Highlands' },
            { Id: 0, Name: 'Lowlands' },
          ],
        })
      ).CustomFieldId,
    );
    for (const [last, r] of [
      ['Abernethy', 'Highlands'],
      ['Buchanan', 'Lowlands'],
      ['Crichton', 'Lowlands'],
    ] as const) {
      const id = await createContact(page, {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Rory',
        LastName: last,
      });
      const res = await page.request.put(`/api/custom-fields/values/Contact/${id}`, {
        data: { Values: { [region]: r } },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }

    // The builder offers the association's own field as a parameter.
    await page.goto('/a/reports/new');
    await page.getByRole('textbox', { name: 'Title' }).fill('Contacts of a region');
    await choose(page, 'Add a parameter', 'Region');
    await expect.poll(() => page.getByTestId('report-parameter').count()).toBe(1);
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.waitForURL(/\/a\/reports\/saved-\d+$/);
    await page.getByRole('heading', { level: 1, name: 'Contacts of a region' }).waitFor();
    const form = page.getByRole('group', { name: 'Report parameters' });
    await choose(page, /^Region/, 'Lowlands');
    await form.getByRole('combobox', { name: /^Region/ }).blur();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('report-parameters-applied').textContent())
      .toBe('Run with Region: Lowlands');
    const rows = page.getByRole('table', { name: 'Contacts of a region' }).locator('tbody tr');
    await expect.poll(async () => (await rows.allInnerTexts()).length).toBe(2);
    expect((await rows.allInnerTexts()).join('\n')).not.toContain('Abernethy');

    // A shipped report's lookup parameter (the roster's membership type) reads as the type's name.
    for (const Name of ['Student', 'Retired']) {
      await post('/api/memberships/types/typeSave', {
        Name,
        TermKind: 'anniversary',
        DurationMonths: 12,
        IsActive: true,
      });
    }
    await page.goto('/a/reports/memberships.roster');
    await page.getByRole('heading', { level: 1, name: 'Membership roster' }).waitFor();
    await choose(page, /^Membership type/, 'Student');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('report-parameters-applied').textContent())
      .toBe('Run with Membership type: Student');
    await page.screenshot({ path: '/tmp/reports-lookup-parameter.png', fullPage: true });
    await context.close();
  });
});
