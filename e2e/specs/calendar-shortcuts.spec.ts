/**
 * The range shortcuts of the two calendars at 1,280 px (one platform component, `CalendarRangeButtons`): the events
 * calendar and the calendar variant of a generic list show the same five buttons in one row, and each moves its
 * calendar to the shortcut's span at its first day. The events calendar draws occurrences at the viewer's own time
 * (the zone they chose, else their device's: this user chose none), so its shortcuts count days in the device's
 * timezone (here fourteen hours ahead of UTC), the generic calendar in the association's (America/Chicago).
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../pages/sign-in.ts';
import { seedTenant } from '../support/seed.ts';
import { bootForFile, poll } from '../support/suite.ts';

const run = bootForFile();

const SHORTCUTS = ['Today', 'This Month', 'Last Month', 'This Year', 'Last Year'];
const VIEWER_ZONE = 'Pacific/Kiritimati';
const TENANT_ZONE = 'America/Chicago';

/** Today in a timezone as a calendar titles it: the day ("November 27, 2026"), last month ("October 2026"), the year. */
function titlesIn(timeZone: string) {
  const now = new Date();
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone, ...options }).format(now);
  const year = Number(part({ year: 'numeric' }));
  const month = Number(part({ month: 'numeric' }));
  const lastMonth = new Date(Date.UTC(month === 1 ? year - 1 : year, (month + 10) % 12, 1));
  return {
    day: part({ year: 'numeric', month: 'long', day: 'numeric' }),
    lastMonth: new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long' }).format(
      lastMonth,
    ),
    year: String(year),
    lastYear: String(year - 1),
  };
}

/** The shortcuts' buttons: their names, and whether they sit in one row. */
async function shortcuts(group: Locator) {
  const buttons = group.getByRole('button');
  const boxes = await buttons.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    }),
  );
  const [first] = boxes;
  return {
    names: await buttons.allInnerTexts(),
    oneRow: first !== undefined && boxes.every((b) => b.top < first.bottom && b.bottom > first.top),
  };
}

const pick = (group: Locator, name: string) => group.getByRole('button', { name, exact: true }).click();

describe("the calendars' range shortcuts at 1,280 px", () => {
  it('are the same five buttons in one row on both calendars, each moving its calendar to its span', {
    timeout: 120_000,
  }, async () => {
    const t = await seedTenant(run.database);
    const { page } = await run.newPage({ width: 1280, height: 900 }, { timezoneId: VIEWER_ZONE });
    await signInAs(page, t.admin.username, t.admin.password);
    await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });

    // The events calendar, in the viewer's timezone.
    await page.goto('/a/events/calendar');
    const events = page.getByTestId('events-calendar');
    const eventsGroup = events.getByRole('group', { name: 'Date range' });
    await eventsGroup.waitFor();
    expect(await shortcuts(eventsGroup)).toEqual({ names: SHORTCUTS, oneRow: true });
    const viewer = titlesIn(VIEWER_ZONE);
    const eventsTitle = events.getByRole('heading').first();
    const view = () => events.getAttribute('data-view');
    await pick(eventsGroup, 'Today');
    await poll(view).toBe('timeGridDay');
    await poll(() => eventsTitle.textContent()).toBe(viewer.day);
    await pick(eventsGroup, 'Last Month');
    await poll(view).toBe('dayGridMonth');
    await poll(() => eventsTitle.textContent()).toBe(viewer.lastMonth);
    await pick(eventsGroup, 'This Year');
    await poll(view).toBe('listYear');
    await poll(() => eventsTitle.textContent()).toBe(viewer.year);
    await pick(eventsGroup, 'Last Year');
    await poll(() => eventsTitle.textContent()).toBe(viewer.lastYear);

    // The events list's calendar variant (the generic one), in the association's timezone.
    await page.goto('/micronet/list/events/events?view=calendar');
    const list = page.locator('main');
    const listGroup = list.getByRole('group', { name: 'Date range' });
    await listGroup.waitFor();
    expect(await shortcuts(listGroup)).toEqual({ names: SHORTCUTS, oneRow: true });
    const tenant = titlesIn(TENANT_ZONE);
    // The page's own title first, then the calendar's.
    const listTitle = list.getByRole('heading').nth(1);
    await pick(listGroup, 'Today');
    await poll(() => listTitle.textContent()).toBe(tenant.day);
    await pick(listGroup, 'Last Month');
    await poll(() => listTitle.textContent()).toBe(tenant.lastMonth);
    await pick(listGroup, 'This Year');
    await poll(() => listTitle.textContent()).toBe(tenant.year);
  });
});
