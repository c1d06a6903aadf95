/**
 * Certifications and the door in the browser (issue 17): a failed save on the CertificationRegistration screen
 * shows its error block without scrolling the page to it (spec 000 s2, s8); a member registers in a programme and
 * sees their progress from the credits they earned at check-in; after an occurrence, the door marks the rest as
 * no-shows through a confirmation that names the count.
 */
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, inDays, type Model, poll } from '../support/suite.ts';

const run = bootForFile();

describe('certifications', () => {
  it('a failed save of a CertificationRegistration shows the error without scrolling; a member registers and sees their progress', async () => {
    const { t, page } = await signedInAdmin(run, { width: 1280, height: 380 });
    const post = async (path: string, data: Model) => {
      const res = await page.request.post(path, { data });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()) as Model;
    };
    const programme = (
      (await post('/api/events/certifications/programmeSave', {
        Name: 'Certified Practice Manager',
        RequiredCredits: 6,
        PeriodMonths: 12,
        Description: 'Six credits a year at workshops.',
      })) as { Data: Model }
    ).Data;
    const contact = (
      (await post('/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Pia',
        LastName: 'Progress',
      })) as { Data: Model }
    ).Data;
    await post('/api/events/certification-registrations/certificationRegistrationSave', {
      ProgrammeId: programme.ProgrammeId,
      ContactId: contact.ContactId,
    });

    // Registering the same contact again fails: the error block appears, the page stays where it was.
    await page.goto(
      `/micronet/list/events/certification-registrations/new?ProgrammeId=${programme.ProgrammeId}&ContactId=${contact.ContactId}`,
    );
    const saveButton = page.getByRole('button', { name: 'Save', exact: true });
    await saveButton.scrollIntoViewIfNeeded();
    const scrolled = (await page.evaluate('window.scrollY')) as number;
    expect(scrolled).toBeGreaterThan(0);
    await saveButton.click();
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'This contact is already registered in this programme.' });
    await alert.waitFor();
    // Two frames after it appeared: a screen that scrolls to the error would have started moving up to it by now.
    await page.evaluate(
      'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null))))',
    );
    // The page did not move up (the block above the form pushes the content down; the browser keeps it in place).
    expect(await page.evaluate('window.scrollY')).toBeGreaterThanOrEqual(scrolled);
    const box = await alert.boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(0);

    // The member: a check-in worth 2 credits, then registers and sees 2 of 6.
    const event = (
      (await post('/api/events/events/eventSave', {
        Name: 'Practice workshop',
        Status: 'published',
        Visibility: 'members',
        TimezoneId: 'America/Chicago',
        RegistrationOpen: true,
        StartsAt: inDays(3, 15),
        EndsAt: inDays(3, 17),
        CreditHours: 2,
      })) as { Data: Model }
    ).Data;
    const mine = (
      (await post('/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Max',
        LastName: 'Member',
      })) as { Data: Model }
    ).Data;
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${mine.ContactId}`,
      ),
    );
    const detail = (await (
      await page.request.get(`/api/events/getEventId/${event.EventId}`)
    ).json()) as Model;
    const reg = (await post('/api/events/registrations', {
      EventDetailId: detail.EventDetailId,
      ContactId: mine.ContactId,
      Attendees: [{ ContactId: mine.ContactId }],
    })) as { Attendees: Model[] };
    await post('/api/events/check-in', {
      EventDetailId: detail.EventDetailId,
      AttendeeId: reg.Attendees[0]?.AttendeeId,
    });

    const member = await run.newPage();
    await signInAs(member.page, t.member.username, t.member.password);
    await member.page.waitForURL(/\/m\/?/);
    await member.page.goto('/m/events?tab=certifications');
    await member.page.getByText('Certified Practice Manager').waitFor();
    await member.page.getByRole('button', { name: 'Register in Certified Practice Manager' }).click();
    await member.page.getByText('You are registered in Certified Practice Manager.').waitFor();
    await member.page.getByText(/2 of 6 credits earned/).waitFor();
    await poll(() =>
      member.page.getByRole('progressbar', { name: 'Certified Practice Manager: 2 of 6 credits' }).count(),
    ).toBe(1);
    await member.page.screenshot({ path: '/tmp/events-certifications.png', fullPage: true });
  });
});

describe('the door after an occurrence', () => {
  it('marks the rest as no-shows through a confirmation that names the count', async () => {
    const { t, page } = await signedInAdmin(run);
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'Evening lecture',
        Status: 'published',
        Visibility: 'public',
        TimezoneId: 'America/Chicago',
        RegistrationOpen: true,
        StartsAt: inDays(-2, 15),
        EndsAt: inDays(-2, 17),
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const event = ((await saved.json()) as { Data: Model }).Data;
    const detail = (await (
      await page.request.get(`/api/events/getEventId/${event.EventId}`)
    ).json()) as Model;
    const reg = await page.request.post('/api/events/registrations', {
      data: {
        EventDetailId: detail.EventDetailId,
        Attendees: [{ Name: 'Ada Arrived' }, { Name: 'Ben Absent' }, { Name: 'Cy Absent' }],
      },
    });
    expect(reg.status(), await reg.text()).toBe(200);
    const phone = await run.newPage({ width: 390, height: 844 });
    await signInAs(phone.page, t.admin.username, t.admin.password);
    await phone.page.waitForURL(/\/a\/?$/);
    await phone.page.goto(`/a/events/check-in/${detail.EventDetailId}`);
    await phone.page.getByRole('button', { name: 'Check in Ada Arrived' }).click();
    await phone.page.getByRole('button', { name: 'Undo check-in of Ada Arrived' }).waitFor();
    await phone.page.getByText('2 registered attendees were not checked in.').waitFor();
    await phone.page.getByRole('button', { name: 'Mark the rest as no-shows' }).click();
    const dialog = phone.page.getByRole('dialog');
    await dialog
      .getByText('2 registered attendees who were not checked in will be marked as no-show.', {
        exact: false,
      })
      .waitFor();
    await dialog.getByRole('button', { name: 'Mark 2 as no-show' }).click();
    await phone.page.getByText('2 attendees marked as no-show.').waitFor();
    await poll(() => phone.page.getByText('No-show', { exact: true }).count()).toBe(2);
    expect(await phone.page.getByTestId('no-shows').count()).toBe(0);
    await phone.page.screenshot({ path: '/tmp/events-no-shows.png', fullPage: true });
  });
});
