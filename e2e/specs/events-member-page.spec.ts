/**
 * The member's event page in the browser: staff upload an image to the event in its form (the image field's dialog),
 * the events list shows its thumbnail and the member sees it on the event's page; the registration questions page
 * as the back-office forms do (one page at a time, a choice's GoTo skipping a page, Register on the last page).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTenantTx } from '@guildhall/db';
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, inDays, type Model, poll } from '../support/suite.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-e2e-event-page-'));

const run = bootForFile();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const naturalWidth = (img: Locator) =>
  img.evaluate((el) => (el as unknown as { complete: boolean; naturalWidth: number }).naturalWidth);

describe("the member's event page", () => {
  it('staff give the event an image in its form; the list shows its thumbnail, the member its page', async () => {
    const { t, page } = await signedInAdmin(run);
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'Lighthouse tour',
        Status: 'published',
        Visibility: 'members',
        RegistrationOpen: true,
        StartsAt: inDays(15, 15),
        EndsAt: inDays(15, 17),
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const event = ((await saved.json()) as { Data: Model }).Data;

    await page.goto(`/micronet/list/events/events/${event.EventId}?screen=standard`);
    await page.getByRole('button', { name: 'Add image…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Image' });
    const picture = join(dir, 'lighthouse.png');
    writeFileSync(
      picture,
      await sharp({ create: { width: 800, height: 400, channels: 3, background: '#2255cc' } })
        .png()
        .toBuffer(),
    );
    await dialog.locator('input[type=file]').setInputFiles(picture);
    await dialog.getByTestId('image-progress').filter({ hasText: '100%' }).waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const thumbnail = page.getByTestId('ImageFileId-thumbnail');
    await poll(() => naturalWidth(thumbnail)).toBe(150);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await poll(async () => {
      const got = await page.request.post('/api/events/events/eventGet', { data: { id: event.EventId } });
      const body = (await got.json()) as { Data?: Model } & Model;
      return (body.Data ?? body).ImageFileId ?? null;
    }).not.toBeNull();

    // The events list: a thumbnail in the row.
    await page.goto('/micronet/list/events/events');
    const row = page.getByRole('row').filter({ hasText: 'Lighthouse tour' });
    await poll(() => naturalWidth(row.getByRole('img', { name: 'Image' }))).toBe(150);

    // The member's page of the event shows the image.
    const member = await run.newPage();
    await signInAs(member.page, t.member.username, t.member.password);
    await member.page.waitForURL(/\/m\/?/);
    await member.page.goto(`/m/events/${event.HashedEventId}`);
    await member.page.getByRole('heading', { name: 'Lighthouse tour' }).waitFor();
    const shown = member.page.getByRole('img', { name: 'Lighthouse tour' });
    await poll(() => naturalWidth(shown)).toBe(800);
    await member.context.close();
  });

  it('pages the registration questions: a choice skips a page, Register waits for the last one', async () => {
    const { t, page } = await signedInAdmin(run);
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'Coastal ride',
        Status: 'published',
        Visibility: 'public',
        RegistrationOpen: true,
        Capacity: 20,
        StartsAt: inDays(18, 9),
        EndsAt: inDays(18, 15),
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const event = ((await saved.json()) as { Data: Model }).Data;
    const define = async (body: Model) => {
      const res = await page.request.post('/api/custom-fields', {
        data: { Entity: 'EventRegistration', ScopeId: event.EventId, Visibility: 'memberEdit', ...body },
      });
      expect(res.status(), await res.text()).toBe(201);
    };
    await define({
      Name: 'Bringing your own bike?',
      CustomFieldDataTypeId: T.Dropdown,
      PageNumber: 1,
      Required: true,
      SelectListItems: [
        { Id: -1, Name: 'Yes, my own', GoTo: 2 },
        { Id: -2, Name: 'No, I will hire one', GoTo: 3 },
      ],
    });
    await define({ Name: 'Bike type', CustomFieldDataTypeId: T.Text, PageNumber: 2, Required: true });
    await define({ Name: 'Height in cm', CustomFieldDataTypeId: T.Number, PageNumber: 3, Required: true });
    const contact = await page.request.post('/api/contacts/contacts/contactSave', {
      data: { ContactType: 'individual', Status: 'active', FirstName: 'Rhiannon', LastName: 'Pryce' },
    });
    expect(contact.status(), await contact.text()).toBe(200);
    const mine = ((await contact.json()) as { Data: Model }).Data;
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${mine.ContactId}`,
      ),
    );

    const member = await run.newPage();
    const m = member.page;
    await signInAs(m, t.member.username, t.member.password);
    await m.waitForURL(/\/m\/?/);
    await m.goto(`/m/events/${event.HashedEventId}`);
    await m.getByRole('heading', { name: 'Coastal ride' }).waitFor();

    // Page 1 only: the first question, no Register yet.
    const questions = m.getByRole('region', { name: 'Questions, page 1' });
    await questions.getByRole('combobox', { name: 'Bringing your own bike?' }).waitFor();
    expect(await m.getByLabel('Bike type').count()).toBe(0);
    expect(await m.getByRole('button', { name: 'Register' }).count()).toBe(0);

    // "No" skips the bike's page.
    await m.getByRole('combobox', { name: 'Bringing your own bike?' }).click();
    await m.getByRole('option', { name: 'No, I will hire one' }).click();
    await m.getByRole('button', { name: 'Next: page 3' }).click();
    await m.getByRole('region', { name: 'Questions, page 3' }).waitFor();
    expect(await m.getByLabel('Bike type').count()).toBe(0);
    await m.getByText('Skipped').waitFor();

    // Back, "Yes": the bike's page comes next.
    await m.getByRole('button', { name: 'Back' }).click();
    await m.getByRole('combobox', { name: 'Bringing your own bike?' }).click();
    await m.getByRole('option', { name: 'Yes, my own' }).click();
    await m.getByRole('button', { name: 'Next: page 2' }).click();
    await m.getByLabel('Bike type').fill('Touring');
    await m.getByRole('button', { name: 'Next: page 3' }).click();
    await m.getByLabel('Height in cm').fill('172');
    await m.getByRole('button', { name: 'Register' }).click();
    await poll(() => m.getByTestId('register-result').textContent()).toMatch(/Registered/);
    await member.context.close();
  });
});
