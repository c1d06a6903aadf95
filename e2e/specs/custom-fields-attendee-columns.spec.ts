/**
 * Registration questions as attendee list columns (decision 0112): the attendees list filtered to one event offers
 * in its table settings that event's questions and the questions of every event, never another event's; the
 * unfiltered list offers them all; the event record's own Attendees tab has the same table settings, kept.
 */
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, type Model, poll } from '../support/suite.ts';

const run = bootForFile();

async function api<T = Model>(page: Page, url: string, data: unknown): Promise<T> {
  const res = await page.request.post(url, { data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

async function offeredColumns(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Table settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Table settings' });
  await dialog.getByRole('list', { name: 'Columns' }).waitFor();
  const names = (await dialog.locator('label').allTextContents())
    .filter((text) => text.startsWith('Show '))
    .map((text) => text.slice('Show '.length));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return names;
}

describe('registration questions in the attendee list', () => {
  it('one event’s attendee list offers its own questions and every event’s as columns, not another event’s', async () => {
    const { page, context } = await signedInAdmin(run);
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const event = async (Name: string, days: number) =>
      (
        await api<{ Data: Model }>(page, '/api/events/events/eventSave', {
          Name,
          Status: 'published',
          Visibility: 'public',
          RegistrationOpen: true,
          StartsAt: inDays(days),
          EndsAt: inDays(days + 0.1),
        })
      ).Data;
    const gala = await event('Autumn gala', 10);
    const school = await event('Summer school', 30);
    const question = (Name: string, ScopeId: unknown) =>
      api(page, '/api/custom-fields', {
        Entity: 'EventRegistration',
        Name,
        CustomFieldDataTypeId: T.Text,
        ScopeId,
      });
    await question('Table preference', gala.EventId);
    await question('Workshop track', school.EventId);
    await question('Badge name', null);

    await page.goto('/micronet/list/events/attendees');
    await page.getByRole('button', { name: 'Table settings' }).waitFor();
    // Every attendee: every event's questions.
    await poll(() => offeredColumns(page)).toEqual(
      expect.arrayContaining(['Table preference', 'Workshop track', 'Badge name']),
    );

    // The attendees of the gala: its question and the shared one only.
    await page.getByRole('button', { name: 'Advanced filter' }).click();
    const filter = page.getByRole('dialog', { name: 'Advanced filter' });
    await filter.getByRole('combobox', { name: 'Field' }).click();
    await page.getByRole('option', { name: 'Event', exact: true }).click();
    await filter.getByRole('textbox', { name: 'Value' }).fill(String(gala.EventId));
    await filter.getByRole('button', { name: 'Apply' }).click();
    await filter.waitFor({ state: 'hidden' });
    await poll(async () => {
      const offered = await offeredColumns(page);
      return (
        offered.includes('Table preference') &&
        offered.includes('Badge name') &&
        !offered.includes('Workshop track')
      );
    }).toBe(true);

    // The gala's own Attendees tab has its table settings too: the same columns offered, a choice kept.
    await page.goto(`/micronet/list/events/events/${gala.EventId}?tab=eventAttendees`);
    await page.getByRole('button', { name: 'Table settings' }).waitFor();
    await poll(async () => {
      const offered = await offeredColumns(page);
      return (
        offered.includes('Table preference') &&
        offered.includes('Badge name') &&
        !offered.includes('Workshop track')
      );
    }).toBe(true);
    await page.getByRole('button', { name: 'Table settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Table settings' });
    await settings.getByLabel('Show Table preference').check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('button', { name: 'Table settings' }).click();
    await poll(() => settings.getByLabel('Show Table preference').isChecked()).toBe(true);
    await context.close();
  }, 180_000);
});
