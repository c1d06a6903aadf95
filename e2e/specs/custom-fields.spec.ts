/**
 * Custom fields in the browser (issue 14): defining a dropdown with its built-in Other under Setup, changing a
 * field's type after its dry run, filling a contact's multi-page custom fields with a branch, uploading to a
 * file field, and a custom field as a column of the contacts list that sorts and filters it (decision 0112).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnHeaders, rowNames } from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, poll } from '../support/suite.ts';

let dir: string;
const shots = process.env.SCREENSHOTS_DIR;

const run = bootForFile();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gh-e2e-custom-fields-'));
  if (shots) mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

async function shot(page: Page, name: string) {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

async function api<T>(page: Page, method: 'get' | 'post' | 'put', url: string, data?: unknown): Promise<T> {
  const res = await page.request[method](url, data === undefined ? {} : { data });
  if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

async function newContact(page: Page, LastName: string): Promise<number> {
  const res = await api<{ Data: { ContactId: number } }>(page, 'post', '/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Robin',
    LastName,
  });
  return res.Data.ContactId;
}

async function pick(page: Page, label: string | RegExp, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('custom fields', () => {
  it('defines a dropdown with fill-in: its built-in Other cannot be renamed or deleted; a type change shows its dry run first', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.getByRole('link', { name: 'Custom fields' }).first().click();
    await page.waitForURL(/\/a\/setup\/custom-fields$/);
    await page.getByText('No custom fields yet.').waitFor();
    await page.getByRole('button', { name: 'Add field' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a custom field' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('How did you hear about us');
    await pick(page, 'Data type', 'Dropdown with fill-in (Other)');
    // The type's built-in Other is there at once, locked.
    await poll(() => dialog.getByRole('textbox', { name: /^Choice \d$/ }).count()).toBe(1);
    await expect(dialog.getByRole('textbox', { name: 'Choice 1', exact: true }).inputValue()).resolves.toBe(
      'Other',
    );
    await expect(dialog.getByRole('textbox', { name: 'Choice 1', exact: true }).isDisabled()).resolves.toBe(
      true,
    );
    await expect(dialog.getByRole('button', { name: 'Delete Other' }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Add choice' }).click();
    await dialog.getByRole('textbox', { name: 'Choice 1', exact: true }).fill('A colleague');
    await dialog.getByRole('button', { name: 'Add choice' }).click();
    await dialog.getByRole('textbox', { name: 'Choice 2', exact: true }).fill('Conference');
    await shot(page, 'setup-add-dropdown-with-other');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await page
      .getByRole('cell', { name: /How did you hear about us/ })
      .first()
      .waitFor();
    const [field] = await api<
      { CustomFieldId: number; SelectListItems: { Name: string; IsHidden: boolean }[] }[]
    >(page, 'get', '/api/custom-fields?entity=Contact');
    expect(field?.SelectListItems.map((c) => [c.Name, c.IsHidden])).toEqual([
      ['A colleague', false],
      ['Conference', false],
      ['Other', true],
    ]);
    // Who sees it is read whole: its badge wraps inside the column rather than cutting "Member may …" short.
    const seen = page
      .getByRole('row', { name: /How did you hear about us/ })
      .getByText(/^(Staff only|Member may (see|edit))$/);
    await expect(
      seen.evaluate((label) => ({
        cut: label.scrollWidth > label.clientWidth,
        wraps:
          (
            globalThis as unknown as { getComputedStyle(el: unknown): { whiteSpace: string } }
          ).getComputedStyle(label).whiteSpace !== 'nowrap',
        text: label.textContent,
      })),
    ).resolves.toEqual({
      cut: false,
      wraps: true,
      text: expect.stringMatching(/^(Staff only|Member may (see|edit))$/),
    });
    await shot(page, 'setup-list');

    // A text field with values, changed to a number: the dry run names what would be lost before anything changes.
    const text = await api<{ CustomFieldId: number }>(page, 'post', '/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Boat length',
      CustomFieldDataTypeId: T.Text,
    });
    const a = await newContact(page, 'Ashby');
    const b = await newContact(page, 'Brook');
    await api(page, 'put', `/api/custom-fields/values/Contact/${a}`, {
      Values: { [text.CustomFieldId]: '12' },
    });
    await api(page, 'put', `/api/custom-fields/values/Contact/${b}`, {
      Values: { [text.CustomFieldId]: 'a big one' },
    });
    await page.reload();
    await page
      .getByRole('row', { name: /Boat length/ })
      .getByRole('button', { name: 'Change type' })
      .click();
    const change = page.getByRole('dialog', { name: 'Change the type of Boat length' });
    await pick(page, 'New type', 'Number');
    await change.getByText('1 converted, 1 removed').waitFor();
    await change.getByRole('cell', { name: 'a big one' }).waitFor();
    await shot(page, 'setup-type-change-dry-run');
    const values = await api<{ Values: Record<string, unknown> }>(
      page,
      'get',
      `/api/custom-fields/values/Contact/${b}`,
    );
    expect(values.Values[text.CustomFieldId]).toBe('a big one');
    await change.getByRole('button', { name: 'Apply and remove 1 value(s)' }).click();
    await page.getByRole('row', { name: /Boat length.*Number/ }).waitFor();
    const after = await api<{ Values: Record<string, unknown> }>(
      page,
      'get',
      `/api/custom-fields/values/Contact/${a}`,
    );
    expect(after.Values[text.CustomFieldId]).toBe(12);
    await context.close();
  });

  it("fills a contact's multi-page custom fields: a choice's branch skips a page, and required is enforced", async () => {
    const { page, context } = await signedInAdmin(run);
    const volunteer = await api<{ CustomFieldId: number; SelectListItems: { Id: number; Name: string }[] }>(
      page,
      'post',
      '/api/custom-fields',
      { Entity: 'Contact', Name: 'Willing to volunteer', CustomFieldDataTypeId: T.YesNo, PageNumber: 1 },
    );
    await api(page, 'put', `/api/custom-fields/${volunteer.CustomFieldId}`, {
      Entity: 'Contact',
      Name: 'Willing to volunteer',
      CustomFieldDataTypeId: T.YesNo,
      PageNumber: 1,
      Version: 1,
      SelectListItems: volunteer.SelectListItems.map((c) => ({ ...c, GoTo: c.Name === 'Yes' ? 3 : null })),
    });
    await api(page, 'post', '/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Why not',
      CustomFieldDataTypeId: T.Text,
      PageNumber: 2,
    });
    const roles = await api<{ CustomFieldId: number }>(page, 'post', '/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Roles you would take',
      CustomFieldDataTypeId: T.Text,
      PageNumber: 3,
      Required: true,
    });
    const id = await newContact(page, 'Volunteer');
    await page.goto(`/micronet/list/contacts/contacts/${id}`);
    await page.getByRole('tab', { name: 'Custom fields' }).click();
    await page.getByRole('region', { name: 'Page 1' }).waitFor();
    await pick(page, 'Willing to volunteer', 'Yes');
    await page.getByRole('button', { name: 'Next: page 3' }).click();
    await page.getByRole('region', { name: 'Page 3' }).waitFor();
    // Page 2 was skipped: its question was never asked.
    await expect(page.getByRole('textbox', { name: 'Why not' }).count()).resolves.toBe(0);
    await shot(page, 'record-page-3-after-branch');
    // Required, on a page the answers go through: the server refuses the save.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Roles you would take is required.').first().waitFor();
    await page.getByRole('textbox', { name: 'Roles you would take' }).fill('Event helper');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(async () => {
      const v = await api<{ Values: Record<string, unknown> }>(
        page,
        'get',
        `/api/custom-fields/values/Contact/${id}`,
      );
      return v.Values[roles.CustomFieldId];
    }).toBe('Event helper');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('region', { name: 'Page 1' }).waitFor();
    await shot(page, 'record-page-1');
    await context.close();
  });

  it('uploads to a file field with the files upload field, and the value is the uploaded file', async () => {
    const { page, context } = await signedInAdmin(run);
    const cert = await api<{ CustomFieldId: number }>(page, 'post', '/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Certificate',
      CustomFieldDataTypeId: T.FileUpload,
    });
    const id = await newContact(page, 'Certified');
    await page.goto(`/micronet/list/contacts/contacts/${id}?tab=custom-fields`);
    await page.getByRole('region', { name: 'Page 1' }).waitFor();
    const path = join(dir, 'certificate.pdf');
    writeFileSync(path, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2048, 32)]));
    await page.locator('.gh-upload-field input[type=file]').setInputFiles(path);
    await page.getByText('COMPLETED').waitFor({ timeout: 15_000 });
    await shot(page, 'record-file-field');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(async () => {
      const v = await api<{ Values: Record<string, { Name?: string; FileId?: number }> }>(
        page,
        'get',
        `/api/custom-fields/values/Contact/${id}`,
      );
      return v.Values[cert.CustomFieldId]?.Name;
    }).toBe('certificate.pdf');
    await context.close();
  });

  it('shows a custom field as a column of the contacts list, sorts by it and filters by it', async () => {
    const { page, context } = await signedInAdmin(run);
    const region = await api<{ CustomFieldId: number }>(page, 'post', '/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Region',
      CustomFieldDataTypeId: T.Dropdown,
      SelectListItems: [
        { Id: 0, Name: 'Highlands' },
        { Id: 0, Name: 'Lowlands' },
      ],
    });
    const since = await api<{ CustomFieldId: number }>(page, 'post', '/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Member since',
      CustomFieldDataTypeId: T.Date,
    });
    const people: [string, string, string][] = [
      ['Quill', 'Lowlands', '2015-03-01'],
      ['Quince', 'Highlands', '2021-09-15'],
      ['Quinn', 'Lowlands', '2018-06-30'],
    ];
    for (const [last, r, d] of people) {
      const id = await newContact(page, last);
      await api(page, 'put', `/api/custom-fields/values/Contact/${id}`, {
        Values: { [region.CustomFieldId]: r, [since.CustomFieldId]: d },
      });
    }
    await page.goto('/micronet/list/contacts/contacts');
    await page.getByRole('table').first().waitFor();
    // Table settings offer the custom fields as columns.
    await page.getByRole('button', { name: 'Table settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Table settings' });
    await dialog.getByRole('checkbox', { name: 'Show Region' }).check();
    await dialog.getByRole('checkbox', { name: 'Show Member since' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await poll(() => columnHeaders(page)).toEqual(expect.arrayContaining(['Region', 'Member since']));
    // Sorted by the custom date, then the other way: the contacts without a date come after these three.
    const firstThree = async () => (await rowNames(page)).slice(0, 3);
    await page.getByRole('button', { name: 'Sort by Member since' }).click();
    await poll(firstThree).toEqual(['Quill, Robin', 'Quinn, Robin', 'Quince, Robin']);
    await page.getByRole('button', { name: 'Sort by Member since' }).click();
    await poll(firstThree).toEqual(['Quince, Robin', 'Quinn, Robin', 'Quill, Robin']);
    await poll(() => page.getByRole('table').first().locator('tbody tr').first().innerText()).toContain(
      'Highlands',
    );
    await shot(page, 'contacts-list-custom-sort');
    // Filtered by the custom dropdown through the advanced filter, by the choice's name.
    await page.getByRole('button', { name: 'Advanced filter' }).click();
    const filter = page.getByRole('dialog', { name: 'Advanced filter' });
    await pick(page, 'Field', 'Region');
    await filter.getByRole('textbox', { name: 'Value' }).fill('Lowlands');
    await filter.getByRole('button', { name: 'Apply' }).click();
    await poll(() => rowNames(page)).toEqual(['Quinn, Robin', 'Quill, Robin']);
    await page.getByText('Region', { exact: false }).first().waitFor();
    await shot(page, 'contacts-list-custom-columns');
    await context.close();
  });

  it('imports a CSV whose columns fill custom fields: a dry run rejects a wrong value with its reason, the import writes typed values', async () => {
    const { page, context } = await signedInAdmin(run);
    const branch = await api<{ CustomFieldId: number; SelectListItems: { Id: number; Name: string }[] }>(
      page,
      'post',
      '/api/custom-fields',
      {
        Entity: 'Contact',
        Name: 'Home branch',
        CustomFieldDataTypeId: T.Dropdown,
        SelectListItems: [
          { Id: -1, Name: 'Harbour' },
          { Id: -2, Name: 'Hilltop' },
        ],
      },
    );
    const seats = await api<{ CustomFieldId: number }>(page, 'post', '/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Seats held',
      CustomFieldDataTypeId: T.Number,
    });
    await page.goto('/a/contacts/import');
    await page.locator('input[type="file"]').setInputFiles({
      name: 'branches.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'First name,Last name,Home branch,Seats\nIona,Importwell,hilltop,3\nIvo,Importwell,Nowhere,two\n',
      ),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await poll(() => page.getByRole('heading', { name: /Match the columns/ }).isVisible()).toBe(true);
    // The header naming a custom field is matched to it; another column is mapped by hand.
    await poll(() => page.getByRole('combobox', { name: 'Home branch' }).inputValue()).toBe('Home branch');
    await pick(page, 'Seats held', 'Seats');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await poll(() => page.getByText('1 rejected', { exact: true }).isVisible()).toBe(true);
    const rejected = page.getByRole('row', { name: /reject/ });
    await poll(() => rejected.textContent()).toContain('Choose one of the listed Home branch.');
    expect(await rejected.textContent()).toContain('Seats held');
    await shot(page, 'contacts-import-custom-fields');
    await page.getByRole('button', { name: 'Import 1 valid row' }).click();
    await poll(() =>
      page.getByText('Imported: 1 created, 0 updated. 1 rejected row was left out.').isVisible(),
    ).toBe(true);
    const found = await api<{ Results: { ContactId: number; DisplayName: string }[] }>(
      page,
      'post',
      '/api/contacts/contacts/contactData',
      { Id: 9999, Criteria: [{ PropertyName: 'LastName', Operator: 'eq', Value: 'Importwell' }] },
    );
    expect(found.Results.map((r) => r.DisplayName)).toEqual(['Importwell, Iona']);
    const values = await api<{ Values: Record<string, unknown> }>(
      page,
      'get',
      `/api/custom-fields/values/Contact/${found.Results[0]?.ContactId}`,
    );
    expect(values.Values).toEqual({
      [branch.CustomFieldId]: branch.SelectListItems.find((c) => c.Name === 'Hilltop')?.Id,
      [seats.CustomFieldId]: 3,
    });
    await context.close();
  });
});
