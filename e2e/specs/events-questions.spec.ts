/**
 * Registration questions in the browser: staff add a required question on the event's Registration questions tab,
 * register a contact from the event's Register… dialog answering it, and a member registering in the member area is
 * told the question is required, answers it and is registered; the answers are stored per attendee.
 */
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, inDays, type Model, poll } from '../support/suite.ts';

const run = bootForFile();

describe('registration questions', () => {
  it('staff define a question on the event; the back office and the member area ask it and keep the answers', async () => {
    const { t, page } = await signedInAdmin(run);
    const saved = await page.request.post('/api/events/events/eventSave', {
      data: {
        Name: 'Harvest dinner',
        Status: 'published',
        Visibility: 'public',
        RegistrationOpen: true,
        StartsAt: inDays(12, 17),
        EndsAt: inDays(12, 20),
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const event = ((await saved.json()) as { Data: Model }).Data;
    const save = async (data: Model) => {
      const res = await page.request.post('/api/contacts/contacts/contactSave', {
        data: { ContactType: 'individual', Status: 'active', ...data },
      });
      expect(res.status(), await res.text()).toBe(200);
      return ((await res.json()) as { Data: Model }).Data;
    };
    await save({ FirstName: 'Íñigo', LastName: 'Quintanilla', Email: 'inigo@example.org' });
    const mine = await save({ FirstName: 'Mia', LastName: 'Member', Email: 'mia@example.org' });
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${mine.ContactId}`,
      ),
    );

    // The question, on the event's own tab.
    await page.goto(`/micronet/list/events/events/${event.EventId}`);
    await page.getByRole('tab', { name: 'Registration questions' }).click();
    await page.getByRole('button', { name: 'Add question' }).click();
    const editor = page.getByRole('dialog', { name: 'Add a custom field' });
    await editor.getByLabel('Name').fill('Dietary needs');
    await editor.getByLabel('Required').check();
    await editor.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('table', { name: 'Custom fields' }).getByText('Dietary needs').waitFor();

    // Staff register a contact, answering it.
    await page.getByRole('button', { name: 'Register…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register for this event' });
    await dialog.getByRole('combobox', { name: 'Contact' }).fill('Quintanilla');
    await page.getByRole('option', { name: /Quintanilla/ }).click();
    await dialog.getByLabel('Dietary needs').fill('Vegetarian');
    await dialog.getByRole('button', { name: 'Register' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A member is asked it too.
    const member = await run.newPage();
    await signInAs(member.page, t.member.username, t.member.password);
    await member.page.waitForURL(/\/m\/?/);
    await member.page.goto(`/m/events/${event.HashedEventId}`);
    await member.page.getByRole('heading', { name: 'Harvest dinner' }).waitFor();
    await member.page.getByRole('button', { name: 'Register' }).click();
    await member.page.getByText('Dietary needs is required.').first().waitFor();
    await member.page.getByLabel('Dietary needs').fill('No shellfish');
    await member.page.getByRole('button', { name: 'Register' }).click();
    await poll(() => member.page.getByTestId('register-result').textContent()).toMatch(/Registered/);

    // Each attendee keeps their own answer (the attendee list's column).
    const key = await (async () => {
      const res = await page.request.get(`/api/events/events/${event.EventId}/questions`);
      return `cf_${((await res.json()) as Model[])[0]?.CustomFieldId}`;
    })();
    const list = await page.request.post('/api/events/attendees/attendeeData?$orderby=AttendeeName asc', {
      data: {
        Id: 9999,
        Criteria: [{ PropertyName: 'EventId', Operator: 'eq', Value: event.EventId }],
        ColumnsToShow: ['AttendeeName', key],
      },
    });
    const rows = ((await list.json()) as { Results: Model[] }).Results.map((r) => [r.AttendeeName, r[key]]);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Mia Member', 'No shellfish'],
        ['Íñigo Quintanilla', 'Vegetarian'],
      ]),
    );
  });
});
