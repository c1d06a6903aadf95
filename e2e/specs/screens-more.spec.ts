import { tableSettings, withTenantTx } from '@guildhall/db';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addContactEntry,
  createContact,
  createSample,
  rowNames,
  SAMPLES_LIST,
  seriousViolations,
  setListPageSize,
} from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, poll } from '../support/suite.ts';

const run = bootForFile();

/** Polls with room for a loaded machine (the spec files run side by side). */

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

/** The tenant's calendar date (its default time zone is America/Chicago) as year and month (1-12). */
function tenantMonth(offset: number): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: 'numeric',
  }).formatToParts(new Date());
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const index = part('year') * 12 + part('month') - 1 + offset;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

describe('list behaviours in the browser', () => {
  it('clears an invalid saved sort, says so, and reloads the list in its default order', async () => {
    const { t, page, context } = await signedInAdmin(run);
    for (const Name of ['Bravo', 'Alpha', 'Charlie']) await createSample(page, { Name });
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.insert(tableSettings).values({
        tenantId: t.tenant.id,
        userId: t.admin.id,
        screenName: 'setup.samples',
        settings: {
          ScreenName: 'setup.samples',
          Sort: { columnName: 'Retired', direction: 'desc' },
          Columns: [],
        },
      }),
    );
    await page.goto('about:blank');
    const orderbys: (string | null)[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/sampleData')) orderbys.push(new URL(r.url()).searchParams.get('$orderby'));
    });
    await page.goto(SAMPLES_LIST);
    await toast(page, 'Sort cleared').waitFor();
    await poll(() => rowNames(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(orderbys.every((o) => o === null)).toBe(true);
    // The server cleared it: after a reload there is nothing to clear.
    await page.reload();
    await poll(() => rowNames(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(await toast(page, 'Sort cleared').count()).toBe(0);
    await context.close();
  });

  it('places records on the calendar and moves with the range shortcuts', async () => {
    const { page, context } = await signedInAdmin(run);
    const now = tenantMonth(0);
    const before = tenantMonth(-1);
    await createSample(page, { Name: 'This month meeting', StartDate: `${now.month}/15/${now.year}` });
    await createSample(page, { Name: 'Last month meeting', StartDate: `${before.month}/15/${before.year}` });
    await page.goto(`${SAMPLES_LIST}?view=calendar`);
    // The calendar's title is the second heading of the page (FullCalendar v7 hashes its class names).
    const title = page.locator('main').getByRole('heading').nth(1);
    await poll(() => title.textContent()).toBe(`${MONTHS[now.month - 1]} ${now.year}`);
    const event = (name: string) => page.locator('main').getByText(name, { exact: true });
    await event('This month meeting').waitFor();
    const group = page.getByRole('group', { name: 'Date range' });
    expect(await group.getByRole('button').allInnerTexts()).toEqual([
      'Today',
      'This Month',
      'Last Month',
      'This Year',
      'Last Year',
    ]);
    await group.getByRole('button', { name: 'Last Month' }).click();
    await poll(() => title.textContent()).toBe(`${MONTHS[before.month - 1]} ${before.year}`);
    await event('Last month meeting').waitFor();
    expect(await event('This month meeting').count()).toBe(0);
    await group.getByRole('button', { name: 'This Year' }).click();
    await poll(() => title.textContent()).toBe(String(now.year));
    await group.getByRole('button', { name: 'Last Year' }).click();
    await poll(() => title.textContent()).toBe(String(now.year - 1));
    await group.getByRole('button', { name: 'Today' }).click();
    // The day view: "November 21, 2026".
    await poll(async () => (await title.textContent()) ?? '').toMatch(
      new RegExp(`^${MONTHS[now.month - 1]} \\d{1,2}, ${now.year}$`),
    );
    await group.getByRole('button', { name: 'This Month' }).click();
    await poll(() => title.textContent()).toBe(`${MONTHS[now.month - 1]} ${now.year}`);
    await event('This month meeting').click();
    await page.waitForURL(/\/micronet\/list\/setup\/samples\/\d+$/);
    await context.close();
  });

  it('loads more while scrolling, stops after a short page and keeps the DOM small', async () => {
    const { page, context } = await signedInAdmin(run);
    await setListPageSize(page, 10);
    for (let i = 1; i <= 25; i += 1) await createSample(page, { Name: `Row ${String(i).padStart(2, '0')}` });
    const skips: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/sampleData')) skips.push(new URL(r.url()).searchParams.get('$skip') ?? '');
    });
    await page.goto(`${SAMPLES_LIST}?view=infinite`);
    const region = page.getByRole('region', { name: /^Samples, \d+ of 25 loaded$/ });
    await region.waitFor();
    for (let i = 0; i < 8; i += 1) {
      await region.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await page.waitForTimeout(250);
    }
    await page.getByRole('region', { name: 'Samples, 25 of 25 loaded' }).waitFor();
    await page.locator('li[data-index="24"]').waitFor();
    // Pages of 10, 10 and 5: the short page ends the loading; nothing asks for a fourth.
    await page.waitForTimeout(500);
    expect(new Set(skips)).toEqual(new Set(['0', '10', '20']));
    // Virtualized: far fewer list items than rows.
    expect(await region.locator('li[data-index]').count()).toBeLessThan(25);
    await context.close();
  });

  it('edits inline, and shows the exception message of a 500 or the generic message otherwise', async () => {
    const { page, context } = await signedInAdmin(run);
    // A draft-status sample: switching it off asks nothing (an open one would ask to close it as well).
    await createSample(page, { Name: 'Switchable', Status: 'draft', IsActive: true });
    await page.goto(SAMPLES_LIST);
    const sw = page.getByRole('switch', { name: 'Active: Switchable' });
    await sw.waitFor();
    await sw.click({ force: true });
    await toast(page, 'We saved it!').waitFor();
    expect(await sw.isChecked()).toBe(false);
    const check = await page.request.post('/api/setup/samples/sampleData', { data: {} });
    const rows = ((await check.json()) as { Results: { Name: string; IsActive: boolean }[] }).Results;
    expect(rows.find((r) => r.Name === 'Switchable')?.IsActive).toBe(false);

    await page.route('**/sampleInlineEdit/**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'The ledger is locked for the night.' }),
      }),
    );
    await sw.click({ force: true });
    await toast(page, 'The ledger is locked for the night.').waitFor();
    await poll(() => sw.isChecked()).toBe(false);
    await page.unroute('**/sampleInlineEdit/**');
    await page.route('**/sampleInlineEdit/**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Busy' }),
      }),
    );
    await sw.click({ force: true });
    await toast(page, 'Something went wrong - use F12/Console for details').waitFor();
    await context.close();
  });

  it('deletes and voids a record after a confirmation, with a toast each', async () => {
    const { page, context } = await signedInAdmin(run);
    for (const Name of ['Keeper', 'Goner', 'Voidable']) await createSample(page, { Name });
    await page.goto(SAMPLES_LIST);
    await poll(() => rowNames(page)).toEqual(['Goner', 'Keeper', 'Voidable']);

    await page.getByRole('button', { name: 'Actions for Goner' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Goner?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await rowNames(page)).toContain('Goner');
    await page.getByRole('button', { name: 'Actions for Goner' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Goner?' }).getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Goner was deleted.').waitFor();
    await poll(() => rowNames(page)).toEqual(['Keeper', 'Voidable']);

    await page.getByRole('button', { name: 'Actions for Voidable' }).click();
    await page.getByRole('menuitem', { name: 'Void' }).click();
    await page.getByRole('dialog', { name: 'Void Voidable?' }).getByRole('button', { name: 'Void' }).click();
    await toast(page, 'Voidable was voided.').waitFor();
    await poll(() => rowNames(page)).toEqual(['Keeper']);
    await context.close();
  });
});

describe('screen types in the browser', () => {
  it('shows the help texts as a plain ListView, distinct from the deluxe table', async () => {
    const { page, context } = await signedInAdmin(run);
    const res = await page.request.post('/api/setup/helpTexts/helpTextSave', {
      data: { StateName: 'Samples.List', Title: 'About samples', Content: 'Text' },
    });
    expect(res.ok(), await res.text()).toBe(true);
    await page.goto('/micronet/list/setup/helpTexts');
    const list = page.getByRole('list', { name: 'Help texts list' });
    await list.getByRole('link', { name: 'About samples' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByRole('radio', { name: 'List' }).isChecked()).toBe(true);
    await page.getByText('Table', { exact: true }).click();
    await page.getByRole('table', { name: 'Help texts' }).waitFor();
    await context.close();
  });

  it('opens a record as a PreviewBox card', async () => {
    // The table's preview panel shows from 1440 px.
    const { page, context } = await signedInAdmin(run, { width: 1500, height: 900 });
    const id = await createSample(page, { Name: 'Previewed', Email: 'preview@example.org' });
    // Reached from the table's preview panel.
    await page.goto(SAMPLES_LIST);
    await page.getByRole('table', { name: 'Samples' }).getByText('Previewed', { exact: true }).waitFor();
    await page
      .getByRole('table', { name: 'Samples' })
      .locator('tbody tr')
      .first()
      .locator('td')
      .nth(2)
      .click();
    await page.getByRole('link', { name: 'Preview card of Previewed' }).click();
    await page.waitForURL(new RegExp(`${SAMPLES_LIST}/${id}/preview$`));
    const card = page.getByRole('region', { name: 'Samples: Previewed' });
    await card.waitFor();
    expect(await card.locator('dt').allInnerTexts()).toEqual([
      'Name',
      'Status',
      'Category',
      'Price',
      'Start date',
      'Email',
      'Active',
    ]);
    await card.getByRole('link', { name: 'Open' }).click();
    await page.waitForURL(new RegExp(`${SAMPLES_LIST}/${id}$`));
    await context.close();
  });

  it('shows a contact as a MainEntityParentPage with its contact info in a tab, added to from there', async () => {
    const { page, context } = await signedInAdmin(run);
    const id = await createContact(page, { FirstName: 'Ada', LastName: 'Parent' });
    const other = await createContact(page, { FirstName: 'Otto', LastName: 'Other' });
    await addContactEntry(page, id, 'ada.parent@example.org');
    await addContactEntry(page, other, 'otto@example.org');
    await page.goto(`/micronet/list/contacts/contacts/${id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.locator('[data-preview-box]').first().waitFor();
    await page.getByRole('tab', { name: 'Details' }).waitFor();
    await page.getByRole('tab', { name: 'Contact info' }).click();
    await page.waitForURL(/tab=contactEntries/);
    // The contactEntry renderer shows an email entry as a mail link.
    const list = page.getByRole('list', { name: 'Contact info list' });
    const mail = list.getByRole('link', { name: 'ada.parent@example.org' });
    await mail.waitFor();
    expect(await mail.getAttribute('href')).toBe('mailto:ada.parent@example.org');
    expect(await list.getByText('otto@example.org').count()).toBe(0);
    // The tab survives a reload.
    await page.reload();
    await page.getByRole('list', { name: 'Contact info list' }).getByText('ada.parent@example.org').waitFor();
    await page.goto(`/micronet/list/contacts/contacts/${other}?tab=contactEntries`);
    await page.getByRole('list', { name: 'Contact info list' }).getByText('otto@example.org').waitFor();
    // "Add" opens a new child with the parent filled in; a phone entry is shown formatted.
    await page.getByRole('link', { name: 'Add to contact info' }).click();
    await page.waitForURL(new RegExp(`/micronet/list/contacts/entries/new\\?ContactId=${other}$`));
    await page.getByRole('textbox', { name: /^Value/ }).fill('312 555 0199');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/micronet\/list\/contacts\/entries$/);
    await page.goto(`/micronet/list/contacts/contacts/${other}?tab=contactEntries`);
    const theirs = page.getByRole('list', { name: 'Contact info list' });
    await theirs.getByText('(312) 555-0199').waitFor();
    expect(await theirs.getByRole('link', { name: 'otto@example.org' }).count()).toBe(1);
    await context.close();
  });

  it('shows the setup menu with its child screens, and a select on a phone', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto('/micronet/menu/setup');
    const menu = page.getByRole('navigation', { name: 'Setup menu' });
    await menu.getByRole('link', { name: 'Help texts' }).waitFor();
    // The generic layer's test fixture (samples) is in no menu.
    expect(await menu.getByRole('link').allInnerTexts()).toEqual([
      'Help texts',
      'Users',
      'Project templates',
      'Plain language guidelines',
    ]);
    await page.getByRole('heading', { level: 1, name: 'Help texts' }).waitFor();
    await menu.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(/\/micronet\/menu\/setup\/users$/);
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page');
    await context.close();

    const phone = await signedInAdmin(run, { width: 390, height: 800 });
    await phone.page.goto('/micronet/menu/setup');
    await phone.page.getByRole('combobox', { name: 'Setup menu' }).click();
    await phone.page.getByRole('option', { name: 'Users' }).click();
    await phone.page.waitForURL(/\/micronet\/menu\/setup\/users$/);
    await phone.page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await phone.context.close();
  });

  it('opens an external page only in a new tab, without opener or referrer', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto('/micronet/menu/setup/external-plainLanguage');
    const panel = page.getByRole('region', { name: 'Plain language guidelines' });
    await panel.getByText('This page is outside Guildhall').waitFor();
    const link = panel.getByRole('link', { name: 'Open Plain language guidelines' });
    expect(await link.getAttribute('href')).toBe('https://www.plainlanguage.gov/guidelines/');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.locator('iframe').count()).toBe(0);
    await page.goto('/micronet/external/setup/helpTexts/plainLanguage');
    await page.getByRole('link', { name: 'Open Plain language guidelines' }).waitFor();
    await page.goto('/micronet/external/setup/helpTexts/nothing');
    await page.getByText('There is no screen at this address.').waitFor();
    await context.close();
  });

  it("puts the association's figures on the home dashboard, shortcuts still there, no samples", async () => {
    const { page, context } = await signedInAdmin(run);
    await createSample(page, { Name: 'Never on the dashboard', Status: 'open' });
    await createContact(page, { FirstName: 'Newest', LastName: 'Prospect', Status: 'prospect' });
    await createContact(page, { FirstName: 'Newer', LastName: 'Member', Status: 'active' });
    await page.goto('/a');
    const fresh = page.locator('[data-widget="contacts.newThisMonth"]');
    await fresh.getByRole('heading', { name: 'New contacts this month' }).waitFor();
    await poll(() => fresh.locator('[data-widget-count]').textContent()).toBe('2');
    const byStatus = page.locator('[data-widget="contacts.byStatus"]');
    await byStatus.getByRole('heading', { name: 'Contacts by status' }).waitFor();
    await poll(() => byStatus.locator('[data-widget-figures] li').allTextContents()).toEqual([
      'Active: 1',
      'Inactive: 0',
      'Prospect: 1',
      'Lapsed: 0',
      'Deceased: 0',
    ]);
    const latest = page.locator('[data-widget="w:contacts.latest"]');
    await poll(() => latest.getByRole('link').allInnerTexts()).toEqual(['Member, Newer', 'Prospect, Newest']);
    const recent = page.locator('[data-widget="audit.recent"]');
    await recent.getByRole('heading', { name: 'Recent changes' }).waitFor();
    await poll(() => recent.locator('li').count()).toBeGreaterThan(0);
    // Records are named, never numbered ("sign-in user 1" showed an internal id).
    for (const text of await recent.locator('li').allInnerTexts()) expect(text).not.toMatch(/^\S+ \S+ \d+$/m);
    await page.locator('[data-widget="w:users.count"]').getByRole('heading', { name: 'Users' }).waitFor();
    // Samples exist, yet no widget, entry or shortcut shows them (only the audit trail records their creation).
    for (const part of [
      page.locator('[data-widget]:not([data-widget="audit.recent"])'),
      page.getByRole('navigation', { name: 'Main navigation' }),
      page.getByRole('region', { name: 'Shortcuts' }),
    ])
      expect(await part.getByText(/sample/i).count()).toBe(0);
    const shortcuts = page.getByRole('region', { name: 'Shortcuts' });
    await shortcuts.getByRole('link', { name: /Setup menu/ }).click();
    await page.waitForURL(/\/micronet\/menu\/setup$/);
    await context.close();

    const phone = await signedInAdmin(run, { width: 390, height: 800 });
    await phone.page.locator('[data-widget="contacts.newThisMonth"]').waitFor();
    const box = await phone.page.locator('[data-widget="contacts.newThisMonth"]').boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    await phone.context.close();
  });

  it('has no serious or critical accessibility violation on the new screens', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const id = await createContact(page, { FirstName: 'Checked', LastName: 'Contact' });
    await addContactEntry(page, id, 'c@example.org');
    const screens: [string, () => Promise<void>][] = [
      ['/a', () => page.locator('[data-widget="contacts.newThisMonth"] [data-widget-count]').waitFor()],
      ['/micronet/menu/setup/helpTexts', () => page.getByText('Nothing matches.').waitFor()],
      [
        `/micronet/list/setup/users/${t.admin.id}`,
        () => page.locator('[data-preview-box]').first().waitFor(),
      ],
      [
        `/micronet/list/contacts/contacts/${id}?tab=contactEntries`,
        () => page.getByRole('list', { name: 'Contact info list' }).getByText('c@example.org').waitFor(),
      ],
      [
        '/micronet/external/setup/helpTexts/plainLanguage',
        () => page.locator('[data-external-url]').waitFor(),
      ],
    ];
    for (const [url, ready] of screens) {
      await page.goto(url);
      await ready();
      expect({ url, violations: await seriousViolations(page) }).toEqual({ url, violations: [] });
    }
    await context.close();
  });
});
