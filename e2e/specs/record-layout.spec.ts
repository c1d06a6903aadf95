/**
 * A record's header at 1,280 px, as a user's eye checks it (element boxes, measured): on the records of a contact, a
 * membership, an invoice, an event, a membership type, a user, a task and a mailing the description sits right
 * under the title, and the header's actions stay in one row beside them, never pushed between the title and the
 * description nor over either (the one shared header, `PageHeader`). On a contact's header card a long email and a
 * long website are cut with an ellipsis inside their columns, never drawn over the next one, and show whole in
 * their title under the pointer.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, inDays } from '../support/suite.ts';

const run = bootForFile();

const SHOTS = process.env.RECORD_LAYOUT_SHOTS ?? '';
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

async function post(page: Page, path: string, data: Record<string, unknown>) {
  const res = await page.request.post(path, { data });
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
const saved = async (page: Page, path: string, data: Record<string, unknown>) =>
  (await post(page, path, data)).Data as Record<string, number>;

const LONG_EMAIL = 'maximilian.vandenberghe.ostergaard@members.northernregionalassociation.example.org';
const LONG_WEBSITE = 'https://www.northernregionalassociationofprofessionals.example.org/members';

/** One record of each kind, with long names where a long name made the header wrap. */
async function records(page: Page, userId: number) {
  const contact = await saved(page, '/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Maximilian',
    LastName: 'Vandenberghe-Østergaard',
    Email: LONG_EMAIL,
    Website: LONG_WEBSITE,
    Phone: '5308304960',
  });
  const type = await saved(page, '/api/memberships/types/typeSave', {
    Name: 'Individual - Senior',
    TermKind: 'anniversary',
    DurationMonths: 12,
    IsActive: true,
  });
  const level = await saved(page, '/api/memberships/levels/levelSave', {
    MembershipTypeId: type.MembershipTypeId,
    Name: 'Southern Chapter',
    SortOrder: 1,
  });
  await saved(page, '/api/memberships/fees/feeSave', {
    MembershipTypeId: type.MembershipTypeId,
    FeeId: 1,
    Name: 'Annual dues',
    OriginalPrice: 25_000,
    BillFrequencyTypeId: 12,
  });
  await saved(page, '/api/memberships/frequencies/frequencySave', {
    MembershipTypeId: type.MembershipTypeId,
    BillFrequencyTypeId: 12,
    Name: 'Annually',
    IsDefault: true,
  });
  // Joined and not yet paid: pending, so its header offers Approve, Drop… and Edit.
  const joined = (await post(page, '/api/memberships/join', {
    ContactId: contact.ContactId,
    MembershipTypeId: type.MembershipTypeId,
    MembershipLevelId: level.MembershipLevelId,
  })) as { MembershipId: number; Status: string };
  expect(joined.Status).toBe('pending');
  const invoice = (await post(page, '/api/billing/invoices/issue', {
    contactId: contact.ContactId,
    lines: [{ description: 'Annual dues', unitPriceCents: 12_000, quantity: 1 }],
  })) as { invoiceId: number };
  const event = await saved(page, '/api/events/events/eventSave', {
    Status: 'published',
    Visibility: 'public',
    TimezoneId: 'America/Chicago',
    Name: 'Advocacy day at the State Capitol',
    StartsAt: inDays(3, 14),
    EndsAt: inDays(3, 22),
    Location: 'State Capitol, Springfield',
  });
  const task = await saved(page, '/api/tasks/tasks/taskSave', {
    Title: 'Survey the members about the new website before the annual meeting',
    Status: 'todo',
    Priority: 'normal',
  });
  const mailing = (await post(page, '/api/communication/mailings', {
    Name: 'Spring fair: volunteers wanted for the welcome desk',
    TemplateId: null,
    Subject: 'Can you help at the spring fair?',
    BodyHtml: '<p>The spring fair needs helpers.</p>',
    Audience: { Kind: 'filter', FilterId: 0 },
  })) as { MailingId: number };
  return [
    { name: 'contact', path: `/micronet/list/contacts/contacts/${contact.ContactId}`, actions: 3 },
    { name: 'membership', path: `/micronet/list/memberships/memberships/${joined.MembershipId}`, actions: 3 },
    { name: 'invoice', path: `/micronet/list/billing/invoices/${invoice.invoiceId}`, actions: 1 },
    { name: 'event', path: `/micronet/list/events/events/${event.EventId}`, actions: 4 },
    {
      name: 'membership type',
      path: `/micronet/list/memberships/types/${type.MembershipTypeId}`,
      actions: 1,
    },
    { name: 'user', path: `/a/users/${userId}`, actions: 1 },
    { name: 'task', path: `/micronet/list/tasks/tasks/${task.TaskId}`, actions: 1 },
    { name: 'mailing', path: `/a/mailings/${mailing.MailingId}`, actions: 1 },
  ];
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The boxes of the page's title, its description and its header's actions (buttons, links, badges). */
async function header(page: Page) {
  return page.locator('main [data-page-header]').evaluate((head) => {
    const box = (el: { getBoundingClientRect(): Box }): Box => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const title = head.querySelector('h1');
    const description = title?.nextElementSibling ?? null;
    const actions = head.querySelector('[data-page-actions]');
    const main = head.closest('main');
    return {
      title: title ? box(title) : null,
      description: description ? box(description) : null,
      actions: actions
        ? [...actions.children]
            .filter((el) => box(el).right > box(el).left)
            .map((el) => ({ text: (el.textContent ?? '').trim(), box: box(el) }))
        : [],
      mainRight: main ? box(main).right : Number.POSITIVE_INFINITY,
      pageScrolls:
        head.ownerDocument.documentElement.scrollWidth > head.ownerDocument.documentElement.clientWidth,
    };
  });
}

/** What the test reads of a value's element and its computed style (the browser's own types are not loaded). */
interface Scrolling {
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
}
interface Styles {
  getComputedStyle(el: Scrolling): { overflowX: string; textOverflow: string };
}

const overlaps = (a: Box, b: Box) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

describe('record headers at 1,280 px', () => {
  it('keep the description under the title and the actions in one row beside them', {
    timeout: 300_000,
  }, async () => {
    const { t, page } = await signedInAdmin(run, { width: 1280, height: 900 });
    for (const record of await records(page, t.staff.id)) {
      await page.goto(record.path);
      await page.locator('main h1').waitFor();
      const actions = page.locator('main [data-page-actions] > *');
      await expect.poll(() => actions.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(record.actions);
      await shot(page, record.name.replace(' ', '-'));
      const seen = await header(page);
      expect(seen.title, record.name).not.toBeNull();
      expect(seen.description, `${record.name}: a description`).not.toBeNull();
      const title = seen.title as Box;
      const description = seen.description as Box;
      // Right under the title: nothing between them.
      expect(description.top - title.bottom, `${record.name}: description under the title`).toBeLessThan(12);
      expect(description.top, record.name).toBeGreaterThanOrEqual(title.bottom - 0.5);
      // One row: every action's box meets the first one's height band (a badge is lower than a button).
      const [first] = seen.actions;
      for (const action of seen.actions)
        expect(
          first && action.box.top < first.box.bottom && action.box.bottom > first.box.top,
          `${record.name}: "${action.text}" on another row than "${first?.text}"`,
        ).toBe(true);
      for (const action of seen.actions) {
        expect(overlaps(action.box, title), `${record.name}: "${action.text}" over the title`).toBe(false);
        expect(
          overlaps(action.box, description),
          `${record.name}: "${action.text}" over the description`,
        ).toBe(false);
        // Beside the title, not under it.
        expect(action.box.left, `${record.name}: "${action.text}" beside the title`).toBeGreaterThanOrEqual(
          title.right - 0.5,
        );
        expect(action.box.right, `${record.name}: "${action.text}" within the page`).toBeLessThanOrEqual(
          seen.mainRight + 0.5,
        );
      }
      expect(seen.pageScrolls, `${record.name}: the page scrolls sideways`).toBe(false);
    }
  });

  it("cuts a contact's long email and website inside their columns, whole under the pointer", async () => {
    const { page } = await signedInAdmin(run, { width: 1280, height: 900 });
    const contact = await saved(page, '/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Maximilian',
      LastName: 'Vandenberghe-Østergaard',
      Email: LONG_EMAIL,
      Website: LONG_WEBSITE,
      Phone: '5308304960',
    });
    await page.goto(`/micronet/list/contacts/contacts/${contact.ContactId}`);
    const card = page.getByRole('region', { name: /^Contacts: / });
    await card.locator('dd').first().waitFor();
    await shot(page, 'contact-card');
    const cells = await card.locator('dl > div').evaluateAll((divs) =>
      divs.map((div) => {
        const dd = div.querySelector('dd') as unknown as Scrolling;
        const style = (globalThis as unknown as Styles).getComputedStyle(dd);
        const r = div.getBoundingClientRect();
        return {
          term: div.querySelector('dt')?.textContent ?? '',
          text: dd.textContent ?? '',
          box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
          overflows: dd.scrollWidth > dd.clientWidth + 1,
          clipped: style.overflowX === 'hidden' && style.textOverflow === 'ellipsis',
        };
      }),
    );
    const cell = (term: string) => cells.find((c) => c.term === term);
    expect(cell('Email')?.text).toBe(LONG_EMAIL);
    expect(cell('Phone')?.text).toBe('(530) 830-4960');
    // The email and the website are longer than their columns: cut there, with an ellipsis.
    for (const term of ['Email', 'Website']) {
      expect(cell(term)?.overflows, `${term} longer than its column`).toBe(true);
      expect(cell(term)?.clipped, `${term} cut with an ellipsis`).toBe(true);
    }
    // Nothing is drawn past its column: a value either fits or is cut; no column is over another.
    for (const c of cells) expect(!c.overflows || c.clipped, `${c.term}: drawn past its column`).toBe(true);
    for (const [i, a] of cells.entries())
      for (const b of cells.slice(i + 1))
        expect(overlaps(a.box, b.box), `${a.term} over ${b.term}`).toBe(false);
    // The whole value in its title under the pointer.
    const email = card.locator('dt', { hasText: /^Email$/ }).locator('xpath=following-sibling::dd[1]');
    await email.hover();
    await expect.poll(() => email.getAttribute('title')).toBe(LONG_EMAIL);
    const phone = card.locator('dt', { hasText: /^Phone$/ }).locator('xpath=following-sibling::dd[1]');
    await phone.hover();
    expect(await phone.getAttribute('title')).toBeNull();
  });
});
