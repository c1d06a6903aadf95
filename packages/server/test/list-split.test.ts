/**
 * A list filtered by a field equal to one of a few values (`in`, the attendees' "Waitlist": statuses 1 and 2) is read
 * as one run per value through the index that holds the field equal (`query.ts`, `splitPlan`): merged in the sort's
 * order when sorted by another field, one after the other when sorted by the field itself. PostgreSQL cannot keep an
 * index's order through `= ANY`: the plain statement walked the sort's index and skipped every row of the other
 * statuses (1.8 s at 1,000,000 attendees). Checked here: the plan reads the index once per value and sorts nothing
 * under its LIMIT (as the application role, under row-level security); the pages, their order at any depth and the
 * total are those of the plain statement. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { type Fragment, q, raw, render, runFragment, withTenantTx } from '@guildhall/db';
import { FILTER_ADVANCED, type ListRequest, type Model } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoundResource, discoverResources } from '../src/platform/resources/registry.ts';
import { listPage } from '../src/platform/resources/resource.service.ts';
import { client, seedTenant, signIn, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';
import { type PlanNode, planNodes, planWithIndexAlone } from './plan-probe.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let attendees: BoundResource;
let staff: ReturnType<typeof client>;

const WAITLIST = 2;
const COLUMN: Record<string, string> = {
  AttendeeName: 'attendee_name',
  CreatedAt: 'created_at',
  EventAttendeeStatusId: 'event_attendee_status_id',
  AttendeeId: 'attendee_id',
};

async function addAttendees(tenantId: string, userId: number, count: number): Promise<void> {
  // Statuses 1 to 7 unevenly, names and times that repeat (ties broken by the key), a few deleted.
  await withTenantTx(ctx.database.db, { tenantId, userId }, (tx) =>
    runFragment(
      tx,
      q`insert into event_attendees (tenant_id, event_id, event_detail_id, registration_id, attendee_name,
          event_attendee_status_id, created_at, is_deleted)
        select ${tenantId}, 1, 1, g, 'Name ' || (g * 7919 % 23), 1 + (g * 31 % 7),
          timestamptz '2027-01-01' + ((g * 13 % 40) || ' hours')::interval, g % 17 = 0
        from generate_series(1, ${count}) g`,
    ),
  );
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  attendees = (await discoverResources()).find((b) => b.resource.name === 'eventAttendees') as BoundResource;
  await addAttendees(t.tenant.id, t.admin.id, 320);
  await addAttendees(other.tenant.id, other.admin.id, 60);
  staff = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
});
afterAll(() => ctx.close());

/** The page the plain statement gives: `status in (…)` sorted by one field, the key after it the same way. */
async function reference(statuses: number[], sort: string, direction: string, skip: number, top: number) {
  const column = raw(COLUMN[sort] as string);
  const dir = raw(direction);
  return withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
    const where = q`tenant_id = ${t.tenant.id} and not is_deleted and event_attendee_status_id in (${raw(statuses.join(', '))})`;
    const rows = await runFragment<{ id: unknown }>(
      tx,
      q`select attendee_id as id from event_attendees where ${where} order by ${column} ${dir}, attendee_id ${dir} limit ${top} offset ${skip}`,
    );
    const [n] = await runFragment<{ n: unknown }>(
      tx,
      q`select count(*) as n from event_attendees where ${where}`,
    );
    return { ids: rows.map((r) => Number(r.id)), total: Number(n?.n) };
  });
}

async function page(body: ListRequest, sort: string, direction: string, skip: number, top: number) {
  const res = await staff.post(
    `/api/events/attendees/attendeeData?$top=${top}&$skip=${skip}&$orderby=${encodeURIComponent(`${sort} ${direction}`)}`,
    body,
  );
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json() as { Results: Model[]; TotalRecordAvailable: number };
  return { ids: answer.Results.map((r) => Number(r.AttendeeId)), total: answer.TotalRecordAvailable };
}

function statementOf(body: ListRequest, orderby: string, skip: number): Fragment {
  const { statements } = listPage(
    attendees,
    t.tenant.id,
    { $skip: skip, $top: 50, $orderby: orderby },
    body,
    50,
  );
  return statements.at(-1) as Fragment;
}

/** Sorts under a LIMIT, and the index conditions of the scans of the one index the table holds. */
function readOf(plan: PlanNode, index: string) {
  const nodes = planNodes(plan);
  const sorts = nodes
    .filter((n) => n['Node Type'] === 'Limit')
    .flatMap((l) => planNodes(l))
    .filter((n) => /Sort/.test(n['Node Type']));
  const scans = nodes.filter((n) => n['Index Name'] === `${index}_alone`).map((n) => n['Index Cond'] ?? '');
  return { types: nodes.map((n) => n['Node Type']), sorts: sorts.length, scans };
}

describe('a list filtered by a few values of a field', () => {
  it('reads the index once per value, merged in the order of another sort field, sorting nothing', async () => {
    for (const [sort, index] of [
      ['AttendeeName', 'event_attendees_by_event_attendee_status_id_attendee_name'],
      ['CreatedAt', 'event_attendees_by_event_attendee_status_id_created_at'],
    ] as const) {
      for (const direction of ['asc', 'desc'])
        for (const skip of [0, 100_000]) {
          const statement = statementOf({ Id: WAITLIST } as ListRequest, `${sort} ${direction}`, skip);
          const plan = await planWithIndexAlone(
            ctx.database,
            t.tenant.id,
            'event_attendees',
            index,
            statement,
          );
          const read = readOf(plan, index);
          expect(read.types, `${sort} ${direction} skip ${skip}`).toContain('Merge Append');
          expect(read.sorts, `${sort} ${direction} skip ${skip}`).toBe(0);
          expect(read.scans).toHaveLength(2);
          expect(read.scans.some((c) => /event_attendee_status_id = 1\b/.test(c))).toBe(true);
          expect(read.scans.some((c) => /event_attendee_status_id = 2\b/.test(c))).toBe(true);
        }
    }
    // The plain statement over the same index sorts every match: what the runs avoid.
    const plain = await planWithIndexAlone(
      ctx.database,
      t.tenant.id,
      'event_attendees',
      'event_attendees_by_event_attendee_status_id_attendee_name',
      q`select attendee_id from event_attendees where tenant_id = ${t.tenant.id} and not is_deleted
        and event_attendee_status_id in (1, 2) order by attendee_name, attendee_id limit 50`,
    );
    expect(readOf(plain, 'event_attendees_by_event_attendee_status_id_attendee_name').sorts).toBeGreaterThan(
      0,
    );
  });

  it('reads the runs one after the other when sorted by the field itself', async () => {
    const index = 'event_attendees_by_event_attendee_status_id';
    for (const direction of ['asc', 'desc']) {
      const statement = statementOf({ Id: WAITLIST } as ListRequest, `EventAttendeeStatusId ${direction}`, 0);
      const read = readOf(
        await planWithIndexAlone(ctx.database, t.tenant.id, 'event_attendees', index, statement),
        index,
      );
      expect(read.sorts).toBe(0);
      expect(read.scans).toHaveLength(2);
    }
  });

  it('answers the rows, the order at every depth and the total of the plain statement', async () => {
    const failures: string[] = [];
    for (const sort of Object.keys(COLUMN))
      for (const direction of ['asc', 'desc'])
        for (const skip of [0, 9, 27, 80, 200]) {
          const got = await page({ Id: WAITLIST } as ListRequest, sort, direction, skip, 9);
          const want = await reference([1, 2], sort, direction, skip, 9);
          if (JSON.stringify(got) !== JSON.stringify(want))
            failures.push(
              `${sort} ${direction} skip ${skip}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`,
            );
        }
    expect(failures).toEqual([]);
    const whole = await reference([1, 2], 'AttendeeName', 'asc', 0, 1000);
    expect(whole.total).toBeGreaterThan(60);
    expect(whole.ids).toHaveLength(whole.total);
  });

  it('keeps an advanced filter of a few values, repeated or spelled as text, each row once', async () => {
    const body = {
      Id: FILTER_ADVANCED,
      Criteria: [{ PropertyName: 'EventAttendeeStatusId', Operator: 'in', Value: [5, 3, '3', 5, 7] }],
    } as ListRequest;
    expect(render(statementOf(body, 'AttendeeName desc', 0)).text).toMatch(/union all/i);
    for (const sort of ['AttendeeName', 'CreatedAt', 'EventAttendeeStatusId'])
      for (const direction of ['asc', 'desc'])
        for (const skip of [0, 40, 150]) {
          const got = await page(body, sort, direction, skip, 20);
          const want = await reference([3, 5, 7], sort, direction, skip, 20);
          expect(got, `${sort} ${direction} skip ${skip}`).toEqual(want);
          expect(new Set(got.ids).size).toBe(got.ids.length);
        }
  });

  it('leaves a filter of one value, of many values, or with a search as it was', () => {
    const inOf = (Value: unknown[]) =>
      ({
        Id: FILTER_ADVANCED,
        Criteria: [{ PropertyName: 'EventAttendeeStatusId', Operator: 'in', Value }],
      }) as ListRequest;
    expect(render(statementOf(inOf([1, 1]), 'AttendeeName asc', 0)).text).not.toMatch(/union all/i);
    expect(render(statementOf(inOf([...Array(11).keys()]), 'AttendeeName asc', 0)).text).not.toMatch(
      /union all/i,
    );
    const { statements } = listPage(
      attendees,
      t.tenant.id,
      { $skip: 0, $top: 50, $orderby: 'AttendeeName asc', $search: 'name' },
      { Id: WAITLIST } as ListRequest,
      50,
    );
    expect(render(statements.at(-1) as Fragment).text).not.toMatch(/union all/i);
  });
});
