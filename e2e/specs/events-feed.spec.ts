/**
 * A member's calendar feed in the browser (issue 17): the member makes the secret address of their registrations
 * from "My registrations", the address serves their events as iCalendar, and resetting it gives a new address while
 * the old one stops working.
 */
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, inDays, type Model, poll } from '../support/suite.ts';

const run = bootForFile();

describe("a member's calendar feed", () => {
  it('makes, copies and resets the address of the feed of their registrations', async () => {
    const { t, page } = await signedInAdmin(run);
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'Harbour lecture',
        Status: 'published',
        Visibility: 'members',
        TimezoneId: 'Europe/London',
        RegistrationOpen: true,
        StartsAt: inDays(12, 18),
        EndsAt: inDays(12, 20),
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const event = ((await saved.json()) as { Data: Model }).Data;
    const contact = await page.request.post('/api/contacts/contacts/contactSave', {
      data: { ContactType: 'individual', Status: 'active', FirstName: 'Fay', LastName: 'Feed' },
    });
    const contactId = ((await contact.json()) as { Data: Model }).Data.ContactId;
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${contactId}`,
      ),
    );

    const member = await run.newPage();
    await signInAs(member.page, t.member.username, t.member.password);
    await member.page.waitForURL(/\/m\/?/);
    await member.page.goto(`/m/events/${event.HashedEventId}`);
    await member.page.getByRole('heading', { name: 'Harbour lecture' }).waitFor();
    await member.page.getByRole('button', { name: 'Register' }).click();
    await poll(() => member.page.getByTestId('register-result').textContent()).toMatch(/Registered/);

    await member.page.goto('/m/events?tab=mine');
    await member.page.getByText('My events in my calendar').waitFor();
    await member.page.getByRole('button', { name: 'Make my calendar address' }).click();
    await member.page.getByText('Your calendar address is ready to copy.').waitFor();
    const address = member.page.getByLabel('Calendar address');
    const first = await address.inputValue();
    expect(first).toMatch(/\/api\/events\/my-feed\/[0-9a-f-]{36}\/[\w-]{43}\.ics$/);
    const path = (url: string) => new URL(url).pathname;
    const feed = await member.page.request.get(path(first));
    expect(feed.status()).toBe(200);
    const text = await feed.text();
    expect(text).toContain('SUMMARY:Harbour lecture');
    expect(text).toContain('TZID=Europe/London');
    await member.page.getByRole('button', { name: 'Copy' }).waitFor();

    await member.page.getByRole('button', { name: 'Reset the address' }).click();
    await member.page.getByRole('dialog').getByRole('button', { name: 'Reset the address' }).click();
    await member.page.getByText('Your calendar address is new; the old one no longer works.').waitFor();
    await poll(() => address.inputValue()).not.toBe(first);
    expect((await member.page.request.get(path(first))).status()).toBe(404);
    expect((await member.page.request.get(path(await address.inputValue()))).status()).toBe(200);
    await member.page.screenshot({ path: '/tmp/events-member-feed.png', fullPage: true });
  });
});
