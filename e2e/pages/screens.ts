import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

export const SAMPLES_LIST = '/micronet/list/setup/samples';

/** Creates a sample through the API with the page's session. */
export async function createSample(page: Page, model: Record<string, unknown>): Promise<number> {
  const res = await page.request.post('/api/setup/samples/sampleSave', {
    data: { Status: 'open', IsActive: true, ...model },
  });
  if (!res.ok()) throw new Error(`sample not created: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { Data: { SampleId: number } };
  return body.Data.SampleId;
}

/** Creates a contact through the API with the page's session. */
export async function createContact(page: Page, model: Record<string, unknown>): Promise<number> {
  const res = await page.request.post('/api/contacts/contacts/contactSave', {
    data: { ContactType: 'individual', Status: 'active', ...model },
  });
  if (!res.ok()) throw new Error(`contact not created: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { Data: { ContactId: number } }).Data.ContactId;
}

/** Adds a contact-info entry (email, phone or website, told apart by the server) to a contact. */
export async function addContactEntry(page: Page, contactId: number, value: string): Promise<void> {
  const res = await page.request.post('/api/contacts/entries/entrySave', {
    data: { ContactId: contactId, Value: value },
  });
  if (!res.ok()) throw new Error(`contact entry not added: ${res.status()} ${await res.text()}`);
}

/** Sets the association's list page size (the admin's session). */
export async function setListPageSize(page: Page, size: number): Promise<void> {
  const current = await (
    await page.request.post('/api/settings/tenantSettings/tenantSettingsGet', { data: {} })
  ).json();
  const res = await page.request.post('/api/settings/tenantSettings/tenantSettingsSave', {
    data: { ...current, ListPageSize: size },
  });
  if (!res.ok()) throw new Error(`settings not saved: ${res.status()} ${await res.text()}`);
}

/** The header texts of the list table, in order (the selector and actions columns have none). */
export async function columnHeaders(page: Page): Promise<string[]> {
  const texts = await page.getByRole('table').first().locator('thead th').allInnerTexts();
  return texts.map((t) => t.trim()).filter((t) => t !== '' && t !== 'Actions');
}

/** The record names in the first column with a link, in order. */
export async function rowNames(page: Page): Promise<string[]> {
  return page.getByRole('table').first().locator('tbody tr td a').allInnerTexts();
}

/**
 * Chooses an option of a Mantine select by its label. A dropdown that closed before its option could be clicked
 * (the select lost focus while the page was still settling) is opened again, up to three times.
 */
export async function choose(page: Page, label: string | RegExp, option: string): Promise<void> {
  const box = page.getByRole('combobox', { name: label });
  const item = page.getByRole('option', { name: option, exact: true });
  for (let attempt = 1; ; attempt++) {
    if (!(await item.isVisible())) await box.click();
    try {
      await item.click({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

interface Violation {
  id: string;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (WCAG 2.1 A and AA) on the page; answers the serious and critical violations. The page's CSP
 * refuses inline scripts, so axe is evaluated through the DevTools protocol instead of a script tag.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  const source = await readFile(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  await page.evaluate(source);
  return (await page.evaluate(`(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  })()`)) as Violation[];
}
