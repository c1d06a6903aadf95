/**
 * A counted list's totals (decision 0103) on the events list: after every kind of write (create, edit, delete, a
 * statement changing many rows, rows written by code outside the generic layer), the total of every named filter
 * and of no filter equals what `count(*)` finds; another association's rows never count; the daily fold keeps the
 * totals while it folds the rows of changes into one per value.
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import { eventsResource, type Model } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { listCountsFoldHandler } from './list-counts.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let staff: ReturnType<typeof client>;
let otherStaff: ReturnType<typeof client>;

const when = (days: number, hour: number) => new Date(Date.UTC(2027, 4, 1 + days, hour)).toISOString();
async function saveEvent(c: ReturnType<typeof client>, model: Model): Promise<Model> {
  const res = await c.post('/api/events/events/eventSave', {
    Status: 'published',
    Visibility: 'public',
    TimezoneId: 'America/Chicago',
    StartsAt: when(1, 15),
    EndsAt: when(1, 17),
    ...model,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}

/** Each named filter's (and no filter's) total as the list answers it. */
async function totals(c: ReturnType<typeof client>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const f of [{ Id: 0, Name: 'None' }, ...eventsResource.filters]) {
    const res = await c.post('/api/events/events/eventData?$top=1', { Id: f.Id });
    expect(res.statusCode, res.body).toBe(200);
    out[f.Name] = (res.json() as { TotalRecordAvailable: number }).TotalRecordAvailable;
  }
  return out;
}

/** The same totals counted from the rows. */
async function counted(tenantId: string): Promise<Record<string, number>> {
  const [r] = await withTenantTx(ctx.database.db, { tenantId }, (tx) =>
    runFragment<Record<string, string>>(
      tx,
      q`select count(*) as "None",
          count(*) filter (where status = 'published') as "Published",
          count(*) filter (where status = 'draft') as "Drafts",
          count(*) filter (where repeats <> 'none') as "Repeating",
          count(*) filter (where visibility = 'members') as "Members only"
        from events where tenant_id = ${tenantId} and not is_deleted`,
    ),
  );
  return Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, Number(v)]));
}

async function changeRows(tenantId: string): Promise<number> {
  const [r] = await withTenantTx(ctx.database.db, { tenantId }, (tx) =>
    runFragment<{ n: string }>(tx, q`select count(*) as n from list_counts where tenant_id = ${tenantId}`),
  );
  return Number(r?.n);
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  otherStaff = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
});
afterAll(() => ctx.close());

describe("a counted list's totals kept by its table's triggers", () => {
  it('equal count(*) for every named filter after creates, edits, deletes and statements over many rows', async () => {
    const made: Model[] = [];
    for (let i = 0; i < 6; i++)
      made.push(
        await saveEvent(staff, {
          Name: `Counted ${i}`,
          Status: i % 3 === 0 ? 'draft' : 'published',
          Visibility: i % 2 === 0 ? 'members' : 'public',
        }),
      );
    await saveEvent(otherStaff, { Name: 'Elsewhere', Status: 'draft' });
    expect(await totals(staff)).toEqual(await counted(t.tenant.id));
    expect(await totals(staff)).toMatchObject({ None: 6, Drafts: 2, Published: 4, 'Members only': 3 });

    // An edit that moves an event between filters, one that changes no counted field, a delete.
    await saveEvent(staff, { ...made[0], Status: 'published' });
    await saveEvent(staff, { ...made[1], Name: 'Renamed' });
    expect((await staff.delete(`/api/events/events/${made[2]?.EventId}`)).statusCode).toBe(200);
    expect(await totals(staff)).toEqual(await counted(t.tenant.id));
    expect(await totals(staff)).toMatchObject({ None: 5, Drafts: 1, Published: 4 });

    // One statement over many rows, written outside the generic layer (a feature's own SQL).
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      runFragment(
        tx,
        q`update events set repeats = 'weekly', repeat_until = '2027-12-31', visibility = 'public'
           where tenant_id = ${t.tenant.id} and not is_deleted and name like 'Counted%'`,
      ),
    );
    expect(await totals(staff)).toEqual(await counted(t.tenant.id));
    expect(await totals(staff)).toMatchObject({ Repeating: 4, 'Members only': 0 });
    expect(await totals(otherStaff)).toEqual(await counted(other.tenant.id));
  });

  it('keeps the totals when the daily job folds the rows of changes', async () => {
    const before = await totals(staff);
    const rows = await changeRows(t.tenant.id);
    await listCountsFoldHandler(ctx.database, {
      tenantId: t.tenant.id,
      id: '1',
      kind: 'list-counts-fold',
      payload: {},
      userId: null,
      attempts: 1,
    });
    // Folded: one row per counted value (the app's own worker may have folded some already before `rows` was read).
    expect(await changeRows(t.tenant.id)).toBeLessThanOrEqual(rows);
    const [keys] = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      runFragment<{ n: string; distinct: string }>(
        tx,
        q`select count(*) as n, count(distinct (table_name, facet, value)) as distinct from list_counts where tenant_id = ${t.tenant.id}`,
      ),
    );
    expect(Number(keys?.n)).toBe(Number(keys?.distinct));
    expect(await totals(staff)).toEqual(before);
    expect(await totals(otherStaff)).toEqual(await counted(other.tenant.id));
    // Writes after the fold add to the folded counts.
    await saveEvent(staff, { Name: 'After the fold', Status: 'draft' });
    expect(await totals(staff)).toEqual(await counted(t.tenant.id));
  });

  it('answers the totals from the counts, not by counting the rows', async () => {
    const before = await totals(staff);
    const add = (n: number) =>
      withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
        runFragment(
          tx,
          q`insert into list_counts (tenant_id, table_name, facet, value, n) values
              (${t.tenant.id}, 'events', '', '', ${n}), (${t.tenant.id}, 'events', 'status', 'draft', ${n})`,
        ),
      );
    await add(100);
    // Repeating is the total less the events that do not repeat: it moves with the total.
    expect(await totals(staff)).toEqual({
      ...before,
      None: (before.None ?? 0) + 100,
      Drafts: (before.Drafts ?? 0) + 100,
      Repeating: (before.Repeating ?? 0) + 100,
    });
    await add(-100);
    expect(await totals(staff)).toEqual(before);
  });
});
