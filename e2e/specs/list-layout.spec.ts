/**
 * The generic list's table at 1,280 px, as a user's eye checks it (element boxes, measured): in the contacts, events,
 * invoices, memberships and users lists every default column is there, no cell's box overlaps another's (the row
 * actions column is no longer held over the cells scrolled under it), what a cell draws stays inside the cell (a
 * badge in a wrapping column wraps inside it: the events list's long repeat rule no longer runs over the next
 * column), and no list scrolls sideways: its default columns fit its place (the events list wraps its start under
 * its date, cuts its venue at 160 px and keeps its category in the table settings).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile, inDays } from '../support/suite.ts';

const run = bootForFile();

const SHOTS = process.env.LIST_LAYOUT_SHOTS ?? '';
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function post(page: Page, path: string, data: Record<string, unknown>) {
  const res = await page.request.post(path, { data });
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A contact, an invoice for it, a membership of it and a monthly event with a long repeat rule. */
async function someOfEverything(page: Page) {
  await post(page, '/api/events/events/eventSave', {
    Status: 'published',
    Visibility: 'public',
    TimezoneId: 'America/Chicago',
    Name: 'Monthly chapter meeting of the regional section',
    StartsAt: inDays(1, 17),
    EndsAt: inDays(1, 18),
    Repeats: 'monthlyWeekday',
    Location: 'Town hall, second floor',
  });
  const contact = (await post(page, '/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Ada',
    LastName: 'Lovelace',
    Email: 'ada@example.org',
  })) as { Data: { ContactId: number } };
  const contactId = contact.Data.ContactId;
  await post(page, '/api/billing/invoices/issue', {
    contactId,
    lines: [{ description: 'Annual dues', unitPriceCents: 12_000, quantity: 1 }],
  });
  const type = (await post(page, '/api/memberships/types/typeSave', {
    Name: 'Individual',
    TermKind: 'anniversary',
    DurationMonths: 12,
    IsActive: true,
  })) as { Data: { MembershipTypeId: number } };
  const typeId = type.Data.MembershipTypeId;
  const level = (await post(page, '/api/memberships/levels/levelSave', {
    MembershipTypeId: typeId,
    Name: 'Regular',
    SortOrder: 1,
  })) as { Data: { MembershipLevelId: number } };
  await post(page, '/api/memberships/fees/feeSave', {
    MembershipTypeId: typeId,
    FeeId: 1,
    Name: 'Annual dues',
    OriginalPrice: 25_000,
    BillFrequencyTypeId: 12,
  });
  await post(page, '/api/memberships/frequencies/frequencySave', {
    MembershipTypeId: typeId,
    BillFrequencyTypeId: 12,
    Name: 'Annually',
    IsDefault: true,
  });
  await post(page, '/api/memberships/join', {
    ContactId: contactId,
    MembershipTypeId: typeId,
    MembershipLevelId: level.Data.MembershipLevelId,
  });
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The table's scrolling viewport (Mantine's scroll area). */
interface Scroller {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): Box;
}

/** The boxes of the table's header cells and of its first row's cells, and of everything drawn in those cells. */
async function measure(page: Page) {
  return page
    .getByRole('table')
    .first()
    .evaluate((table) => {
      const box = (el: { getBoundingClientRect(): Box }): Box => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const row = table.querySelector('tbody tr');
      const cells = [...(row?.querySelectorAll('td') ?? [])].map((td) => ({
        text: (td.textContent ?? '').trim().slice(0, 40),
        box: box(td),
        // What a renderer drew: a badge, a link, a button (a cut cell's text runs on under its ellipsis, by design).
        drawn: [...td.querySelectorAll('.mantine-Badge-root, a, button')].map((el) => ({
          text: (el.textContent ?? '').trim().slice(0, 40),
          box: box(el),
        })),
      }));
      const viewport = table.closest('.mantine-ScrollArea-viewport') as Scroller | null;
      return {
        headers: [...table.querySelectorAll('thead th')].map((th) => (th.textContent ?? '').trim()),
        cells,
        viewport: viewport
          ? { box: box(viewport), scrollable: viewport.scrollWidth - viewport.clientWidth }
          : null,
      };
    });
}

const overlaps = (a: Box, b: Box) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
const inside = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 0.5 &&
  inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 &&
  inner.bottom <= outer.bottom + 0.5;

const LISTS = [
  { path: '/micronet/list/contacts/contacts', columns: ['Name', 'Status', 'Email'] },
  { path: '/micronet/list/events/events', columns: ['Event', 'Starts', 'Repeats', 'Status', 'Venue'] },
  { path: '/micronet/list/billing/invoices', columns: ['Number', 'Bill to', 'Status', 'Total'] },
  { path: '/micronet/list/memberships/memberships', columns: ['Status'] },
  { path: '/a/users', columns: ['Name', 'Role', 'Status'] },
];

describe('list tables at 1,280 px', () => {
  it('show every default column, no cell over another, every badge inside its cell, no sideways scroll', {
    timeout: 300_000,
  }, async () => {
    const { page } = await signedInAdmin(run, { width: 1280, height: 900 });
    await someOfEverything(page);
    for (const list of LISTS) {
      await page.goto(list.path);
      const table = page.getByRole('table').first();
      await table.locator('tbody tr td').nth(2).waitFor();
      const name = list.path.split('/').pop() ?? '';
      await shot(page, `${name}-1280`);
      const seen = await measure(page);
      for (const column of list.columns)
        expect(
          seen.headers.some((h) => h.startsWith(column)),
          `${name}: ${column} in ${seen.headers}`,
        ).toBe(true);
      expect(seen.cells.length, `${name}: one row`).toBeGreaterThan(3);
      for (const [i, a] of seen.cells.entries())
        for (const b of seen.cells.slice(i + 1))
          expect(overlaps(a.box, b.box), `${name}: "${a.text}" and "${b.text}" overlap`).toBe(false);
      for (const cell of seen.cells)
        for (const drawn of cell.drawn)
          expect(inside(drawn.box, cell.box), `${name}: "${drawn.text}" runs out of its cell`).toBe(true);
      // The default columns fit: the table does not scroll sideways (scrollWidth <= clientWidth).
      expect(seen.viewport).not.toBeNull();
      expect(
        seen.viewport?.scrollable,
        `${name}: scrolls sideways by ${seen.viewport?.scrollable} px`,
      ).toBeLessThanOrEqual(0);
      // Scrolled to its end, the last cell is in view.
      await table.evaluate((el) => {
        const viewport = el.closest('.mantine-ScrollArea-viewport') as Scroller | null;
        if (viewport) viewport.scrollLeft = viewport.scrollWidth;
      });
      const end = await measure(page);
      const last = end.cells.at(-1);
      expect(last && end.viewport && inside(last.box, { ...end.viewport.box, top: -1e6, bottom: 1e6 })).toBe(
        true,
      );
      if (seen.viewport && seen.viewport.scrollable > 0) await shot(page, `${name}-1280-scrolled`);
    }
  });
});
