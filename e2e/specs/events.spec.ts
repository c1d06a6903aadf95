/**
 * Events in the browser (issue 17): the calendar views fed by the range endpoint, drawn in the zone the user chose,
 * creating a repeating event on the generic form, a member registering and joining the waitlist then taking an
 * offered seat, check-in on a phone-sized screen, the contact record's Events tab, and an event found by the
 * header's search.
 */
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, inDays, type Model, poll } from '../support/suite.ts';

const run = bootForFile();

async function saveEvent(page: Page, model: Model): Promise<Model> {
  const res = await page.request.post('/api/events/events/eventSave', {
    data: {
      Status: 'published',
      Visibility: 'public',
      TimezoneId: 'America/Chicago',
      RegistrationOpen: true,
      WaitlistEnabled: true,
      ...model,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Data: Model }).Data;
}

describe('events', () => {
  it('shows occurrences on the month, week, day and agenda views, and the shortcuts move the range', async () => {
    const { page } = await signedInAdmin(run);
    await saveEvent(page, {
      Name: 'Chapter meeting',
      StartsAt: inDays(1, 17),
      EndsAt: inDays(1, 18),
      Repeats: 'weekly',
    });
    await page.goto('/a/events/calendar');
    await page.getByRole('heading', { name: 'Events calendar' }).waitFor();
    await page.getByTestId('events-calendar').getByText('Chapter meeting').first().waitFor();
    await poll(() => page.locator('[data-testid="calendar-count"]').textContent()).toMatch(
      /^[1-9] occurrences? shown/,
    );
    await page.getByTestId('events-calendar').getByText('Week', { exact: true }).click();
    await page.locator('[data-view="timeGridWeek"]').waitFor();
    await page.screenshot({ path: '/tmp/events-week.png', fullPage: true });
    await page.getByTestId('events-calendar').getByText('List', { exact: true }).click();
    await page.locator('[data-view="listMonth"]').waitFor();
    await page.getByText('Chapter meeting').first().waitFor();
    await page.screenshot({ path: '/tmp/events-agenda.png', fullPage: true });
    await page.getByRole('button', { name: 'Last Year' }).click();
    await poll(() => page.locator('[data-testid="calendar-count"]').textContent()).toMatch(/^0 occurrences/);
    await page.getByRole('button', { name: 'This Month' }).click();
    await page.locator('[data-view="dayGridMonth"]').waitFor();
    await page.screenshot({ path: '/tmp/events-calendar.png', fullPage: true });
    await page.getByTestId('events-calendar').getByText('Chapter meeting').first().click();
    await page.waitForURL(/\/micronet\/list\/events\/events\/\d+/);
    await page.getByRole('tab', { name: 'Occurrences' }).waitFor();
  });

  it('draws the calendar in the time zone the user chose, whatever the zone of their device', async () => {
    const { page } = await signedInAdmin(run);
    const starts = inDays(2, 17);
    await saveEvent(page, { Name: 'Board call', StartsAt: starts, EndsAt: inDays(2, 18) });
    // The device reads UTC; the user chose Tokyo, where 17:00 UTC is 2:00 the next morning.
    const chosen = await page.request.put('/api/auth/me/time-zone', { data: { TimeZone: 'Asia/Tokyo' } });
    expect(chosen.status(), await chosen.text()).toBe(200);
    await page.goto('/a/events/calendar');
    const calendar = page.getByTestId('events-calendar');
    await poll(() => page.locator('[data-testid="calendar-count"]').textContent()).toMatch(
      /shown, in your timezone \(Asia\/Tokyo\)$/,
    );
    await calendar.getByText('List', { exact: true }).click();
    await page.locator('[data-view="listMonth"]').waitFor();
    // The month of the occurrence in Tokyo (it may be the next one).
    const tokyoMonth = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tokyo',
      month: 'long',
      year: 'numeric',
    });
    const title = calendar.getByRole('heading').first();
    if ((await title.textContent()) !== tokyoMonth.format(new Date(starts)))
      await calendar.getByRole('button', { name: /next/i }).click();
    // Under the day it falls on in Tokyo, from 2:00 to 3:00 in the morning.
    const day = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    }).format(new Date(starts));
    const occurrence = calendar
      .getByRole('listitem', { name: day })
      .getByRole('button', { name: /Board call/ });
    await occurrence.waitFor();
    expect(await occurrence.textContent()).toMatch(/^2:00\s*[–-]\s*3:00\s*am\s*Board call$/i);
  });

  it('a member registers, joins the waitlist when full, and takes the seat offered when one frees', async () => {
    const { t, page } = await signedInAdmin(run);
    const event = await saveEvent(page, {
      Name: 'Leadership workshop',
      StartsAt: inDays(10, 15),
      EndsAt: inDays(10, 17),
      Capacity: 1,
    });
    const contact = await page.request.post('/api/contacts/contacts/contactSave', {
      data: {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Mia',
        LastName: 'Member',
        Email: 'mia@example.org',
      },
    });
    const contactId = ((await contact.json()) as { Data: Model }).Data.ContactId;
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${contactId}`,
      ),
    );
    const detail = (await (
      await page.request.get(`/api/events/getEventId/${event.EventId}`)
    ).json()) as Model;
    const first = await page.request.post('/api/events/registrations', {
      data: { EventDetailId: detail.EventDetailId, Attendees: [{ Name: 'Early Bird' }] },
    });
    const firstAttendee = ((await first.json()) as { Attendees: Model[] }).Attendees[0]?.AttendeeId;
    // The event's Attendees tab names each attendee (a link to the attendee), not their number.
    await page.goto(`/micronet/list/events/events/${event.EventId}?tab=eventAttendees`);
    await page
      .getByRole('list', { name: 'Attendees list' })
      .getByRole('link', { name: 'Early Bird', exact: true })
      .waitFor();
    // Its Occurrences tab names each occurrence by its start, in the association's zone (the admin chose none).
    const startDay = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Chicago',
      month: '2-digit',
      day: '2-digit',
      year: 'numeric',
    }).format(new Date(String(event.StartsAt)));
    await page.goto(`/micronet/list/events/events/${event.EventId}?tab=eventDetails`);
    await page
      .getByRole('list', { name: 'Occurrences list' })
      .getByRole('link', {
        name: new RegExp(`^${startDay.replaceAll('/', '\\/')} \\d{1,2}:\\d{2} [AP]M C[SD]T$`),
      })
      .waitFor();
    // Its Registration types tab (a plain list, without headers) says which amount is which.
    const type = await page.request.post('/api/events/registration-types/registrationTypeSave', {
      data: {
        EventId: event.EventId,
        Name: 'Standard',
        MemberPrice: 12000,
        NonMemberPrice: 18000,
        Capacity: 40,
      },
    });
    expect(type.status(), await type.text()).toBe(200);
    await page.goto(`/micronet/list/events/events/${event.EventId}?tab=eventRegistrationTypes`);
    const types = page.getByRole('list', { name: 'Registration types list' });
    await types.getByRole('link', { name: 'Standard', exact: true }).waitFor();
    await poll(() => types.getByRole('listitem').first().textContent()).toBe(
      'StandardMember $120.00 · Non-member $180.00 · Early-bird discount $0.00 · Seats 40 · Members only: No',
    );

    const member = await run.newPage();
    await signInAs(member.page, t.member.username, t.member.password);
    await member.page.waitForURL(/\/m\/?/);
    // The member area's home leads to the events (the member area has no side navigation).
    await member.page.getByRole('link', { name: 'See upcoming events' }).click();
    await member.page.getByRole('tab', { name: 'My registrations' }).waitFor();
    await member.page.goto(`/m/events/${event.HashedEventId}`);
    await member.page.getByRole('heading', { name: 'Leadership workshop' }).waitFor();
    await member.page.getByText('full, waitlist open').waitFor();
    await member.page.getByRole('button', { name: 'Register' }).click();
    await poll(() => member.page.getByTestId('register-result').textContent()).toMatch(/waitlist/);

    // Staff see her on the event's Waitlist tab, the seats on its Check-in tab, the (free) money on Finances.
    await page.goto(`/micronet/list/events/events/${event.EventId}?tab=waitlist`);
    const waitlist = page.getByRole('table', { name: 'Waitlist' });
    await waitlist.getByRole('link', { name: 'Mia Member' }).waitFor();
    await waitlist.getByText('Waitlisted').waitFor();
    await page.getByRole('tab', { name: 'Check-in' }).click();
    const door = page.getByRole('table', { name: 'Occurrences at the door' });
    await door.getByRole('cell', { name: '1 of 1' }).waitFor();
    await door.getByRole('link', { name: 'Open check-in' }).waitFor();
    await page.getByRole('tab', { name: 'Finances' }).click();
    await poll(() => page.getByTestId('event-finances').textContent()).toMatch(/Billed\$0\.00/);

    // The first attendee cancels: the member is offered the seat and takes it.
    expect((await page.request.post(`/api/events/attendees/${firstAttendee}/cancel`)).status()).toBe(200);
    // Her home names the event she waits for, then the one she has a seat at.
    await member.page.goto('/m');
    await poll(() => member.page.getByTestId('home-summary-events').textContent()).toMatch(
      /^Next: Leadership workshop, \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M C[SD]T \(a seat is offered to you\)\.$/,
    );
    await member.page.goto('/m/events?tab=mine');
    await member.page.getByRole('button', { name: 'Take the seat' }).click();
    await poll(() => member.page.getByTestId('my-registration').first().textContent()).toMatch(/Registered/);
    await member.page.goto('/m');
    await poll(() => member.page.getByTestId('home-summary-events').textContent()).toMatch(
      /^Next: Leadership workshop, \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M C[SD]T\.$/,
    );
  });

  it('checks attendees in on a phone-sized screen', async () => {
    const { t, page } = await signedInAdmin(run);
    const event = await saveEvent(page, {
      Name: 'Networking breakfast',
      StartsAt: inDays(1, 13),
      EndsAt: inDays(1, 15),
    });
    const detail = (await (
      await page.request.get(`/api/events/getEventId/${event.EventId}`)
    ).json()) as Model;
    const reg = await page.request.post('/api/events/registrations', {
      data: {
        EventDetailId: detail.EventDetailId,
        Attendees: [{ Name: 'Dora Door' }, { Name: 'Carl Code' }],
      },
    });
    const code = ((await reg.json()) as { Attendees: Model[] }).Attendees[1]?.CheckInCode as string;
    const phone = await run.newPage({ width: 390, height: 844 });
    await signInAs(phone.page, t.admin.username, t.admin.password);
    await phone.page.waitForURL(/\/a\/?$/);
    await phone.page.goto(`/a/events/check-in/${detail.EventDetailId}`);
    await phone.page.getByRole('heading', { name: 'Check-in: Networking breakfast' }).waitFor();
    await phone.page.getByLabel('Find by name or email').fill('dora');
    await poll(() => phone.page.getByTestId('check-in-row').count()).toBe(1);
    await phone.page.getByRole('button', { name: 'Check in Dora Door' }).click();
    await phone.page.getByRole('button', { name: 'Undo check-in of Dora Door' }).waitFor();
    await phone.page.getByLabel('Find by name or email').fill('');
    await phone.page.getByLabel('Code on the confirmation').fill(code.toLowerCase());
    await phone.page.getByRole('button', { name: 'Check in', exact: true }).click();
    // The occurrence's start as every time of the product reads, in the association's zone (not the phone's).
    await phone.page
      .getByText(/^\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M C[SD]T · 2 of 2 checked in$/)
      .waitFor();
    const width = (await phone.page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(width).toBeLessThanOrEqual(390);
    await phone.page.screenshot({ path: '/tmp/events-check-in.png', fullPage: true });
  });
  it("shows a contact's registrations on the contact's Events tab, and the header search opens an event", async () => {
    const { page } = await signedInAdmin(run);
    const event = await saveEvent(page, {
      Name: 'Marigold ethics seminar',
      StartsAt: inDays(6, 15),
      EndsAt: inDays(6, 18),
      CreditHours: 3,
    });
    const contact = await page.request.post('/api/contacts/contacts/contactSave', {
      data: { ContactType: 'individual', Status: 'active', FirstName: 'Tess', LastName: 'Tabbed' },
    });
    const contactId = ((await contact.json()) as { Data: Model }).Data.ContactId;
    const detail = (await (
      await page.request.get(`/api/events/getEventId/${event.EventId}`)
    ).json()) as Model;
    const reg = await page.request.post('/api/events/registrations', {
      data: {
        EventDetailId: detail.EventDetailId,
        ContactId: contactId,
        Attendees: [{ ContactId: contactId }, { Name: 'Gus Guest' }],
      },
    });
    const tess = ((await reg.json()) as { Attendees: Model[] }).Attendees[0];
    await page.request.post('/api/events/check-in', {
      data: { EventDetailId: detail.EventDetailId, AttendeeId: tess?.AttendeeId },
    });

    await page.goto(`/micronet/list/contacts/contacts/${contactId}?tab=events`);
    await page.getByRole('tab', { name: 'Events' }).waitFor();
    const panel = page.getByRole('tabpanel');
    await panel.getByText('Continuing-education credits').waitFor();
    await panel.getByRole('link', { name: 'Marigold ethics seminar' }).first().waitFor();
    await panel.getByText('Attended').first().waitFor();
    await panel.getByText('guest they registered').waitFor();
    await panel.getByText('Credits transcript').waitFor();
    await page.screenshot({ path: '/tmp/events-contact-tab.png', fullPage: true });
    await panel.getByRole('link', { name: 'Marigold ethics seminar' }).first().click();
    await page.waitForURL(new RegExp(`/micronet/list/events/events/${event.EventId}`));

    await page.getByRole('combobox', { name: /search/i }).fill('marigold');
    await page.getByRole('option', { name: /Marigold ethics seminar/ }).waitFor();
    await page.goto('/a');
    await page.getByRole('combobox', { name: /search/i }).fill('marigold');
    await page.getByRole('option', { name: /Marigold ethics seminar/ }).click();
    await page.waitForURL(new RegExp(`/micronet/list/events/events/${event.EventId}`));
  });
});
