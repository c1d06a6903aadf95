/**
 * Custom fields where built-in fields show (issue 14), in the browser: the member directory shows and finds a
 * published custom field (never a staff-only one); the header's global search finds a contact by a searchable
 * custom field, and no longer once staff untick "Found by search" under Setup; the report builder offers a custom
 * field as a column and a filter, and its preview shows the values.
 */
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { choose, createContact } from '../pages/screens.ts';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, poll } from '../support/suite.ts';

const run = bootForFile();

async function api<R>(page: Page, method: 'get' | 'post' | 'put', url: string, data?: unknown): Promise<R> {
  const res = await page.request[method](url, data === undefined ? {} : { data });
  if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as R;
}

async function field(page: Page, body: Record<string, unknown>): Promise<number> {
  const f = await api<{ CustomFieldId: number }>(page, 'post', '/api/custom-fields', {
    Entity: 'Contact',
    ...body,
  });
  return f.CustomFieldId;
}

async function setValues(page: Page, id: number, Values: Record<string, unknown>) {
  await api(page, 'put', `/api/custom-fields/values/Contact/${id}`, { Values });
}

describe('custom fields in the directory, the global search and the report builder', () => {
  it('the member directory shows and finds a published custom field, never a staff-only one', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const guild = await field(page, {
      Name: 'Guild',
      CustomFieldDataTypeId: T.Text,
      Visibility: 'memberRead',
      InDirectory: true,
      Searchable: true,
    });
    const remark = await field(page, {
      Name: 'Staff remark',
      CustomFieldDataTypeId: T.Text,
      InDirectory: true,
      Searchable: true,
    });
    const listed = await createContact(page, {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Listed',
      LastName: 'Weaver',
      IsListed: true,
    });
    await setValues(page, listed, { [guild]: 'Feltmakers', [remark]: 'Owesdues' });
    await context.close();

    const member = await run.newPage({ width: 390, height: 800 });
    const m = member.page;
    await signInAs(m, t.member.username, t.member.password);
    await m.waitForURL(/\/m\/?$/, { timeout: 15_000 });
    await m.getByRole('link', { name: 'Open the directory' }).click();
    const box = m.getByRole('textbox', { name: 'Search the directory' });
    // Found by the published custom field, and its card shows it.
    await box.fill('feltmakers');
    await poll(() => m.getByTestId('directory-card').count()).toBe(1);
    await poll(() => m.getByTestId('directory-card').first().textContent()).toContain('Guild: Feltmakers');
    // The staff-only field finds nothing and never shows.
    await box.fill('owesdues');
    await poll(() => m.getByText('No one in the directory matches.').isVisible()).toBe(true);
    expect(await m.getByTestId('directory-card').count()).toBe(0);
    await box.fill('weaver');
    await poll(() => m.getByTestId('directory-card').count()).toBe(1);
    await m.getByRole('link', { name: /Listed/ }).click();
    await m.waitForURL(new RegExp(`/m/directory/${listed}$`));
    await poll(() => m.getByText('Feltmakers').isVisible()).toBe(true);
    expect(await m.getByText('Guild').count()).toBeGreaterThan(0);
    expect(await m.getByText('Owesdues').count()).toBe(0);
    expect(await m.getByText('Staff remark').count()).toBe(0);
    await member.context.close();
  });

  it('the global search finds a contact by a searchable custom field, and no longer once it is not searchable', async () => {
    const { page, context } = await signedInAdmin(run);
    const nickname = await field(page, { Name: 'Nickname', CustomFieldDataTypeId: T.Text, Searchable: true });
    const id = await createContact(page, {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Ada',
      LastName: 'Cartwright',
    });
    await setValues(page, id, { [nickname]: 'Zephyrquill' });
    await page.goto('/a');
    const box = page.getByRole('combobox', { name: 'Search everything' });
    await box.fill('zephyrquill');
    const option = page.getByRole('option', { name: /Cartwright/ });
    await poll(() => option.isVisible()).toBe(true);
    await option.click();
    await page.waitForURL(new RegExp(`/${id}$`));

    // Setup › Custom fields: "Found by search" unticked; the documents follow the definition.
    await page.goto('/a/setup/custom-fields');
    await page
      .getByRole('row', { name: /Nickname/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit Nickname' });
    await dialog.getByRole('checkbox', { name: 'Found by search' }).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await poll(() =>
      page
        .getByRole('row', { name: /Nickname/ })
        .getByText('Searchable')
        .count(),
    ).toBe(0);
    await page.goto('/a');
    await box.fill('zephyrquill');
    // The search answered (its empty state), without the contact.
    await poll(() => page.getByText('Nothing found').isVisible()).toBe(true);
    expect(await page.getByRole('option', { name: /Cartwright/ }).count()).toBe(0);
    // Its built-in fields still find it.
    await box.fill('cartwright');
    await poll(() => page.getByRole('option', { name: /Cartwright/ }).isVisible()).toBe(true);
    await context.close();
  });

  it('the report builder offers a custom field as a column and a filter, and previews its values', async () => {
    const { page, context } = await signedInAdmin(run, { width: 1400, height: 1000 });
    const region = await field(page, {
      Name: 'Region',
      CustomFieldDataTypeId: T.Dropdown,
      SelectListItems: [
        { Id: 0, Name: 'Highlands' },
        { Id: 0, Name: 'Lowlands' },
      ],
    });
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
      await setValues(page, id, { [region]: r });
    }
    await page.goto('/a/reports/new');
    await page.getByRole('textbox', { name: 'Title' }).fill('Contacts by region');
    const columns = page.getByRole('combobox', { name: 'Columns' });
    await columns.click();
    await page.getByRole('option', { name: 'Region', exact: true }).click();
    await page.keyboard.press('Escape');
    const preview = page.getByRole('table', { name: 'Preview' });
    await poll(() => preview.locator('thead th').allInnerTexts()).toContain('Region');
    // Filtered by the custom dropdown through the builder's filters.
    await page.getByRole('button', { name: 'Filters…' }).click();
    const filter = page.getByRole('dialog', { name: 'Advanced filter' });
    await choose(page, 'Field', 'Region');
    await filter.getByRole('textbox', { name: 'Value' }).fill('Lowlands');
    await filter.getByRole('button', { name: 'Apply' }).click();
    await poll(() => page.getByTestId('report-filters').textContent()).toContain('Region');
    await poll(async () => (await preview.locator('tbody tr').allInnerTexts()).length).toBe(2);
    const rows = await preview.locator('tbody tr').allInnerTexts();
    expect(rows.every((r) => r.includes('Lowlands'))).toBe(true);
    expect(rows.join('\n')).toMatch(/Buchanan[\s\S]*Crichton|Crichton[\s\S]*Buchanan/);
    await context.close();
  });
});
