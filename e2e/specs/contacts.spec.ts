import { readFileSync } from 'node:fs';
import { contacts, withTenantTx } from '@guildhall/db';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { choose } from '../pages/screens.ts';
import { signInAs } from '../pages/sign-in.ts';
import { seedTenant, unique } from '../support/seed.ts';
import { bootForFile, poll } from '../support/suite.ts';

const run = bootForFile();

const CONTACTS = '/micronet/list/contacts/contacts';
const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

async function staffSignedIn(viewport?: { width: number; height: number }) {
  const t = await seedTenant(run.database);
  const { page, context } = await run.newPage(viewport);
  await signInAs(page, t.admin.username, t.admin.password);
  await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
  return { t, page, context };
}

/** Creates a contact through the API with the signed-in staff session. */
async function createContact(page: Page, model: Record<string, unknown>): Promise<number> {
  const res = await page.request.post('/api/contacts/contacts/contactSave', {
    data: { ContactType: 'individual', Status: 'active', ...model },
  });
  if (!res.ok()) throw new Error(`contact not created: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { Data: { ContactId: number } }).Data.ContactId;
}

describe('contacts in the back office', () => {
  it('fits its default columns at 1,280 px (Phone and City in view), row actions and badges whole', async () => {
    const { page, context } = await staffSignedIn({ width: 1280, height: 800 });
    const name = unique('Wide');
    await createContact(page, {
      ContactType: 'organization',
      OrganizationName: name,
      Status: 'prospect',
      Email: `a.rather.long.address.${name}@example.org`.toLowerCase(),
      Phone: '312 555 0142',
      City: 'Springfield',
    });
    await page.goto(CONTACTS);
    await page.getByLabel('Search contacts').fill(name);
    const row = page.getByRole('row').filter({ hasText: name });
    await poll(() => row.count()).toBe(1);
    // The badges show their whole word, not "PR…".
    for (const word of ['prospect']) {
      const label = row
        .locator('.mantine-Badge-root')
        .filter({ hasText: new RegExp(`^${word}$`, 'i') })
        .locator('.mantine-Badge-label');
      expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    // Delete, the phone and the city are inside the window, and the table does not scroll sideways.
    for (const cell of [
      row.getByRole('button', { name: /Delete/ }),
      row.getByText('(312) 555-0142'),
      row.getByText('Springfield'),
    ]) {
      const box = await cell.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1280);
    }
    const table = page.getByRole('table', { name: 'Contacts' });
    expect(
      await table.evaluate((el) => {
        const box = el.closest('.mantine-ScrollArea-viewport') ?? el.parentElement;
        return box ? box.scrollWidth <= box.clientWidth + 1 : false;
      }),
    ).toBe(true);
    await context.close();
  });

  it('finds by one or two letters the names with a word that begins with them, by three the names that hold them', async () => {
    const { page, context } = await staffSignedIn();
    const family = unique('Odell');
    for (const first of ['Quinn', 'Jacques', 'Quentin'])
      await createContact(page, { FirstName: first, LastName: family });
    await page.goto(CONTACTS);
    const box = page.getByLabel('Search contacts');
    const names = page.getByRole('table', { name: 'Contacts' }).getByRole('row').filter({ hasText: family });
    await box.fill(`${family} q`);
    await poll(() => names.count()).toBe(2);
    expect(await names.filter({ hasText: 'Jacques' }).count()).toBe(0);
    await box.fill(`${family} que`);
    // Jacques holds "que" inside his name; Quinn has no "que".
    await poll(() => names.filter({ hasText: 'Jacques' }).count()).toBe(1);
    await poll(() => names.filter({ hasText: 'Quinn' }).count()).toBe(0);
    expect(await names.count()).toBe(2);
    await page.screenshot({ path: '/tmp/contacts-short-search.png', fullPage: true });
    await context.close();
  });

  it('shows a new contact with its phone formatted and its website with the prefix', async () => {
    const { page, context } = await staffSignedIn();
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Contacts', exact: true })
      .click();
    await page.waitForURL(new RegExp(`${CONTACTS}$`));
    const last = unique('Hopper');
    const id = await createContact(page, {
      FirstName: 'Grace',
      LastName: last,
      Phone: '312 555 0142',
      Website: 'example.org',
    });
    await page.goto(`${CONTACTS}/${id}`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(last);
    const header = page.locator('main');
    await poll(() => header.getByText('(312) 555-0142').first().isVisible()).toBe(true);
    await poll(() => header.getByRole('link', { name: 'http://example.org' }).first().isVisible()).toBe(true);
    // The related lists of other features are there: a new contact has no event registrations yet.
    await page.getByRole('tab', { name: /^Events/ }).click();
    await poll(() => page.getByText(/No event registrations yet/).isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Contact info' }).click();
    await poll(() =>
      page
        .getByText(/records?$/)
        .first()
        .isVisible(),
    ).toBe(true);
    await context.close();
  });

  it('finds a contact from the header search and opens its record with the keyboard', async () => {
    const { page, context } = await staffSignedIn();
    const last = unique('Lamarr')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    const id = await createContact(page, { FirstName: 'Hedy', LastName: last, City: 'Vienna' });
    const box = page.getByRole('combobox', { name: 'Search everything' });
    await box.waitFor();
    // Focus on the page itself, in no field (a click could land on a widget's link and start a navigation).
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    // The shortcut is pressed again only while the box does not have the focus: under load the page can still be
    // moving its focus to the new screen's heading when the first press arrives, as for a user who presses twice.
    const focused = () => box.and(page.locator(':focus')).count();
    await poll(async () => {
      if ((await focused()) === 0) await page.keyboard.press('/');
      return focused();
    }).toBe(1);
    await box.fill('');
    await page.keyboard.type(last);
    // A late focus move of the page (the route's main landmark) must not lose the typed query: focus brings it back.
    await box.focus();
    const option = page.getByRole('option', { name: new RegExp(last, 'i') });
    await poll(() => option.isVisible()).toBe(true);
    await poll(() => page.getByRole('listbox').getByText('Contacts', { exact: true }).isVisible()).toBe(true);
    await poll(() => option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`${CONTACTS}/${id}$`));
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(last);
    await context.close();
  });

  it('asks before saving a likely duplicate (same email) and saves it on Yes', async () => {
    const { page, context } = await staffSignedIn();
    const last = unique('Noether').replace(/[^A-Za-z]/g, '');
    const email = `${last}@example.org`.toLowerCase();
    await createContact(page, { FirstName: 'Emmy', LastName: last, Email: email });
    await page.goto(`${CONTACTS}/new`);
    await choose(page, /^Contact type/, 'Individual');
    await choose(page, /^Status/, 'Active');
    await page.getByRole('textbox', { name: /^First name/ }).fill('Emmy');
    await page.getByRole('textbox', { name: /^Last name/ }).fill(`${last}bis`);
    await page.getByRole('textbox', { name: /^Email/ }).fill(email);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const question = page.getByRole('dialog', { name: 'Please confirm' });
    await question.getByText(/This contact may already exist: .*same email/).waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await poll(async () => {
      const res = await page.request.post('/api/contacts/contacts/contactData', {
        data: { Criteria: [{ PropertyName: 'Email', Operator: 'eq', Value: email }] },
      });
      return ((await res.json()) as { TotalRecordAvailable: number }).TotalRecordAvailable;
    }).toBe(2);
    await context.close();
  });

  it('merges a duplicate into the record after a confirmation', async () => {
    const { page, context } = await staffSignedIn();
    const last = unique('Curie').replace(/[^A-Za-z]/g, '');
    const keep = await createContact(page, {
      FirstName: 'Marie',
      LastName: last,
      Email: `${last}@example.org`,
    });
    const dup = await createContact(page, { FirstName: 'Maria', LastName: last, Phone: '3125550100' });
    const accountOf = async (id: string | number) => {
      const res = await page.request.post('/api/contacts/contacts/contactGet', { data: { id } });
      const body = (await res.json()) as { AccountNumber?: string; Data?: { AccountNumber?: string } };
      return String(body.Data?.AccountNumber ?? body.AccountNumber);
    };
    const keepNumber = await accountOf(keep);
    const dupNumber = await accountOf(dup);
    await page.goto(`${CONTACTS}/${keep}`);
    await page.getByRole('button', { name: 'Merge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge a duplicate into this contact' });
    await dialog.getByRole('combobox', { name: 'Duplicate contact' }).fill(last);
    // Namesakes are told apart by account number, never by an internal id.
    await page.getByRole('option', { name: new RegExp(`\\(${dupNumber}\\)`) }).click();
    await dialog.getByRole('button', { name: 'Merge' }).click();
    const confirm = page.getByRole('dialog', { name: 'Merge contacts' });
    await poll(() => confirm.isVisible()).toBe(true);
    await confirm
      .getByText(`${last}, Marie (${keepNumber}) will absorb ${last}, Maria (${dupNumber})`, { exact: false })
      .waitFor();
    await confirm.getByRole('button', { name: 'Merge' }).click();
    await poll(() => toast(page, 'Merged into').isVisible()).toBe(true);
    const gone = await page.request.post('/api/contacts/contacts/contactGet', { data: { id: dup } });
    const body = gone.ok()
      ? ((await gone.json()) as { IsDeleted?: boolean; Data?: { IsDeleted?: boolean } })
      : null;
    expect(gone.ok() ? (body?.Data?.IsDeleted ?? body?.IsDeleted) : true).toBe(true);
    await context.close();
  });
});

describe('contacts import', () => {
  it('uploads a CSV, maps its columns, shows a dry run with reasons, then imports with progress', async () => {
    const { page, context } = await staffSignedIn();
    const tag = unique('Imp')
      .replace(/[^A-Za-z0-9]/g, '')
      .toLowerCase();
    const existing = await createContact(page, {
      FirstName: 'Old',
      LastName: tag,
      Email: `old.${tag}@example.org`,
    });
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Import contacts' })
      .click();
    await page.waitForURL(/\/a\/contacts\/import$/);
    const upload = async (csv: string) => {
      await page.locator('input[type="file"]').setInputFiles({
        name: `${tag}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await page.getByRole('button', { name: 'Upload' }).click();
      await poll(() => page.getByRole('heading', { name: /Match the columns/ }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Dry run' }).click();
      await poll(() => page.getByRole('heading', { name: 'Dry run' }).isVisible()).toBe(true);
    };
    // A row with an invalid email is rejected, named, numbered by its line (after a blank line), with its reason.
    await upload(
      `First name,Last name,Email\nNew,${tag},new.${tag}@example.org\n\nBad,${tag},not-an-email\n`,
    );
    await poll(() => page.getByText('1 rejected', { exact: true }).isVisible()).toBe(true);
    const rejected = page.getByRole('row', { name: /reject/ });
    await poll(() => rejected.textContent()).toMatch(/mail/i);
    expect(await rejected.textContent()).toContain(`Bad ${tag}`);
    expect(await rejected.getByRole('cell').first().textContent()).toBe('4');
    // The rejected rows download as a CSV file with their line and reasons.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download rejected rows' }).click(),
    ]);
    const path = await download.path();
    const text = readFileSync(path, 'utf8');
    expect(text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('First name,Last name,Email,Row,Reasons');
    expect(text).toContain(`Bad,${tag},not-an-email,4,`);
    // All or nothing: nothing can be imported while a row is rejected; by default the valid rows can.
    const allOrNothing = page.getByRole('checkbox', { name: /All or nothing/ });
    await allOrNothing.check();
    await poll(() => page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    await allOrNothing.uncheck();
    await poll(() => page.getByRole('button', { name: 'Import 1 valid row' }).isEnabled()).toBe(true);
    // A clean file: one created, one updated (matched by email), then the job runs to the end.
    await upload(
      `First name,Last name,Email,City\nNew,${tag},new.${tag}@example.org,Leeds\nOld,${tag},old.${tag}@example.org,York\n`,
    );
    await poll(() => page.getByText('1 to create').isVisible()).toBe(true);
    await poll(() => page.getByText('1 to update').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => page.getByRole('progressbar', { name: 'Import progress' }).isVisible()).toBe(true);
    await poll(() => page.getByText('Imported: 1 created, 1 updated.').isVisible()).toBe(true);
    // A file with a bad row: the valid rows are imported, the rejected one is left out and offered for download.
    await upload(`First name,Last name,Email\nThird,${tag},third.${tag}@example.org\nWorse,${tag},nope\n`);
    await page.getByRole('button', { name: 'Import 1 valid row' }).click();
    await poll(() =>
      page.getByText('Imported: 1 created, 0 updated. 1 rejected row was left out.').isVisible(),
    ).toBe(true);
    await poll(() => page.getByRole('button', { name: 'Download rejected rows' }).isVisible()).toBe(true);
    const got = await page.request.post('/api/contacts/contacts/contactGet', { data: { id: existing } });
    expect(((await got.json()) as { City?: string }).City).toBe('York');
    await context.close();
  });
});

describe('the member directory', () => {
  it('lists only listed contacts with their published fields, and lets a member edit their profile', async () => {
    const { t, page, context } = await staffSignedIn();
    const tag = unique('Dir').replace(/[^A-Za-z0-9]/g, '');
    const listed = await createContact(page, {
      FirstName: 'Listed',
      LastName: tag,
      Email: `listed.${tag}@example.org`.toLowerCase(),
      City: 'Springfield',
      IsListed: true,
      PublishedFields: 16,
    });
    await createContact(page, { FirstName: 'Hidden', LastName: tag, City: 'Shelbyville', IsListed: false });
    const own = await createContact(page, { FirstName: 'Own', LastName: tag, City: 'Ogdenville' });
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx
        .update(contacts)
        .set({ userId: t.member.id })
        .where(and(eq(contacts.tenantId, t.tenant.id), eq(contacts.contactId, own))),
    );
    await context.close();

    const member = await run.newPage({ width: 390, height: 800 });
    const m = member.page;
    await signInAs(m, t.member.username, t.member.password);
    await m.waitForURL(/\/m\/?$/, { timeout: 15_000 });
    await m.getByRole('link', { name: 'Open the directory' }).click();
    await m.getByRole('textbox', { name: 'Search the directory' }).fill(tag);
    await poll(() => m.getByTestId('directory-card').count()).toBe(1);
    await poll(() => m.getByText(`Hidden`).count()).toBe(0);
    await m.getByRole('link', { name: /Listed/ }).click();
    await m.waitForURL(new RegExp(`/m/directory/${listed}$`));
    await poll(() => m.getByText('Springfield').isVisible()).toBe(true);
    // The email is not published: it never shows.
    expect(await m.getByText(/listed\..*@example\.org/).count()).toBe(0);
    // The header search finds the listed contact only.
    const box = m.getByRole('combobox', { name: 'Search everything' });
    await box.fill(tag.toLowerCase());
    await poll(() => m.getByRole('option').count()).toBe(1);
    expect(await m.getByRole('option', { name: /Hidden/ }).count()).toBe(0);
    await m.keyboard.press('Enter');
    await m.waitForURL(new RegExp(`/m/directory/${listed}$`));

    await m.goto('/m/profile');
    const city = m.getByRole('textbox', { name: 'City' });
    await poll(() => city.inputValue()).toBe('Ogdenville');
    await city.fill('North Haverbrook');
    await m.getByRole('switch', { name: 'List me in the member directory' }).check({ force: true });
    await m.getByRole('button', { name: 'Save' }).click();
    await poll(() => toast(m, 'Your profile is saved').isVisible()).toBe(true);
    const saved = (await (await m.request.get('/api/mic/Contact/MyProfile')).json()) as {
      City: string;
      IsListed: boolean;
    };
    expect(saved).toMatchObject({ City: 'North Haverbrook', IsListed: true });
    await member.context.close();
  });
});
