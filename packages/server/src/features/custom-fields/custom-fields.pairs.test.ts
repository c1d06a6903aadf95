/**
 * A list filtered by one custom choice and sorted by a custom date reads the pair's kept order (decision 0196): the
 * first request asks for the pair (and is answered as before), a job fills its keys, and from then on a page is a
 * range of `custom_field_pair_keys_order_idx`. Every page (the top, deep down, among the contacts without a date, the
 * end and past it), both ways, is the slice of a full SQL sort with the exact total, before and after values are
 * written (a choice moved, a date changed and emptied, a contact deleted, an import row); the keys equal the values'
 * order; a ready pair's page reads the pair's index and not the values; a 17th pair is not kept and its list is read
 * as before. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import { bulkSeedContacts, withBulkTarget } from '@guildhall/seed/bulk';
import { type ListResponse, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  uploadFile,
} from '../../../test/helpers.ts';
import { type PlanNode, planNodes } from '../../../test/plan-probe.ts';
import { extraFieldsOf } from '../../platform/resources/extra-fields.ts';
import type { BoundResource } from '../../platform/resources/registry.ts';
import { listPage } from '../../platform/resources/resource.service.ts';
import { MAX_SORT_PAIRS, PAIR_FILL_JOB, pairFoldHandler } from './custom-fields.list.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let api: ReturnType<typeof client>;
let cookie: string;
const COUNT = 1500;
let chapter = 0;
let since = 0;
let renewed = 0;
let north = 0;
let south = 0;

async function list(query: string, body: unknown): Promise<ListResponse> {
  const res = await api.post(`/api/contacts/contacts/contactData${query}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListResponse;
}

function rowsOf<R>(result: unknown): R[] {
  const r = result as { rows?: R[] } | R[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}

async function asTenant<R>(statement: ReturnType<typeof sql>): Promise<R[]> {
  return withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
    rowsOf<R>(await tx.execute(statement)),
  );
}

/** The reference: the live contacts of the North chapter by `field` (those without one last, by key). */
async function reference(direction: 'asc' | 'desc', field = since): Promise<number[]> {
  return (
    await asTenant<{ id: unknown }>(sql`select c.contact_id as id from contacts c
      join custom_field_values f on f.tenant_id = c.tenant_id and f.field_id = ${chapter}
        and f.record_id = c.contact_id and f.choice_id = ${north}
      left join custom_field_values d on d.tenant_id = c.tenant_id and d.field_id = ${field}
        and d.record_id = c.contact_id
      where c.tenant_id = ${t.tenant.id} and not c.is_deleted
      order by (d.date_value is null), d.date_value ${sql.raw(direction)}, c.contact_id ${sql.raw(direction)}`)
  ).map((r) => Number(r.id));
}

/** The pair's keys of the North chapter in their index's order (the valued ones, then those without a date). */
async function kept(): Promise<number[]> {
  return (
    await asTenant<{ id: unknown }>(sql`select record_id as id from custom_field_pair_keys
      where filter_field_id = ${chapter} and sort_field_id = ${since} and choice_id = ${north}
      order by (sort_value is null), sort_value, record_id`)
  ).map((r) => Number(r.id));
}

async function pairs(): Promise<{ filter: number; sort: number; ready: boolean }[]> {
  return (
    await asTenant<{ f: unknown; s: unknown; ready: unknown }>(
      sql`select filter_field_id as f, sort_field_id as s, ready_at is not null as ready from custom_field_sort_pairs`,
    )
  ).map((r) => ({ filter: Number(r.f), sort: Number(r.s), ready: r.ready === true || r.ready === 't' }));
}

async function fillJobs(): Promise<number> {
  const [row] = await asTenant<{ n: unknown }>(
    sql`select count(*) as n from jobs where tenant_id = ${t.tenant.id} and kind = ${PAIR_FILL_JOB}`,
  );
  return Number(row?.n ?? 0);
}

const northOnly = () => ({
  Id: 9999,
  Criteria: [{ PropertyName: `cf_${chapter}`, Operator: 'eq' as const, Value: 'North' }],
});

/** Every page a reader reaches, both ways, against the reference: the slice and the exact total. */
async function everyPage(field = since): Promise<void> {
  for (const direction of ['asc', 'desc'] as const) {
    const expected = await reference(direction, field);
    const withDate = expected.length - Math.ceil(expected.length / 10);
    const skips = [
      0,
      50,
      500,
      withDate - 20,
      withDate + 5,
      expected.length - 30,
      expected.length,
      expected.length + 50,
    ];
    for (const skip of skips) {
      const page = await list(`?$skip=${skip}&$top=50&$orderby=cf_${field} ${direction}`, northOnly());
      expect(
        page.Results.map((r) => Number(r.ContactId)),
        `${direction} from ${skip}`,
      ).toEqual(expected.slice(skip, skip + 50));
      expect(page.TotalRecordAvailable, `${direction} from ${skip}`).toBe(expected.length);
    }
  }
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.admin)).cookie;
  api = client(ctx.app, cookie);
  await withBulkTarget(ctx.database, process.env.TEST_DATABASE_URL ?? undefined, (target) =>
    bulkSeedContacts(target, { tenantId: t.tenant.id, count: COUNT, seed: 19 }),
  );
  const define = async (body: Record<string, unknown>) => {
    const res = await api.post('/api/custom-fields', { Entity: 'Contact', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { CustomFieldId: number; SelectListItems: { Id: number; Name: string }[] };
  };
  const c = await define({
    Name: 'Chapter',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [
      { Id: -1, Name: 'North' },
      { Id: -2, Name: 'South' },
    ],
  });
  chapter = c.CustomFieldId;
  [north, south] = c.SelectListItems.map((x) => x.Id) as [number, number];
  since = (await define({ Name: 'Member since', CustomFieldDataTypeId: T.Date })).CustomFieldId;
  renewed = (await define({ Name: 'Renewed on', CustomFieldDataTypeId: T.Date })).CustomFieldId;
  // Two contacts in three in the North chapter, one in twenty without a chapter; one in ten without a date; dates
  // repeat (ties go by key).
  await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
    await tx.execute(sql`insert into custom_field_values (tenant_id, field_id, record_id, choice_id)
      select tenant_id, ${chapter}, contact_id,
        case when contact_id % 3 = 0 then ${south}::bigint else ${north}::bigint end
      from contacts where tenant_id = ${t.tenant.id} and contact_id % 20 <> 7`);
    for (const field of [since, renewed])
      await tx.execute(sql`insert into custom_field_values (tenant_id, field_id, record_id, date_value)
        select tenant_id, ${field}, contact_id, date '2000-01-01' + ((contact_id * ${field === since ? 7919 : 104729}) % 500)::int
        from contacts where tenant_id = ${t.tenant.id} and contact_id % 10 <> 0`);
  });
  await ctx.database.ownerDb.execute(sql`analyze custom_field_values`);
}, 300_000);
afterAll(() => ctx.close());

describe('a list filtered by a custom choice and sorted by a custom date, through the pair kept in order', () => {
  it('asks once, is answered as before, and after the job every page is the slice of a full sort', async () => {
    expect(await pairs()).toEqual([]);
    // The first request asks (the pair and its job) and is answered by the plan without it.
    const first = await list(`?$top=50&$orderby=cf_${since} asc`, northOnly());
    expect(first.Results.map((r) => Number(r.ContactId))).toEqual((await reference('asc')).slice(0, 50));
    // The app's worker may already have run the fill: only the ask itself is certain here.
    expect((await pairs()).map(({ filter, sort }) => ({ filter, sort }))).toEqual([
      { filter: chapter, sort: since },
    ]);
    expect(await fillJobs()).toBe(1);
    // Asked already: a second request asks nothing more.
    await list(`?$top=50&$orderby=cf_${since} desc`, northOnly());
    expect(await fillJobs()).toBe(1);
    await ctx.app.worker.drain(t.tenant.id);
    expect(await pairs()).toEqual([{ filter: chapter, sort: since, ready: true }]);
    expect(await kept()).toEqual(await reference('asc'));
    await everyPage();
  });

  it('reads a ready pair from its index, not the values', async () => {
    const bound = (ctx.app as unknown as { resources: BoundResource[] }).resources.find(
      (b) => b.resource.name === 'contacts',
    );
    if (!bound) throw new Error('no contacts resource in the app');
    for (const direction of ['asc', 'desc'] as const) {
      const plan = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
        const extra = await extraFieldsOf(tx, t.tenant.id, bound);
        const page = listPage(
          bound,
          t.tenant.id,
          { $top: 50, $skip: 900, $orderby: `cf_${since} ${direction}` } as never,
          northOnly(),
          50,
          extra,
        );
        const statement = page.statements.at(-1);
        if (!statement) throw new Error('no page statement');
        const [row] = await runFragment<{ 'QUERY PLAN': unknown }>(tx, q`explain (format json) ${statement}`);
        const doc = row?.['QUERY PLAN'];
        return ((typeof doc === 'string' ? JSON.parse(doc) : doc) as { Plan: PlanNode }[])[0]?.Plan;
      });
      if (!plan) throw new Error('no plan');
      const nodes = planNodes(plan);
      const relations = nodes.flatMap((n) => (n['Relation Name'] ? [n['Relation Name']] : []));
      // The keys come from the pair's index; no value is read (no hash of the choice's matches, no walk of the dates).
      expect(nodes.map((n) => n['Index Name'])).toContain('custom_field_pair_keys_order_idx');
      expect(relations).not.toContain('custom_field_values');
    }
  });

  it('follows every write of a value: a choice moved, a date changed and emptied, a contact deleted, an import', async () => {
    const order = await reference('asc');
    const [moved, changed, emptied, gone] = [order[3], order[400], order[10], order[700]].map(Number) as [
      number,
      number,
      number,
      number,
    ];
    const put = async (id: number, Values: Record<string, unknown>) => {
      const res = await api.put(`/api/custom-fields/values/Contact/${id}`, { Values });
      expect(res.statusCode, res.body).toBe(200);
    };
    await put(moved, { [chapter]: 'South' });
    await put(changed, { [since]: '1990-06-30' });
    await put(emptied, { [since]: null });
    // A South contact moved into the North chapter.
    const [southern] = await asTenant<{ id: unknown }>(
      sql`select record_id as id from custom_field_values where field_id = ${chapter} and choice_id = ${south} limit 1`,
    );
    await put(Number(southern?.id), { [chapter]: 'North' });
    const deleted = await api.delete(`/api/contacts/contacts/${gone}`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    // An import row: a new contact of the North chapter, with a date before every other.
    const u = await uploadFile(
      ctx.app,
      cookie,
      '/api/contacts/import/upload',
      ['Name,Email,Chapter,Since', 'Pat Pairing,pat.pairing@example.org,North,1980-01-02'].join('\n'),
    );
    expect(u.statusCode, u.body).toBe(200);
    const upload = u.json() as { ImportId: string; Mapping: Record<string, string> };
    const Mapping = { ...upload.Mapping, [`cf_${chapter}`]: 'Chapter', [`cf_${since}`]: 'Since' };
    const commit = await api.post('/api/contacts/import/commit', { ImportId: upload.ImportId, Mapping });
    expect(commit.statusCode, commit.body).toBe(202);
    let status = '';
    for (let i = 0; i < 100 && status !== 'done' && status !== 'failed'; i++) {
      await ctx.app.worker.drain(t.tenant.id);
      status = (await api.get(`/api/contacts/import/${upload.ImportId}`)).json().Status;
      if (status !== 'done') await new Promise((r) => setTimeout(r, 30));
    }
    expect(status).toBe('done');

    const after = await reference('asc');
    expect(after).not.toContain(moved);
    expect(after).not.toContain(gone);
    expect(after).toContain(Number(southern?.id));
    expect(after.indexOf(changed)).toBe(1);
    // Without a date now: among the last run, by key (a contact of the North chapter with a date comes before it).
    const [valued] = await asTenant<{ n: unknown }>(sql`select count(*) as n from custom_field_values f
      join custom_field_values d on d.field_id = ${since} and d.record_id = f.record_id
      where f.field_id = ${chapter} and f.choice_id = ${north}`);
    expect(after.indexOf(emptied)).toBeGreaterThanOrEqual(Number(valued?.n));
    expect(await kept()).toEqual(after);
    await everyPage();
  });

  it(`keeps ${MAX_SORT_PAIRS} pairs at most: beyond, the list asks nothing and is read as before`, async () => {
    // Pairs of other (made-up) fields fill the association's share but one.
    const have = (await pairs()).length;
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`insert into custom_field_sort_pairs (tenant_id, filter_field_id, sort_field_id)
        select ${t.tenant.id}, 900000 + n, ${since} from generate_series(1, ${MAX_SORT_PAIRS - have}) n`),
    );
    const jobs = await fillJobs();
    await everyPage(renewed);
    expect((await pairs()).length).toBe(MAX_SORT_PAIRS);
    expect((await pairs()).some((p) => p.sort === renewed)).toBe(false);
    expect(await fillJobs()).toBe(jobs);
    // One made-up pair gone: the list asks for its pair, which a job fills.
    await asTenant(sql`delete from custom_field_sort_pairs where filter_field_id = 900001`);
    await list(`?$top=50&$orderby=cf_${renewed} asc`, northOnly());
    expect(await fillJobs()).toBe(jobs + 1);
    await ctx.app.worker.drain(t.tenant.id);
    expect((await pairs()).find((p) => p.sort === renewed)).toEqual({
      filter: chapter,
      sort: renewed,
      ready: true,
    });
    await everyPage(renewed);
  });

  it('a list renews a pair it reads once a day; the daily fold drops a pair unused for 30 days with its keys', async () => {
    const age = async (sort: number) => {
      const [row] = await asTenant<{ days: unknown }>(
        sql`select extract(epoch from now() - asked_at) / 86400 as days from custom_field_sort_pairs
          where filter_field_id = ${chapter} and sort_field_id = ${sort}`,
      );
      return row ? Number(row.days) : null;
    };
    const keysOf = async (sort: number) => {
      const [row] = await asTenant<{ n: unknown }>(
        sql`select count(*) as n from custom_field_pair_keys where filter_field_id = ${chapter} and sort_field_id = ${sort}`,
      );
      return Number(row?.n ?? 0);
    };
    await asTenant(sql`update custom_field_sort_pairs set asked_at = now() - interval '2 days'
      where filter_field_id = ${chapter} and sort_field_id = ${since}`);
    await list(`?$top=50&$orderby=cf_${since} asc`, northOnly());
    expect(await age(since)).toBeLessThan(0.01);
    await asTenant(sql`update custom_field_sort_pairs set asked_at = now() - interval '31 days'
      where filter_field_id = ${chapter} and sort_field_id = ${renewed}`);
    expect(await keysOf(renewed)).toBeGreaterThan(0);
    await pairFoldHandler(ctx.database, {
      tenantId: t.tenant.id,
      id: 'fold',
      kind: 'custom-fields-pair-fold',
      payload: {},
      userId: null,
      attempts: 0,
    });
    expect(await age(renewed)).toBeNull();
    expect(await keysOf(renewed)).toBe(0);
    expect(await age(since)).not.toBeNull();
    expect(await keysOf(since)).toBeGreaterThan(0);
    await everyPage();
  });
});
