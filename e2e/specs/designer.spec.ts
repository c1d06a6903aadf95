/**
 * The email designer in the browser (issue 18, decision 0153): open the demo's designed newsletter, add a text block,
 * put a merge chip in it, save, reopen and find it; then a mailing from the designed template is test-sent and the
 * message is in the outbox. A block is placed from the keyboard, removed after a confirmation, and a rich-text
 * mailing is turned into a design ("Design it").
 */
import { describe, expect, it } from 'vitest';
import { choose } from '../pages/screens.ts';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, poll } from '../support/suite.ts';

const run = bootForFile();

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

  it("drags a block from the palette onto the canvas, shows merge fields as chips, and opens a sent mailing's design read-only", async () => {
    const { page } = await signedInAdmin(run);
    const made = await page.request.post('/api/communication/designer/newTemplate', {
      data: { Name: 'Autumn letter (designed)', Subject: 'Autumn at the association' },
    });
    expect(made.status()).toBe(200);
    const id = (await made.json()).Data.TemplateId as number;
    await page.goto(`/a/designer/templates/${id}`);
    const blocks = page.getByTestId('design-block');
    await poll(() => blocks.count()).toBe(3);
    // The greeting's first-name field is a chip on the canvas, not its raw name.
    const chip = page.locator('[data-block-type="text"] span[data-merge-field="Contact.FirstName"]').first();
    await poll(() =>
      chip.evaluate(
        (e) =>
          (
            globalThis as unknown as { getComputedStyle(el: unknown): { borderRadius: string } }
          ).getComputedStyle(e).borderRadius,
      ),
    ).toBe('10px');

    // A divider dragged from the palette and dropped on the heading lands above it.
    const source = await page.getByRole('button', { name: 'Divider', exact: true }).boundingBox();
    const target = await blocks.first().boundingBox();
    if (!source || !target) throw new Error('palette or canvas not laid out');
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await page.mouse.down();
    await page.mouse.move(source.x + source.width / 2 + 12, source.y + source.height / 2, { steps: 4 });
    await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
    await page.mouse.up();
    await poll(() => blocks.count()).toBe(4);
    await poll(() => blocks.first().getAttribute('data-block-type')).toBe('divider');
    // As a hand would, not within the moment after a drop in which the drag library swallows clicks.
    await page.waitForTimeout(250);
    await page.getByRole('button', { name: 'Save design' }).click();
    await poll(() => page.getByRole('button', { name: 'Save design' }).isDisabled()).toBe(true);

    // A mailing of this design, sent: its design opens read-only.
    const design = await (await page.request.get(`/api/communication/designer/templates/${id}`)).json();
    const mailing = await page.request.post('/api/communication/mailings', {
      data: {
        Name: 'Autumn letter',
        TemplateId: id,
        Subject: 'Autumn at the association',
        BodyHtml: '',
        DesignJson: design.DesignJson,
        Audience: { Kind: 'filter', FilterId: 0 },
      },
    });
    expect(mailing.status(), await mailing.text()).toBe(201);
    const mailingId = (await mailing.json()).MailingId as number;
    const sent = await page.request.post(`/api/communication/mailings/${mailingId}/send`, { data: {} });
    expect(sent.status(), await sent.text()).toBe(200);
    await page.goto(`/a/mailings/${mailingId}`);
    await page.getByRole('button', { name: 'View the design' }).click();
    await page.waitForURL(new RegExp(`/a/designer/mailings/${mailingId}$`));
    await page.getByText('its design is shown as it was sent and cannot be changed').waitFor();
    await poll(() => blocks.count()).toBe(4);
    expect(await page.getByRole('button', { name: 'Save design' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Divider', exact: true }).isDisabled()).toBe(true);
    await blocks.nth(1).click();
    expect(await page.getByRole('textbox', { name: 'Heading text' }).isDisabled()).toBe(true);
  });

  it('places a palette block from the keyboard, asks before removing a block, and designs a rich-text mailing', async () => {
    const { page } = await signedInAdmin(run);
    const made = await page.request.post('/api/communication/designer/newTemplate', {
      data: { Name: 'Winter letter (designed)', Subject: 'Winter at the association' },
    });
    expect(made.status()).toBe(200);
    const id = (await made.json()).Data.TemplateId as number;
    await page.goto(`/a/designer/templates/${id}`);
    const blocks = page.getByTestId('design-block');
    const status = page.getByTestId('design-placing-status');
    await poll(() => blocks.count()).toBe(3);

    // Space picks the divider up (at the end), the arrow keys move it, Space drops it: second place.
    await page.getByRole('button', { name: 'Divider', exact: true }).focus();
    await page.keyboard.press('Space');
    await poll(() => status.textContent()).toBe('Divider: place 4 of 4.');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await poll(() => status.textContent()).toBe('Divider: place 2 of 4.');
    expect(await page.getByTestId('design-placing-line').count()).toBe(1);
    await page.keyboard.press('Space');
    await poll(() => blocks.count()).toBe(4);
    expect(await blocks.nth(1).getAttribute('data-block-type')).toBe('divider');
    expect(await status.textContent()).toBe('');
    // Escape puts a picked-up block back: nothing added.
    await page.getByRole('button', { name: 'Spacer', exact: true }).focus();
    await page.keyboard.press('Space');
    await poll(() => status.textContent()).toBe('Spacer: place 3 of 5.');
    await page.keyboard.press('Escape');
    await poll(() => status.textContent()).toBe('');
    expect(await blocks.count()).toBe(4);

    // Removing a block asks first; Cancel keeps it.
    await blocks.nth(1).click();
    await page.getByRole('button', { name: 'Remove block' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the block' });
    await confirm.getByText('Remove this divider block from the design?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await blocks.count()).toBe(4);
    await page.getByRole('button', { name: 'Remove block' }).click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await poll(() => blocks.count()).toBe(3);
    expect(await page.locator('[data-block-type="divider"]').count()).toBe(0);

    // "Design it": a rich-text mailing becomes a design whose text block is its message, above the footer.
    const mailing = await page.request.post('/api/communication/mailings', {
      data: {
        Name: 'Winter rich-text letter',
        TemplateId: null,
        Subject: 'Winter news',
        BodyHtml: '<p>Snow on the <strong>courts</strong> this week.</p>',
        DesignJson: null,
        Audience: { Kind: 'filter', FilterId: 0 },
      },
    });
    expect(mailing.status(), await mailing.text()).toBe(201);
    const mailingId = (await mailing.json()).MailingId as number;
    await page.goto(`/a/mailings/${mailingId}`);
    await page.getByRole('button', { name: 'Design it' }).click();
    await page
      .getByRole('dialog', { name: 'Design this message' })
      .getByRole('button', { name: 'Design it' })
      .click();
    await page.waitForURL(new RegExp(`/a/designer/mailings/${mailingId}$`));
    await poll(() => blocks.count()).toBe(2);
    expect(await blocks.nth(0).getAttribute('data-block-type')).toBe('text');
    await poll(() => blocks.nth(0).textContent()).toContain('Snow on the courts this week.');
    expect(await blocks.nth(1).getAttribute('data-block-type')).toBe('footer');
    // Saved with the mailing: the mailing now says it is designed.
    const saved = await (await page.request.get(`/api/communication/mailings/${mailingId}`)).json();
    expect(saved.DesignJson.Blocks).toHaveLength(2);
  });
});
