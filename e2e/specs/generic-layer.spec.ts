/** The generic layer as a user meets it: a save over someone else's, list variants, open ranges, timezones. */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { client, signIn } from '../../packages/server/test/helpers.ts';
import { SAMPLES_LIST } from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { unique } from '../support/seed.ts';
import { bootForFile, inDays, poll } from '../support/suite.ts';

const run = bootForFile();

const CONTACTS = '/micronet/list/contacts/contacts';

async function createContact(page: Page, model: Record<string, unknown>): Promise<number> {
  const res = await page.request.post('/api/contacts/contacts/contactSave', {
    data: { ContactType: 'individual', Status: 'active', ...model },
  });
  if (!res.ok()) throw new Error(`contact not created: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { Data: { ContactId: number } }).Data.ContactId;
}

describe('the generic layer in the browser', () => {
  it("shows another user's save beside the user's own, and saves the user's over it only when asked", async () => {
    const { t, page, context } = await signedInAdmin(run);
    const last = unique('Conflict');
    const id = await createContact(page, { FirstName: 'Ruth', LastName: last, City: 'Leeds' });
    await page.goto(`${CONTACTS}/${id}?screen=standard`);
    const city = page.getByRole('textbox', { name: 'City' });
    await poll(() => city.inputValue()).toBe('Leeds');

    // Another member of staff saves the same contact while the form is open.
    const colleague = client(run.app, (await signIn(run.app, t.staff)).cookie);
    const loaded = (await colleague.post('/api/contacts/contacts/contactGet', { id })).json();
    const theirs = await colleague.post('/api/contacts/contacts/contactSave', { ...loaded, City: 'York' });
    expect(theirs.statusCode, theirs.body).toBe(200);

    await city.fill('Bath');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const panel = page.getByRole('alert', { name: 'Someone else saved this record' });
    await panel.waitFor();
    const table = panel.getByRole('table', { name: 'Their values and yours' });
    await poll(() => table.getByRole('row').filter({ hasText: 'City' }).innerText()).toMatch(
      /City\s+York\s+Bath/,
    );
    // Nothing was overwritten yet.
    expect((await colleague.post('/api/contacts/contacts/contactGet', { id })).json().City).toBe('York');
    await page.screenshot({ path: '/tmp/generic/conflict.png', fullPage: true });

    await panel.getByRole('button', { name: 'Save mine over theirs' }).click();
    await poll(
      async () => (await colleague.post('/api/contacts/contacts/contactGet', { id })).json().City,
    ).toBe('Bath');
    await context.close();
  });

  it("loads the other user's version when the user chooses it", async () => {
    const { t, page, context } = await signedInAdmin(run);
    const id = await createContact(page, { FirstName: 'Ivo', LastName: unique('Reload'), City: 'Derby' });
    await page.goto(`${CONTACTS}/${id}?screen=standard`);
    const city = page.getByRole('textbox', { name: 'City' });
    await poll(() => city.inputValue()).toBe('Derby');
    const colleague = client(run.app, (await signIn(run.app, t.staff)).cookie);
    const loaded = (await colleague.post('/api/contacts/contacts/contactGet', { id })).json();
    await colleague.post('/api/contacts/contacts/contactSave', { ...loaded, City: 'Ely' });
    await city.fill('Hove');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const panel = page.getByRole('alert', { name: 'Someone else saved this record' });
    await panel.getByRole('button', { name: 'Load their version' }).click();
    await poll(() => city.inputValue()).toBe('Ely');
    expect(await panel.isVisible()).toBe(false);
    await context.close();
  });

  it("links a member's sign-in to a contact from the user's record, and shows it on the contact's", async () => {
    const { t, page, context } = await signedInAdmin(run);
    const last = unique('Linked');
    const id = await createContact(page, { FirstName: 'Nia', LastName: last });
    await page.goto(`/a/users/${t.member.id}`);
    // The user's record shows the linked contact on a tab of its own (decision 0186).
    await page.getByRole('tab', { name: 'Contact record' }).click();
    const card = page.getByRole('region', { name: 'Contact record' });
    await card.getByText(/Not linked to a contact record/).waitFor();
    const box = card.getByRole('combobox', { name: 'Link to a contact' });
    await box.fill(last);
    await page.getByRole('option', { name: new RegExp(last) }).click();
    await card.getByRole('button', { name: 'Link', exact: true }).click();
    await card.getByText(/Signs in as/).waitFor();
    expect(await card.getByRole('link', { name: new RegExp(last) }).isVisible()).toBe(true);
    await page.goto(`${CONTACTS}/${id}`);
    await page.getByRole('button', { name: 'Sign-in…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign-in of this contact' });
    await dialog.getByText(t.member.username).waitFor();
    await dialog.getByRole('button', { name: 'Unlink' }).click();
    await dialog.getByText('No user signs in as this contact.').waitFor();
    await context.close();
  });

  it("shows a field's tooltip on focus, from the association's own help text", async () => {
    const { page, context } = await signedInAdmin(run);
    const id = await createContact(page, { FirstName: 'Tam', LastName: unique('Tip') });
    const put = await page.request.post('/api/setup/helpTexts/helpTextSave', {
      data: {
        StateName: 'Contacts.Tooltip.City',
        Title: 'City',
        Content: '<p>The town of the postal address.</p>',
      },
    });
    expect(put.ok()).toBe(true);
    await page.goto(`${CONTACTS}/${id}?screen=standard`);
    const about = page.getByRole('textbox', { name: /City/ }).first();
    await about.waitFor();
    await page.getByLabel('About City').focus();
    await page.getByRole('tooltip').filter({ hasText: 'The town of the postal address.' }).waitFor();
    await context.close();
  });

  it('runs a server call after its confirmation: a password reset sent from the users list', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const answer = await page.request.get(`/api/users/${t.member.id}`);
    expect(answer.status()).toBe(200);
    const name = ((await answer.json()) as { displayName: string }).displayName;
    await page.goto('/micronet/list/setup/users');
    // The list shows names (usernames are a hidden column); two row actions (View, Send password reset) stay
    // buttons, more would put the rest in a menu.
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: /^View / }).waitFor();
    const inline = row.getByRole('button', { name: /^Send password reset / });
    if ((await inline.count()) > 0) await inline.click();
    else {
      await row.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menuitem', { name: 'Send password reset' }).click();
    }
    const dialog = page.getByRole('dialog', { name: 'Send password reset' });
    await dialog.getByText(/a link to choose a new password\?/).waitFor();
    await dialog.getByRole('button', { name: 'Send password reset' }).click();
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: /sent|completed|email/i })
      .first()
      .waitFor();
    await context.close();
  });

  it('embeds the generic list on the terms page: Publish in the toolbar, the terms in force as a tab', async () => {
    const { page, context } = await signedInAdmin(run);
    const title = unique('Member terms ');
    await page.goto('/a/setup/terms');
    await page.getByRole('button', { name: 'Publish new terms' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish new terms' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Text of the terms').fill('Be kind to one another.');
    await dialog.getByRole('button', { name: /^Publish/ }).click();
    await page.getByRole('row').filter({ hasText: title }).waitFor();
    await page.getByRole('tab', { name: 'Terms in force' }).click();
    const card = page.getByRole('region', { name: 'Current terms for Members' });
    await card.getByText(title).waitFor();
    await card.getByText('0 accepted').waitFor();
    await context.close();
  });

  it('offers the calendar only for records with a date', async () => {
    const { page, context } = await signedInAdmin(run);
    // Contact entries (email, phone, website) have no date; contacts have since gained one (Created).
    await page.goto('/micronet/list/contacts/entries?view=calendar');
    const views = page.getByRole('radiogroup', { name: 'View' });
    await views.waitFor();
    expect(await views.getByText('Table', { exact: true }).isVisible()).toBe(true);
    expect(await views.getByText('Calendar', { exact: true }).count()).toBe(0);
    expect(await page.getByText(/have no date/).count()).toBe(0);
    await page.goto(SAMPLES_LIST);
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Calendar', { exact: true }).waitFor();
    await context.close();
  });
});

/** The terms of a record's card (its `dt`s), in their order. */
async function termsOf(page: Page, region: string): Promise<string[]> {
  const card = page.getByRole('region', { name: region, exact: true });
  await card.waitFor();
  return (await card.locator('dt').allTextContents()).map((t) => t.trim());
}

/** Every term shown on the record's page (the header card and the Details tab), in their order. */
async function allTermsOnPage(page: Page): Promise<string[]> {
  return (await page.locator('[data-preview-box] dt').allTextContents()).map((t) => t.trim());
}

const SHOTS = '/tmp/generic/records';

describe('generic screens a feature fills with slots (decision 0188)', () => {
  it("opens a user at the generic address with the users module's slots, each field once", async () => {
    const { t, page, context } = await signedInAdmin(run, { width: 1280, height: 900 });
    const name = (
      (await (await page.request.get(`/api/users/${t.staff.id}`)).json()) as { displayName: string }
    ).displayName;
    await page.goto(`/micronet/list/setup/users/${t.staff.id}`);
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const header = page.getByRole('region', { name: `Users: ${name}` });
    const value = (term: string) =>
      header.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    // The field renderers of the users module: the role's name, the status badge, "Never".
    await poll(() => value('Role').textContent()).toBe('Staff');
    expect(await value('Status').textContent()).toBe('Active');
    expect(await value('Last sign-in').textContent()).toBe('Never');
    // Its toolbar and record actions beside the declared Send password reset.
    await page.getByRole('button', { name: /^Impersonate/ }).waitFor();
    await page.getByRole('button', { name: `Deactivate ${name}` }).waitFor();
    await page.getByRole('button', { name: `Send password reset ${name}` }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to users' }).getAttribute('href')).toBe('/a/users');
    // Details holds what the header card does not show: the login type, not the role again.
    expect(await termsOf(page, 'Users: User')).toEqual(['Login type']);
    const terms = await allTermsOnPage(page);
    expect(terms.filter((x) => x === 'Role')).toEqual(['Role']);
    expect(new Set(terms).size).toBe(terms.length);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/user-generic-address.png`, fullPage: true });
    // Its tabs.
    await page.getByRole('tab', { name: 'Feature flags' }).click();
    await page.getByRole('switch', { name: /Audit log/ }).waitFor();
    await page.getByRole('tab', { name: 'Contact record' }).click();
    await page.getByText('Link to a contact').waitFor();
    await context.close();
  }, 120_000);

  it("draws no field twice on a contact's, an event's, an invoice's and a membership's record", async () => {
    const { page, context } = await signedInAdmin(run, { width: 1280, height: 900 });
    const post = async (path: string, data: Record<string, unknown>) => {
      const res = await page.request.post(path, { data });
      expect(res.ok(), await res.text()).toBe(true);
      return (await res.json()) as Record<string, unknown> & { Data?: Record<string, unknown> };
    };
    const last = unique('Doubled');
    const contactId = (
      await post('/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Ada',
        LastName: last,
        City: 'Leeds',
        Email: `${last.toLowerCase()}@example.org`,
      })
    ).Data?.ContactId;
    const eventId = (
      await post('/api/events/events/eventSave', {
        Name: `Harvest dinner ${last}`,
        Status: 'published',
        Visibility: 'public',
        RegistrationOpen: true,
        StartsAt: inDays(12, 17),
        EndsAt: inDays(12, 20),
      })
    ).Data?.EventId;
    const invoiceId = (
      await post('/api/billing/invoices/issue', {
        contactId,
        lines: [{ description: 'Annual dues', unitPriceCents: 12_000, quantity: 1 }],
      })
    ).invoiceId;
    const typeId = (
      await post('/api/memberships/types/typeSave', {
        Name: `Individual ${last}`,
        TermKind: 'anniversary',
        DurationMonths: 12,
        IsActive: true,
      })
    ).Data?.MembershipTypeId;
    await post('/api/memberships/fees/feeSave', {
      MembershipTypeId: typeId,
      FeeId: 1,
      Name: 'Dues',
      OriginalPrice: 25_000,
      BillFrequencyTypeId: 12,
    });
    const membershipId = (
      await post('/api/memberships/join', { ContactId: contactId, MembershipTypeId: typeId })
    ).MembershipId;
    mkdirSync(SHOTS, { recursive: true });
    for (const [name, path] of [
      ['contact', `/micronet/list/contacts/contacts/${contactId}`],
      ['event', `/micronet/list/events/events/${eventId}`],
      ['invoice', `/micronet/list/billing/invoices/${invoiceId}`],
      ['membership', `/micronet/list/memberships/memberships/${membershipId}`],
      ['membership-type', `/micronet/list/memberships/types/${typeId}`],
    ] as const) {
      await page.goto(path);
      await page.getByRole('tab', { name: 'Details' }).waitFor();
      await page.locator('[data-preview-box]').first().waitFor();
      const terms = await allTermsOnPage(page);
      expect({ name, terms: terms.filter((term, i) => terms.indexOf(term) !== i) }).toEqual({
        name,
        terms: [],
      });
      expect(terms.length).toBeGreaterThan(0);
      await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
    }
    await context.close();
  }, 180_000);

  it('draws the settings page as the generic form with the logo in its before slot', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto('/a/settings');
    const logo = page.getByRole('region', { name: 'Logo' });
    await logo.getByRole('button', { name: 'Add logo' }).waitFor();
    const form = page.getByRole('region', { name: 'Association', exact: true });
    await form.waitFor();
    // The logo comes before the form's first section.
    const top = async (region: typeof logo) => (await region.boundingBox())?.y ?? Number.NaN;
    expect(await top(logo)).toBeLessThan(await top(form));
    // The form still saves.
    await page.getByRole('textbox', { name: /^Association name/ }).fill('Slotted Society');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('We saved it!').first().waitFor();
    await context.close();
  });
});
