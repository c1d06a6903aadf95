/**
 * Files and images in the browser (issue 13): uploading with progress, the -600 and -601 messages and a refusal by
 * content, a contact's Files tab (uploading, and adding a file chosen from the library), cropping and seeing the cropped image, choosing from the library, reordering with
 * the keyboard and the mouse (the saved order seen again after a reload), a file hit of the global search downloading, and images 100 % wide at 520 px.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Image } from '@guildhall/shared';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, poll } from '../support/suite.ts';

let dir: string;

const run = bootForFile();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gh-e2e-files-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, bytes: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** Left half red, right half blue: a crop shows which part was kept. */
const halves = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2255cc' } })
    .composite([
      {
        input: { create: { width: width / 2, height, channels: 3, background: '#dd2222' } },
        left: 0,
        top: 0,
      },
    ])
    .jpeg()
    .toBuffer();

/** Records every text the upload status shows, so a short-lived '% DONE' is seen. */
async function recordStatuses(page: Page) {
  await page.evaluate(`(() => {
    const seen = [];
    window.__statuses = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="upload-status"]')) {
        const text = el.textContent || '';
        if (seen[seen.length - 1] !== text) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  return () => page.evaluate('window.__statuses') as Promise<string[]>;
}

async function galleryImages(page: Page): Promise<Image[]> {
  const res = await page.request.get('/api/images/Usage/3');
  return ((await res.json()) as { Images: Image[] }).Images;
}

describe('files and images', () => {
  it("uploads with '% DONE' then COMPLETED, and shows -600, -601 and the server's refusal as FAILED", async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto('/a/files');
    await page.getByText('This folder is empty.').waitFor();
    const statuses = await recordStatuses(page);
    const input = page.locator('.gh-upload-field input[type=file]');
    // 24 MB of PDF: enough for the browser to report progress more than once.
    await input.setInputFiles(
      file(
        'annual report.pdf',
        Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(24 * 1024 * 1024, 32)]),
      ),
    );
    await page.getByTestId('upload-status').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: 60_000 });
    expect((await statuses()).some((s) => /^\d+% DONE$/.test(s))).toBe(true);
    await page.getByRole('link', { name: 'annual report.pdf' }).waitFor();

    await input.setInputFiles(file('setup.exe', 'MZ'));
    await page
      .getByRole('alert')
      .filter({ hasText: "FAILED: You cannot upload files with an 'exe' extension ('setup.exe')" })
      .waitFor();
    await input.setInputFiles(file('huge.pdf', Buffer.alloc(51 * 1024 * 1024, 32)));
    await page.getByRole('alert').filter({ hasText: "FAILED: File 'huge.pdf' is too large" }).waitFor();
    // Checked by the server from the bytes: an executable named .pdf.
    await input.setInputFiles(
      file(
        'invoice.pdf',
        Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff'), Buffer.alloc(300)]),
      ),
    );
    await page
      .getByRole('alert')
      .filter({ hasText: /FAILED: The content of 'invoice.pdf' is not a pdf file/ })
      .waitFor();
    // The server also says -600 itself when the browser's check is passed by.
    const direct = await page.request.post('/api/files/upload', {
      multipart: {
        file: { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
      },
    });
    expect(await direct.json()).toEqual({
      message: "You cannot upload files with an 'exe' extension ('setup.exe')",
      Code: -601,
    });
    await context.close();
  });

  it("a contact's Files tab lists its files and uploads into them", async () => {
    const { page, context } = await signedInAdmin(run);
    const res = await page.request.post('/api/contacts/contacts/contactSave', {
      data: { ContactType: 'individual', Status: 'active', FirstName: 'Grace', LastName: 'Hopper' },
    });
    const contactId = ((await res.json()) as { Data: { ContactId: number } }).Data.ContactId;
    await page.goto(`/micronet/list/contacts/contacts/${contactId}?tab=files`);
    await page.getByRole('tab', { name: 'Files' }).waitFor();
    await page.getByText('This folder is empty.').waitFor();
    await page
      .locator('.gh-upload-field input[type=file]')
      .setInputFiles(file('certificate.pdf', '%PDF-1.4\n%%EOF\n'));
    await page.getByRole('link', { name: 'certificate.pdf' }).waitFor();
    const listed = await page.request.get(`/api/files/contact/${contactId}`);
    expect(((await listed.json()) as { Records: { Name: string }[] }).Records.map((r) => r.Name)).toEqual([
      'certificate.pdf',
    ]);
    // The library itself does not show a contact's files.
    await page.goto('/a/files');
    await page.getByText('This folder is empty.').waitFor();
    await context.close();
  });

  it('crops an image in the image dialog and shows the cropped image; chooses one from the library; reorders', async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto('/a/files');
    await page.getByRole('tab', { name: 'Gallery' }).click();
    await page.getByRole('button', { name: 'Add an image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Image' });
    await dialog.locator('input[type=file]').setInputFiles(file('halves.jpg', await halves(800, 400)));
    await dialog.getByTestId('image-progress').filter({ hasText: '100%' }).waitFor({ timeout: 20_000 });
    // Zoom in three steps with the wheel, then pull the picture right: the crop keeps a part of the red half.
    const box = (await dialog.getByTestId('crop-box').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 3; i++) {
      await page.mouse.wheel(0, -200);
      await page.waitForTimeout(150);
    }
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 5, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await dialog.getByLabel('Alt text').fill('The red half');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const [cropped] = await galleryImages(page);
    expect(cropped!.ShortDescription).toBe('The red half');
    expect(cropped!.CropWidth!).toBeLessThan(800);
    // The served image is the crop, made on the server: smaller than the original and red where it starts.
    const shown = page.getByRole('img', { name: 'The red half' });
    await shown.waitFor();
    await poll(() =>
      shown.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth),
    ).toBe(cropped!.CropWidth);
    const bytes = await (await page.request.get(cropped!.Url!)).body();
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(cropped!.CropWidth);
    expect(data[0]).toBeGreaterThan(180);

    // A picture uploaded to the library, then chosen from it in the image dialog.
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.locator('.gh-upload-field input[type=file]').setInputFiles(
      file(
        'team.png',
        await sharp({ create: { width: 300, height: 200, channels: 3, background: '#22aa44' } })
          .png()
          .toBuffer(),
      ),
    );
    await page.getByRole('link', { name: 'team.png' }).waitFor();
    await page.getByRole('tab', { name: 'Gallery' }).click();
    await page.getByRole('button', { name: 'Add an image' }).click();
    await dialog.getByRole('button', { name: 'Choose from the library' }).click();
    await page.getByRole('button', { name: 'Choose team.png' }).click();
    await dialog.getByLabel('Title').fill('The team');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit The team' }).waitFor();

    // A third image, then the reorder dialog with the keyboard: the first moves to the end.
    await page.getByRole('button', { name: 'Add an image' }).click();
    await dialog.locator('input[type=file]').setInputFiles(file('third.jpg', await halves(200, 200)));
    await dialog.getByTestId('image-progress').filter({ hasText: '100%' }).waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const before = (await galleryImages(page)).map((i) => i.ImageId);
    expect(before).toHaveLength(3);
    await page.getByRole('button', { name: 'Reorder' }).click();
    const reorder = page.getByRole('dialog', { name: 'Reorder images' });
    const thumbs = reorder.getByTestId('reorder-thumbnail');
    await poll(() => thumbs.count()).toBe(3);
    const size = await thumbs.first().locator('img').boundingBox();
    expect([Math.round(size!.width), Math.round(size!.height)]).toEqual([75, 75]);
    // Each key waits for the drag's spoken announcement to change: on a busy machine a key pressed while the
    // previous move still animates is lost.
    const live = page.locator('[id^="DndLiveRegion"]');
    // A key the page did not take (the announcement stays as it was for 5 s) is pressed again, up to three times;
    // an ArrowRight with nowhere to go announces nothing either, so the saved order below is what is checked.
    const press = async (key: string) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const previous = (await live.textContent()) ?? '';
        await page.keyboard.press(key);
        const until = Date.now() + 5_000;
        while (Date.now() < until) {
          if (((await live.textContent()) ?? '') !== previous) return;
          await page.waitForTimeout(100);
        }
      }
    };
    await thumbs.first().focus();
    await press('Space');
    await press('ArrowRight');
    await press('ArrowRight');
    await press('Space');
    await reorder.getByRole('button', { name: 'Save order' }).click();
    await reorder.waitFor({ state: 'detached' });
    await poll(async () => (await galleryImages(page)).map((i) => i.ImageId)).toEqual([
      before[1],
      before[2],
      before[0],
    ]);

    // And with the mouse: the last thumbnail dragged onto the first takes its place.
    await page.getByRole('button', { name: 'Reorder' }).click();
    await poll(() => thumbs.count()).toBe(3);
    const order = () =>
      thumbs.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-image-id'))));
    await poll(order).toEqual([before[1], before[2], before[0]]);
    const from = (await thumbs.last().boundingBox())!;
    const to = (await thumbs.first().boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    // Past the 4 px activation distance first, then across in small steps, as a hand does.
    await page.mouse.move(from.x + from.width / 2 - 10, from.y + from.height / 2, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
    await poll(order).toEqual([before[0], before[1], before[2]]);
    expect(await thumbs.first().getAttribute('aria-label')).toMatch(/, position 1$/);
    // dnd-kit's pointer sensor swallows a click in the 50 ms after a drop (no hand clicks Save that fast).
    await page.waitForTimeout(250);
    await reorder.getByRole('button', { name: 'Save order' }).click();
    await reorder.waitFor({ state: 'detached' });
    await poll(async () => (await galleryImages(page)).map((i) => i.ImageId)).toEqual(before);
    // The saved order is what the page shows after a reload.
    await page.reload();
    await page.getByRole('tab', { name: 'Gallery' }).click();
    await page.getByRole('button', { name: 'Reorder' }).click();
    await poll(() => thumbs.count()).toBe(3);
    await poll(order).toEqual(before);
    await reorder.getByRole('button', { name: 'Cancel' }).click();
    await reorder.waitFor({ state: 'detached' });
    await context.close();
  });

  it("a contact's Files tab adds a file chosen from the library (the select-existing-file dialog)", async () => {
    const { page, context } = await signedInAdmin(run);
    const res = await page.request.post('/api/contacts/contacts/contactSave', {
      data: { ContactType: 'individual', Status: 'active', FirstName: 'Katherine', LastName: 'Johnson' },
    });
    const contactId = ((await res.json()) as { Data: { ContactId: number } }).Data.ContactId;
    const folder = await page.request.post('/api/files/folder', { data: { Name: 'Certificates' } });
    const folderId = ((await folder.json()) as { Id: number }).Id;
    const up = await page.request.post(`/api/files/upload?folderId=${folderId}`, {
      multipart: {
        file: {
          name: 'first-aid.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
        },
      },
    });
    expect(up.ok()).toBe(true);
    await page.goto(`/micronet/list/contacts/contacts/${contactId}?tab=files`);
    await page.getByText('This folder is empty.').waitFor();
    await page.getByRole('button', { name: 'Add from the library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a file from the library' });
    // Folders open on a click; a file is chosen.
    await dialog.getByRole('button', { name: 'Open folder Certificates' }).click();
    await dialog.getByRole('button', { name: 'Choose first-aid.pdf' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText("Added first-aid.pdf to the contact's files.").waitFor();
    await page.getByRole('link', { name: 'first-aid.pdf' }).waitFor();
    const listed = await page.request.get(`/api/files/contact/${contactId}`);
    expect(((await listed.json()) as { Records: { Name: string }[] }).Records.map((r) => r.Name)).toEqual([
      'first-aid.pdf',
    ]);
    await context.close();
  });

  it("the association's logo set in settings shows in the header; a contact's photo on the record", async () => {
    const { page, context } = await signedInAdmin(run);
    await page.goto('/a/settings');
    await page.getByRole('button', { name: 'Add logo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Image' });
    await dialog.locator('input[type=file]').setInputFiles(
      file(
        'logo.png',
        await sharp({ create: { width: 240, height: 80, channels: 3, background: '#114488' } })
          .png()
          .toBuffer(),
      ),
    );
    await dialog.getByTestId('image-progress').filter({ hasText: '100%' }).waitFor({ timeout: 20_000 });
    await dialog.getByLabel('Alt text').fill('Our logo');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    const logo = page.getByTestId('header-logo');
    await logo.waitFor();
    expect(await logo.getAttribute('alt')).toBe('Our logo');

    const res = await page.request.post('/api/contacts/contacts/contactSave', {
      data: { ContactType: 'individual', Status: 'active', FirstName: 'Ada', LastName: 'Byron' },
    });
    const contactId = ((await res.json()) as { Data: { ContactId: number } }).Data.ContactId;
    await page.goto(`/micronet/list/contacts/contacts/${contactId}`);
    await page.getByRole('button', { name: 'Add photo' }).click();
    await dialog.locator('input[type=file]').setInputFiles(file('ada.jpg', await halves(300, 200)));
    await dialog.getByTestId('image-progress').filter({ hasText: '100%' }).waitFor({ timeout: 20_000 });
    // A photo is square: the crop box forces the usage's aspect ratio.
    await dialog.getByText('This image is cropped to a square.').waitFor();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Change photo' }).waitFor();
    const photo = await page.request.get(`/api/images/Usage/2?secondary=${contactId}`);
    const [image] = ((await photo.json()) as { Images: Image[] }).Images;
    expect(image!.CropWidth).toBe(image!.CropHeight);
    await context.close();
  });

  it('a file hit of the global search downloads the file', async () => {
    const { page, context } = await signedInAdmin(run);
    const up = await page.request.post('/api/files/upload', {
      multipart: {
        file: {
          name: 'Treasurer minutes.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from('The budget was approved.'),
        },
      },
    });
    expect(up.ok()).toBe(true);
    await page.goto('/a');
    const search = page.getByRole('combobox', { name: /search/i });
    await search.fill('treasurer');
    const hit = page.getByRole('option', { name: /Treasurer minutes\.txt/ });
    await hit.waitFor();
    const download = page.waitForEvent('download');
    await hit.click();
    const done = await download;
    expect(done.suggestedFilename()).toBe('Treasurer minutes.txt');
    expect(await done.failure()).toBeNull();
    await context.close();
  });

  it('images are 100 % wide at the 520 px breakpoint', async () => {
    const { page, context } = await signedInAdmin(run, { width: 500, height: 900 });
    const up = await page.request.post('/api/images/Upload/3/0', {
      multipart: { file: { name: 'wide.jpg', mimeType: 'image/jpeg', buffer: await halves(400, 100) } },
    });
    expect(up.ok()).toBe(true);
    await page.goto('/a/files');
    await page.getByRole('tab', { name: 'Gallery' }).click();
    const img = page.locator('.gh-gallery img').first();
    await img.waitFor();
    const card = await page.locator('.gh-gallery').boundingBox();
    const shown = await img.boundingBox();
    expect(shown!.width).toBeGreaterThan(card!.width * 0.85);
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    const crop = await page.getByTestId('crop-box').boundingBox();
    const modal = await page.getByRole('dialog', { name: 'Image' }).boundingBox();
    expect(crop!.width).toBeLessThanOrEqual(modal!.width);
    expect(crop!.width).toBeGreaterThan(modal!.width * 0.8);
    await context.close();
  });
});
