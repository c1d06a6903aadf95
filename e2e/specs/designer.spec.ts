/**
 * The email designer in the browser (issue 18, decision 0153): open the demo's designed newsletter, add a text block,
 * put a merge chip in it, save, reopen and find it; then a mailing from the designed template is test-sent and the
 * message is in the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choose } from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { boot, type Running } from '../support/boot.ts';

let run: Running;
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

beforeAll(async () => {
  run = await boot();
});
afterAll(async () => {
  await run?.close();
});

describe('email designer', () => {
  it('adds a block with a merge field, saves, reopens it, and test-sends a designed mailing to the outbox', async () => {
    const { page } = await signedInAdmin(run);
    const made = await page.request.post('/api/communication/designer/newTemplate', {
      data: { Name: 'Spring newsletter (designed)', Subject: 'Spring at the association' },
    });
    expect(made.status()).toBe(200);
    const id = (await made.json()).Data.TemplateId as number;
    await page.goto(`/a/designer/templates/${id}`);
    const blocks = page.getByTestId('design-block');
    // The default design: a heading, a greeting with the first-name chip, and the footer.
    await poll(() => blocks.count()).toBe(3);

    // Add a text block and put the first-name chip in it.
    await page.getByRole('button', { name: 'Text', exact: true }).click();
    await poll(() => blocks.count()).toBe(4);
    const editor = page.getByRole('textbox', { name: 'Text' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Greetings ');
    await page.getByRole('button', { name: 'Insert merge field' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge fields' });
    await dialog.getByRole('combobox', { name: 'Merge field' }).click();
    await page.getByRole('option', { name: /^FirstName/ }).click();
    await dialog.getByRole('button', { name: 'Save & Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save design' }).click();
    await poll(() => page.getByRole('button', { name: 'Save design' }).isDisabled()).toBe(true);

    // Reopened: the block and its chip are there.
    const url = page.url();
    await page.goto(url);
    await poll(() => blocks.count()).toBe(4);
    await poll(() =>
      page.locator('[data-block-type="text"] [data-merge-field="Contact.FirstName"]').count(),
    ).toBe(2);
    await poll(() => page.getByText('Greetings').count()).toBe(1);

    // A mailing from the designed template, test-sent: the message is in the outbox.
    await page.goto('/a/mailings/new');
    await page.getByRole('textbox', { name: 'Name' }).fill('Spring designed mailing');
    await choose(page, /^Start from a template/, 'Spring newsletter (designed)');
    await page.getByText('This message is designed in the email designer.').waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/a\/mailings\/\d+$/);
    await page.getByRole('button', { name: /^Send a test to/ }).click();
    await page.getByText(/We sent a test message to/).waitFor();
    await page.goto('/a/outbox');
    await poll(() => page.getByText('[Test] Spring at the association').count()).toBeGreaterThan(0);
  });
});
