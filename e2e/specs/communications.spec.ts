/**
 * Communications in the browser (issue 18): writing an email template in the rich-text editor with a merge chip
 * (the merge fields dialog), a signature made in the signature manager, an uploaded image and an emoticon; saving
 * it and reopening it unchanged, with the chip still one atomic piece.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choose } from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, poll } from '../support/suite.ts';

let dir: string;

const run = bootForFile();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gh-e2e-communications-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe('communications', () => {
  it('writes a template with a merge chip, a signature, an image and an emoticon, and reopens it unchanged', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.getByRole('link', { name: 'Email templates' }).first().click();
    await page.waitForURL(/\/micronet\/list\/communication\/templates/);
    await page.goto('/micronet/list/communication/templates/new');

    await page.getByRole('textbox', { name: 'Name' }).fill('Welcome letter');
    await page.getByRole('textbox', { name: 'Subject' }).fill('Welcome to the association');
    await choose(page, /^Kind/, 'Email template');
    await choose(page, /^Used for/, 'General');

    const editor = page.getByRole('textbox', { name: 'Message' });
    await editor.click();
    await page.keyboard.type('Hello ');

    // The merge fields dialog: Save & Close stays disabled until one field is chosen.
    await page.getByRole('button', { name: 'Insert merge field' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge fields' });
    const saveClose = dialog.getByRole('button', { name: 'Save & Close' });
    await dialog.getByRole('combobox', { name: 'Merge field' }).waitFor();
    expect(await saveClose.isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: 'Merge field' }).click();
    await page.getByRole('option', { name: /^FirstName/ }).click();
    await dialog.getByRole('textbox', { name: 'Default' }).fill('Friend');
    expect(await saveClose.isDisabled()).toBe(false);
    await saveClose.click();
    await dialog.waitFor({ state: 'detached' });
    const chip = editor.locator('.gh-merge-chip');
    await chip.waitFor();
    expect(await chip.getAttribute('contenteditable')).toBe('false');

    // An atomic chip: one Backspace removes it whole (not its last letter).
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await poll(() => editor.locator('.gh-merge-chip').count()).toBe(0);
    await poll(() => editor.innerText()).toBe('Hello ');
    await page.getByRole('button', { name: 'Insert merge field' }).click();
    await dialog.getByRole('combobox', { name: 'Merge field' }).click();
    await page.getByRole('option', { name: /^FirstName/ }).click();
    await dialog.getByRole('button', { name: 'Save & Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => editor.locator('.gh-merge-chip').count()).toBe(1);
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.type(', welcome! ');

    await page.getByRole('button', { name: 'Insert emoticon' }).click();
    await page.getByRole('button', { name: 'Emoticon 😀' }).click();
    await page.keyboard.press('Escape');

    // A signature made in the signature manager, then inserted from the menu.
    await page.getByRole('button', { name: 'Insert signature' }).click();
    await page.getByRole('menuitem', { name: 'Manage signatures…' }).click();
    const manager = page.getByRole('dialog', { name: 'Signatures' });
    await manager.getByRole('button', { name: 'Add signature' }).click();
    await manager.getByRole('textbox', { name: 'Name' }).fill('Secretary');
    await manager.getByRole('textbox', { name: 'Signature' }).click();
    await page.keyboard.type('Dana, Secretary of the board');
    await manager.getByRole('button', { name: 'Save signature' }).click();
    await manager.getByText('Dana, Secretary of the board').waitFor();
    await manager.getByRole('button', { name: 'Close', exact: true }).click();
    await manager.waitFor({ state: 'detached' });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.getByRole('button', { name: 'Insert signature' }).click();
    await page.getByRole('menuitem', { name: /Secretary/ }).click();
    await editor.getByText('Dana, Secretary of the board').waitFor();

    // An image uploaded through POST /api/images/upload/ (its absolute public link goes into the message).
    const png = await sharp({ create: { width: 120, height: 60, channels: 3, background: '#1c7ed6' } })
      .png()
      .toBuffer();
    const path = join(dir, 'banner.png');
    writeFileSync(path, png);
    await page.getByTestId('editor-image-input').setInputFiles(path);
    await editor.locator('img').waitFor();
    const src = await editor.locator('img').getAttribute('src');
    expect(src).toMatch(/^https?:\/\/.+\/api\/images\/public\//);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const listed = async () =>
      (
        (await (
          await page.request.post('/api/communication/templates/templateData', { data: {} })
        ).json()) as {
          Results: { TemplateId: number; Name: string }[];
        }
      ).Results.find((r) => r.Name === 'Welcome letter')?.TemplateId;
    await poll(listed).toBeGreaterThan(0);
    const id = Number(await listed());
    const saved = (await (
      await page.request.post('/api/communication/templates/templateGet', { data: { id } })
    ).json()) as { BodyHtml: string };
    expect(saved.BodyHtml).toContain('data-merge-field="Contact.FirstName"');
    expect(saved.BodyHtml).toContain('Dana, Secretary of the board');
    expect(saved.BodyHtml).toContain(`<img src="${src}"`);
    expect(saved.BodyHtml).toContain('😀');

    // Reopened, the editor shows the same chip, signature and image.
    await page.goto(`/micronet/list/communication/templates/${id}?screen=standard`);
    const again = page.getByRole('textbox', { name: 'Message' });
    await again.locator('.gh-merge-chip').filter({ hasText: 'Contact.FirstName' }).waitFor();
    await again.getByText('Dana, Secretary of the board').waitFor();
    expect(await again.locator('img').getAttribute('src')).toBe(src);
    await page.screenshot({ path: join(dir, 'template.png') });
    await context.close();
  });

  it('writes a mailing from a template, previews it as a recipient, sends it, and shows its delivery log', async () => {
    const { page, context } = await signedInAdmin(run);
    const made = await page.request.post('/api/contacts/contacts/contactSave', {
      data: {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Ada',
        LastName: 'Lovelace',
        Email: 'ada@example.org',
      },
    });
    const adaId = ((await made.json()) as { Data: { ContactId: number } }).Data.ContactId;
    const first =
      '<span data-merge-field="Contact.FirstName" data-merge-params="{&quot;Default&quot;:&quot;Friend&quot;}">Contact.FirstName</span>';
    await page.request.post('/api/communication/templates/templateSave', {
      data: {
        Name: 'Autumn news',
        Kind: 'template',
        Purpose: 'general',
        Subject: 'Autumn news',
        BodyHtml: `<p>Dear ${first}, autumn is here.</p>`,
      },
    });
    await page.getByRole('link', { name: 'Mailings' }).first().click();
    await page.getByRole('link', { name: 'New mailing' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Autumn mailing');
    await choose(page, /^Start from a template/, 'Autumn news');
    await poll(() => page.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe('Autumn news');
    await page.getByRole('textbox', { name: 'Message' }).locator('.gh-merge-chip').waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/a\/mailings\/\d+$/);

    // Preview as Ada: her name in place of the chip.
    const picker = page
      .getByRole('textbox', { name: 'Preview as' })
      .or(page.getByRole('combobox', { name: 'Preview as' }));
    await picker.fill('Lovelace');
    await page.getByRole('option', { name: /Lovelace/ }).click();
    const frame = page.frameLocator('iframe[title="Preview of the message"]');
    await frame.getByText('Dear Ada, autumn is here.').waitFor();

    await page.getByRole('button', { name: 'Send now' }).click();
    await page
      .getByRole('dialog', { name: 'Send the mailing' })
      .getByRole('button', { name: 'Send' })
      .click();
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log
      .getByRole('row')
      .filter({ hasText: 'ada@example.org' })
      .filter({ hasText: 'sent' })
      .waitFor({ timeout: 30_000 });

    // The contact's communication history lists it.
    await page.goto(`/micronet/list/contacts/contacts/${adaId}?tab=communications`);
    await page.getByRole('table', { name: 'Communication history' }).getByText('Autumn news').waitFor();
    await context.close();
  });
  it("sends a mailing to an event's registered attendees chosen on the mailing screen", async () => {
    const { page, context } = await signedInAdmin(run);
    const starts = new Date(Date.now() + 12 * 86_400_000);
    starts.setUTCHours(15, 0, 0, 0);
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'Harvest supper',
        Status: 'published',
        Visibility: 'public',
        TimezoneId: 'America/Chicago',
        RegistrationOpen: true,
        WaitlistEnabled: true,
        StartsAt: starts.toISOString(),
        EndsAt: new Date(starts.getTime() + 2 * 3_600_000).toISOString(),
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const eventId = ((await saved.json()) as { Data: { EventId: number } }).Data.EventId;
    const detail = (await (await page.request.get(`/api/events/getEventId/${eventId}`)).json()) as {
      EventDetailId: number;
    };
    const registered = await page.request.post('/api/events/registrations', {
      data: {
        EventDetailId: detail.EventDetailId,
        Attendees: [{ Name: 'Grace Guest', Email: 'grace.guest@example.org' }],
      },
    });
    expect(registered.status(), await registered.text()).toBe(200);

    await page.getByRole('link', { name: 'Mailings' }).first().click();
    await page.getByRole('link', { name: 'New mailing' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Supper reminder');
    await page.getByRole('textbox', { name: 'Subject' }).fill('See you at supper');
    await page.getByRole('textbox', { name: 'Message' }).fill('Bring a dish.');
    await page.getByText('Event attendees', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Event' }).click();
    await page.getByRole('option', { name: /^Harvest supper/ }).click();
    // How many the audience reaches, before sending, and the confirmation names the count.
    await page.getByTestId('audience-reach').getByText('Reaches 1 person now').waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/a\/mailings\/\d+$/);
    await page.getByRole('button', { name: 'Send now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send the mailing' });
    await confirm.getByText('Send "Supper reminder" now to 1 person?').waitFor();
    await confirm.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('table', { name: 'Delivery log' })
      .getByRole('row')
      .filter({ hasText: 'grace.guest@example.org' })
      .filter({ hasText: 'sent' })
      .waitFor({ timeout: 30_000 });
    // Reopened, the audience is the event's.
    await page.reload();
    await poll(
      async () =>
        (await (await page.request.get(page.url().replace('/a/', '/api/communication/'))).json()).Audience,
    ).toEqual({
      Kind: 'event',
      EventId: eventId,
      AttendeeStatusIds: [4],
    });
    await context.close();
  });
});
