import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  choose,
  columnHeaders,
  createSample,
  rowNames,
  SAMPLES_LIST,
  seriousViolations,
  setListPageSize,
} from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

async function openList(page: Page) {
  await page.goto(SAMPLES_LIST);
  await page.getByRole('heading', { level: 1, name: 'Samples' }).waitFor();
  await page.getByRole('table', { name: 'Samples' }).waitFor();
}

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

describe('generic screens in the browser', () => {
  it('sorts by a column both ways and keeps the column order', async () => {
    const { page, context } = await signedInAdmin(run);
    for (const Name of ['Beta', 'Alpha', 'Gamma']) await createSample(page, { Name });
    await openList(page);
    const before = await columnHeaders(page);
    expect(await rowNames(page)).toEqual(['Alpha', 'Beta', 'Gamma']);
    await page.getByRole('button', { name: 'Sort by Name' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(await page.locator('th[aria-sort="descending"]').innerText()).toContain('Name');
    expect(await columnHeaders(page)).toEqual(before);
    await context.close();
  });

  it('debounces the search box: one request after typing', async () => {
    const { page, context } = await signedInAdmin(run);
    for (const Name of ['Harbour', 'Hangar', 'Lighthouse']) await createSample(page, { Name });
    await openList(page);
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/sampleData') && r.postData()?.includes('SearchText'))
        searches.push(r.postData() ?? '');
    });
    await page.getByRole('searchbox', { name: 'Search samples' }).pressSequentially('Harb', { delay: 60 });
    await expect.poll(() => rowNames(page)).toEqual(['Harbour']);
    await page.waitForTimeout(500);
    expect(searches).toHaveLength(1);
    expect(searches[0]).toContain('"SearchText":"Harb"');
    await context.close();
  });

  it('shows the filter tags with a "{n} more" tag when they do not fit', async () => {
    const { page, context } = await signedInAdmin(run, { width: 900, height: 800 });
    await createSample(page, { Name: 'Tagged', Quantity: 5, Price: 500 });
    await openList(page);
    const criteria = [
      { PropertyName: 'Name', Operator: 'contains', Value: 'Tagged' },
      { PropertyName: 'Status', Operator: 'eq', Value: 'open' },
      { PropertyName: 'Quantity', Operator: 'ge', Value: 1 },
      { PropertyName: 'Price', Operator: 'ge', Value: 100 },
      { PropertyName: 'IsActive', Operator: 'eq', Value: true },
      { PropertyName: 'Category', Operator: 'isEmpty' },
    ];
    await page.evaluate(
      (c) =>
        sessionStorage.setItem(
          'gh:list:setup.samples',
          JSON.stringify({ page: 1, search: '', filterId: 9999, criteria: c, sort: null }),
        ),
      criteria,
    );
    await page.reload();
    const filters = page.getByRole('group', { name: 'Filters' });
    await filters.locator('[data-filter-tag]').first().waitFor();
    const visible = await filters.locator('[data-filter-tag]').count();
    const more = filters.getByRole('button', { name: /^\d+ more$/ });
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(criteria.length);
    expect(await more.innerText()).toBe(`${criteria.length - visible} more`);
    await more.click();
    await page
      .getByRole('dialog')
      .getByText(/Category/)
      .waitFor();
    expect(await rowNames(page)).toEqual(['Tagged']);
    await context.close();
  });

  it('keeps the table settings after a reload', async () => {
    const { page, context } = await signedInAdmin(run);
    await createSample(page, { Name: 'Settings sample' });
    await openList(page);
    await page.getByRole('button', { name: 'Table settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Table settings' });
    await dialog.getByRole('checkbox', { name: 'Show Category' }).uncheck();
    // Category is hidden but keeps its place: Quantity goes up past it, then past Status.
    await dialog.getByRole('button', { name: 'Move Quantity up' }).click();
    await dialog.getByRole('button', { name: 'Move Quantity up' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const expected = ['Name', 'Quantity', 'Status', 'Price', 'Start date', 'Active'];
    await expect.poll(() => columnHeaders(page)).toEqual(expected);
    await page.reload();
    await page.getByRole('table', { name: 'Samples' }).waitFor();
    await expect.poll(() => columnHeaders(page)).toEqual(expected);
    await context.close();
  });

  it('walks previous and next across a page boundary', async () => {
    const { page, context } = await signedInAdmin(run);
    await setListPageSize(page, 5);
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++)
      ids.push(await createSample(page, { Name: `Row ${String(i).padStart(2, '0')}` }));
    await page.goto('/a');
    await openList(page);
    expect(await rowNames(page)).toHaveLength(5);
    await page.getByRole('link', { name: 'Row 05' }).click();
    await page.getByRole('heading', { level: 1, name: 'Row 05' }).waitFor();
    await page.getByText('5 of 12').waitFor();
    await page.getByRole('button', { name: 'Next record' }).click();
    await page.getByRole('heading', { level: 1, name: 'Row 06' }).waitFor();
    expect(page.url()).toContain(`/${ids[5]}`);
    await page.getByRole('button', { name: 'Previous record' }).click();
    await page.getByRole('heading', { level: 1, name: 'Row 05' }).waitFor();
    await context.close();
  });

  it('exports the list and offers the download when it is ready', async () => {
    const { page, context } = await signedInAdmin(run);
    await createSample(page, { Name: 'Exported' });
    await openList(page);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await toast(page, 'Your download is processing').waitFor();
    await toast(page, 'This step may take several seconds').waitFor();
    const link = page.getByRole('button', { name: /^Download / });
    await link.waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    await context.close();
  });

  it('asks about unsaved changes when leaving, and not after a save', async () => {
    const { page, context } = await signedInAdmin(run);
    const id = await createSample(page, { Name: 'Unsaved' });
    await page.goto(`${SAMPLES_LIST}/${id}`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Unsaved, renamed');
    expect(await page.locator('[data-changed="true"]').count()).toBeGreaterThan(0);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Help texts' })
      .click();
    const prompt = page.getByRole('dialog', { name: 'Unsaved Changes' });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Stay on this page' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Save changes' });
    await confirm
      .getByText('Are you sure you want to save the changed fields highlighted in orange?')
      .waitFor();
    await confirm.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'We saved it!').waitFor();
    await page.waitForURL(new RegExp(`${SAMPLES_LIST}$`));
    await page.getByRole('link', { name: 'Unsaved, renamed' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Unsaved Changes' }).count()).toBe(0);
    await context.close();
  });

  it('acts on each ErrorValidation action', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto(`${SAMPLES_LIST}/new`);
    const name = page.getByRole('textbox', { name: /^Name/ });
    // Proceed (0): repeated with ForceSave, no question asked.
    await name.fill('Costly');
    await choose(page, /^Status/, 'Open');
    await page.getByRole('checkbox', { name: 'Active' }).check();
    await page.getByRole('textbox', { name: /^Price/ }).fill('20,000.00');
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/sampleSave')) saves.push(r.postData() ?? '');
    });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'We saved it!').waitFor();
    expect(saves).toHaveLength(2);
    expect(saves[1]).toContain('"ForceSave":true');
    // Error (1): the error dialog.
    await page.goto(`${SAMPLES_LIST}/new`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Closed one');
    await choose(page, /^Status/, 'Closed');
    await page.getByRole('textbox', { name: /^Quantity/ }).fill('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const error = page.getByRole('dialog', { name: 'Oh no :(' });
    await error.getByText('A closed sample cannot have a quantity.').waitFor();
    await error.getByRole('button', { name: 'OK' }).click();
    // YesNo (2): the answer is sent back.
    await page.getByRole('textbox', { name: /^Quantity/ }).fill('');
    await choose(page, /^Status/, 'Open');
    await page.getByRole('checkbox', { name: 'Active' }).uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const question = page.getByRole('dialog', { name: 'Please confirm' });
    await question.getByText('The sample is open but inactive. Close it as well?').waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Saved and closed.').waitFor();
    await page.waitForURL(new RegExp(`${SAMPLES_LIST}$`));
    await context.close();
  });

  it('creates a record through the wizard', async () => {
    const { page, context } = await signedInAdmin(run);
    await openList(page);
    await page.getByRole('button', { name: 'Add with wizard' }).click();
    const wizard = page.getByRole('dialog', { name: 'New sample' });
    await wizard.getByText('Step 1 of 6: General').waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Name is required.').waitFor();
    await wizard.getByRole('textbox', { name: /^Name/ }).fill('Wizard made');
    await choose(page, /^Status/, 'Draft');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Step 2 of 6: Amounts').waitFor();
    await wizard.getByRole('button', { name: 'Previous' }).click();
    await wizard.getByText('Step 1 of 6: General').waitFor();
    for (let i = 0; i < 5; i++) await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByText('Step 6 of 6: Review').waitFor();
    await wizard.getByRole('button', { name: 'Finish' }).click();
    await toast(page, 'We saved it!').waitFor();
    await page.getByRole('link', { name: 'Wizard made' }).waitFor();
    await context.close();
  });

  it('pages a report and keeps favourites first', async () => {
    const { page, context } = await signedInAdmin(run);
    for (let i = 1; i <= 5; i++) await createSample(page, { Name: `Priced ${i}`, Price: i * 1000 });
    await page.goto('/a/reports');
    const reports = page.getByRole('list', { name: 'Reports' });
    await reports.getByRole('link', { name: 'Staff users' }).waitFor();
    await page.getByRole('button', { name: 'Favourite Staff users' }).click();
    await expect.poll(() => reports.locator('li').first().getAttribute('data-report')).toBe('users.staff');
    await page.reload();
    await expect.poll(() => reports.locator('li').first().getAttribute('data-report')).toBe('users.staff');
    expect(
      await page.getByRole('button', { name: 'Favourite Staff users' }).getAttribute('aria-pressed'),
    ).toBe('true');
    // The generic layer's fixture report runs by its address but is not in the catalogue.
    await reports.getByRole('link', { name: 'Contacts by status' }).waitFor();
    expect(await reports.getByRole('link', { name: /sample/i }).count()).toBe(0);
    await page.goto('/a/reports/samples.byPrice');
    await page.getByText('Page 1 of 3').waitFor();
    expect(await page.getByRole('table', { name: 'Report' }).locator('tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    await page.getByRole('button', { name: 'Sort by Name' }).click();
    await page.getByText('Page 1 of 3').waitFor();
    await context.close();
  });

  it('keeps the dashboard layout after a reload', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto('/a/dashboard');
    const counts = page.locator('[data-widget="audit.recent"]');
    await counts.getByRole('heading', { name: 'Recent changes' }).waitFor();
    // With every module's widgets the widget may sit below the fold: the mouse works within the viewport.
    await counts.scrollIntoViewIfNeeded();
    const before = await counts.boundingBox();
    const handle = counts.locator('.gh-widget-handle');
    const box = await handle.boundingBox();
    if (!before || !box) throw new Error('no widget');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/settings/UserWidgetSettings') && r.request().method() === 'POST',
    );
    // Towards the side with room: where the widget sits depends on how many widgets the modules give.
    const width = page.viewportSize()?.width ?? 1280;
    const way = before.x + before.width / 2 < width / 2 ? 1 : -1;
    await page.mouse.move(box.x + 20, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 20 + way * 180, box.y + 10, { steps: 8 });
    await page.mouse.move(box.x + 20 + way * 430, box.y + 20, { steps: 8 });
    await page.mouse.up();
    await saved;
    const movedBy = async () => (((await counts.boundingBox())?.x ?? before.x) - before.x) * way;
    expect(await movedBy()).toBeGreaterThan(100);
    await page.reload();
    await counts.getByRole('heading', { name: 'Recent changes' }).waitFor();
    await expect.poll(movedBy).toBeGreaterThan(100);
    await context.close();
  });

  it('has no serious or critical accessibility violation on a list, a form and a dialog', async () => {
    const { page, context } = await signedInAdmin(run);
    const id = await createSample(page, { Name: 'Accessible' });
    await openList(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${SAMPLES_LIST}/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Accessible' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await openList(page);
    await page.getByRole('button', { name: 'Table settings' }).click();
    await page.getByRole('dialog', { name: 'Table settings' }).waitFor();
    // Let the opening transition end: half-faded text would fail the contrast check.
    await page.waitForTimeout(500);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
