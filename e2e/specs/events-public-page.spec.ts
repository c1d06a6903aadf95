/**
 * Event pages in the event's own time zone, whatever the browser's: the public page of a published public event
 * (no session: its image, its times named in the event's zone, registration without an account and the sign-in
 * call to action) and the member's page, both read by a browser in Tokyo for an event in Chicago.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, type Model, poll } from '../support/suite.ts';

const run = bootForFile();

/** A day in January (standard time in Chicago, UTC-6) at 15:00 UTC: 09:00 in Chicago, 00:00 the next day in Tokyo. */
const january = (hourUtc: number) => {
  const year = new Date().getUTCFullYear() + 1;
  return new Date(Date.UTC(year, 0, 14, hourUtc, 0, 0)).toISOString();
};

describe('event pages in the event’s time zone', () => {
  it('the public page (no session) and the member page show Chicago times to a browser in Tokyo', async () => {
    const { t, page } = await signedInAdmin(run);
    const picture = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#cc5522' } })
      .png()
      .toBuffer();
    const upload = await page.request.post('/api/images/Upload/0/0', {
      multipart: { file: { name: 'river.png', mimeType: 'image/png', buffer: picture } },
    });
    expect(upload.status(), await upload.text()).toBe(200);
    const fileId = ((await upload.json()) as { FileId: number }).FileId;
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'River clean-up',
        Status: 'published',
        Visibility: 'public',
        RegistrationOpen: true,
        Capacity: 30,
        TimezoneId: 'America/Chicago',
        StartsAt: january(15),
        EndsAt: january(17),
        ImageFileId: fileId,
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const event = ((await saved.json()) as { Data: Model }).Data;

    // The event's record links to its public page.
    await page.goto(`/micronet/list/events/events/${String(event.EventId)}`);
    const link = page.getByRole('link', { name: 'Public page' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/events/${t.tenant.id}/${String(event.HashedEventId)}`);

    // The public page: a visitor without a session, in Tokyo.
    const visitor = await run.newPage(undefined, { timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    const v = visitor.page;
    await v.goto(`/events/${t.tenant.id}/${String(event.HashedEventId)}`);
    await v.getByRole('heading', { name: 'River clean-up' }).waitFor();
    await poll(() =>
      v
        .getByRole('img', { name: 'River clean-up' })
        .evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
    ).toBe(640);
    await v.getByText("Times in the event's time zone: America/Chicago").waitFor();
    const when = v.getByRole('radio');
    const label = await v.locator('label').filter({ hasText: '09:00' }).first().textContent();
    expect(label).toMatch(/09:00/);
    expect(label).toMatch(/11:00/);
    expect(label).toMatch(/CST/);
    expect(label).not.toMatch(/00:00/);
    expect(await when.count()).toBe(1);
    expect(await v.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/sign-in?next=${encodeURIComponent(`/m/events/${String(event.HashedEventId)}`)}`,
    );
    await v.getByLabel('First name').fill('Nia');
    await v.getByLabel('Last name').fill('Okafor');
    await v.getByLabel('Email').fill('nia.okafor@example.org');
    await v.getByRole('button', { name: 'Register' }).click();
    await poll(() => v.getByTestId('register-result').textContent()).toMatch(/Registered for River clean-up/);
    await visitor.context.close();

    // The member's page, also from Tokyo.
    const member = await run.newPage(undefined, { timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    await signInAs(member.page, t.member.username, t.member.password);
    await member.page.waitForURL(/\/m\/?/);
    await member.page.goto(`/m/events/${String(event.HashedEventId)}`);
    await member.page.getByRole('heading', { name: 'River clean-up' }).waitFor();
    await member.page.getByText("Times in the event's time zone: America/Chicago").waitFor();
    const memberLabel = await member.page.locator('label').filter({ hasText: '09:00' }).first().textContent();
    expect(memberLabel).toMatch(/09:00.*11:00.*CST/);
    await member.context.close();
  });

  it('an unpublished or unknown event shows no page', async () => {
    const { t, page } = await signedInAdmin(run);
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'Secret draft',
        Status: 'draft',
        Visibility: 'public',
        StartsAt: january(15),
        EndsAt: january(16),
      },
    });
    const event = ((await saved.json()) as { Data: Model }).Data;
    const visitor = await run.newPage();
    await visitor.page.goto(`/events/${t.tenant.id}/${String(event.HashedEventId)}`);
    await visitor.page.getByRole('alert').first().waitFor();
    expect(await visitor.page.getByRole('heading', { name: 'Secret draft' }).count()).toBe(0);
    await visitor.context.close();
  });
});
