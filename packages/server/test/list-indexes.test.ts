/**
 * Every list a user can ask for is read in order from an index (decision 0100): for each resource of the default
 * `large` scale, each sortable field in both directions, with no filter, with each named filter and within a parent
 * record, at the first page and at a deep page (keys first), the planned page statement has no sort and no
 * sequential scan under its LIMIT. The planner is told to avoid both (`enable_sort`, `enable_seqscan` off), so it
 * plans one only when no index can serve the order: a sortable field or a named filter added without its index
 * fails here. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { type Fragment, q, raw, runFragment, withTenantTx } from '@guildhall/db';
import {
  FILTER_ADVANCED,
  indexFieldsFor,
  type ListAccessPath,
  type ListRequest,
  listAccessPaths,
  listCountFacets,
  listSearchExpression,
  listSearchIndex,
  parentFieldsOf,
} from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trigramSearchPlan } from '../src/platform/resources/list-search.ts';
import { type BoundResource, discoverResources } from '../src/platform/resources/registry.ts';
import { DEFERRED_JOIN_FROM } from '../src/platform/resources/resource.repo.ts';
import { listPage } from '../src/platform/resources/resource.service.ts';
import { seedTenant, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';
import { planWithIndexAlone } from './plan-probe.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let bound: BoundResource[];

beforeAll(async () => {
  ctx = await testApp({}, 2);
  t = await seedTenant(ctx.database);
  bound = await discoverResources();
});
afterAll(() => ctx.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** What under each LIMIT of a plan reads the rows in the wrong way: a sort, or a scan of the whole table. */
export function problemsOf(plan: PlanNode, table: string): string[] {
  const problems: string[] = [];
  for (const limit of nodes(plan).filter((n) => n['Node Type'] === 'Limit')) {
    for (const n of nodes(limit)) {
      if (n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort')
        problems.push('sorts the matching rows');
      if (n['Relation Name'] === table && !/Index/.test(n['Node Type']))
        problems.push(`reads ${table} by ${n['Node Type']}`);
    }
  }
  return problems;
}

function requestOf(resource: BoundResource['resource'], path: ListAccessPath): ListRequest {
  if (typeof path.filter === 'number') return { Id: path.filter } as ListRequest;
  // A parent record's tab: its children with the parent's key (the value does not change the plan's shape).
  const field = path.equal[0] as string;
  const value = resource.fields[field]?.type === 'text' ? 'x' : 1;
  return {
    Id: FILTER_ADVANCED,
    Criteria: [{ PropertyName: field, Operator: 'eq', Value: value }],
  } as ListRequest;
}

type TenantTx = Parameters<Parameters<typeof withTenantTx>[2]>[0];

/**
 * Plans statements in one transaction told to avoid sorts and sequential scans: one transaction for every plan of
 * the test, not one each (the plans are the same; on PostgreSQL the transactions were most of the time).
 */
async function withPlanner<R>(
  fn: (explain: (page: Fragment) => Promise<PlanNode>) => Promise<R>,
): Promise<R> {
  return withTenantTx(
    ctx.database.db,
    { tenantId: t.tenant.id, userId: t.admin.id },
    async (tx: TenantTx) => {
      await runFragment(
        tx,
        q`select set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true), set_config('enable_incremental_sort', 'off', true)`,
      );
      return fn(async (page) => {
        const [row] = await runFragment<{ 'QUERY PLAN': unknown }>(tx, q`explain (format json) ${page}`);
        const doc = row?.['QUERY PLAN'];
        const parsed = (typeof doc === 'string' ? JSON.parse(doc) : doc) as { Plan: PlanNode }[];
        return (parsed[0] as { Plan: PlanNode }).Plan;
      });
    },
  );
}

async function explainVerbose(statement: Fragment): Promise<PlanNode & { Output?: string[] }> {
  return withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
    const [row] = await runFragment<{ 'QUERY PLAN': unknown }>(
      tx,
      q`explain (verbose, format json) ${statement}`,
    );
    const doc = row?.['QUERY PLAN'];
    const parsed = (typeof doc === 'string' ? JSON.parse(doc) : doc) as {
      Plan: PlanNode & { Output?: string[] };
    }[];
    return (parsed[0] as { Plan: PlanNode & { Output?: string[] } }).Plan;
  });
}

describe('list indexes', () => {
  it('derives an index for every sortable field of every large resource, with each named filter', () => {
    const all = bound.map((b) => b.resource);
    const large = all.filter((r) => r.scale !== 'small' && !r.singleRecord);
    expect(large.map((r) => r.name)).toContain('contacts');
    for (const r of large) {
      const paths = listAccessPaths(r, parentFieldsOf(r, all));
      for (const sort of r.sortable) expect(paths.some((p) => p.sort === sort && p.filter === 0)).toBe(true);
      for (const f of r.filters)
        expect(paths.filter((p) => p.filter === f.Id)).toHaveLength(r.sortable.length);
      // Each index leads with the filter's equal fields and yields the sort field next.
      for (const p of paths) {
        const fields = indexFieldsFor(r, p);
        expect(fields.slice(0, p.equal.length)).toEqual(p.equal);
        expect(fields.at(-1)).toBe(r.key);
      }
    }
  });

  it('serve every sort, both ways, with no filter, each named filter and within a parent, at any depth', async () => {
    const all = bound.map((b) => b.resource);
    const failures: string[] = [];
    let checked = 0;
    // The resources in two halves, each planned in its own transaction on its own connection (the pool has two).
    const halves = [bound.filter((_, i) => i % 2 === 0), bound.filter((_, i) => i % 2 === 1)];
    const planHalf = (half: BoundResource[]) =>
      withPlanner(async (explain) => {
        for (const b of half) {
          const r = b.resource;
          for (const path of listAccessPaths(r, parentFieldsOf(r, all))) {
            for (const direction of ['asc', 'desc'] as const) {
              for (const skip of [0, DEFERRED_JOIN_FROM]) {
                const query = { $skip: skip, $top: 50, $orderby: `${path.sort} ${direction}` };
                const { statements } = listPage(b, t.tenant.id, query, requestOf(r, path), 50);
                const plan = await explain(statements.at(-1) as Fragment);
                checked++;
                for (const p of problemsOf(plan, r.table))
                  failures.push(
                    `${r.name} sorted by ${path.sort} ${direction}, filter ${path.filter}, $skip ${skip}: ${p}`,
                  );
              }
            }
          }
        }
      });
    await Promise.all(halves.map(planHalf));
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it("spell the search box's text as each large resource's trigram index does (decision 0102)", async () => {
    // The planner reads an expression index only for the same expression: the index's, as the database keeps it,
    // against the one the server's search statement selects, both printed by the database.
    const failures: string[] = [];
    const searched: string[] = [];
    for (const b of bound) {
      const search = listSearchIndex(b.resource);
      if (!search || !b.isTable) continue;
      searched.push(b.resource.name);
      const columns = search.fields.map((f) => b.sqlColumns[f]?.text ?? '?');
      const [index] = await withTenantTx(
        ctx.database.db,
        { tenantId: t.tenant.id, userId: t.admin.id },
        (tx) =>
          runFragment<{ expr: string; pred: string | null }>(
            tx,
            q`select pg_get_expr(i.indexprs, i.indrelid) as expr, pg_get_expr(i.indpred, i.indrelid) as pred
              from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ${`${b.resource.table}_search_trgm`}`,
          ),
      );
      if (!index) {
        failures.push(`${b.resource.name}: no index ${b.resource.table}_search_trgm`);
        continue;
      }
      const plan = await explainVerbose(
        q`select ${raw(listSearchExpression(columns))} from ${b.sqlSource} where ${b.sqlTenant} = ${t.tenant.id}`,
      );
      const selected = String(plan.Output?.[0] ?? '').replaceAll(`${b.resource.table}.`, '');
      // The index's expression is printed over several lines (CASE); the same expression whatever the spaces.
      if (selected.replace(/\s+/g, '') !== index.expr.replace(/\s+/g, ''))
        failures.push(`${b.resource.name}: selects ${selected}, index has ${index.expr}`);
      if ((index.pred !== null) !== (b.resource.softDelete !== undefined))
        failures.push(`${b.resource.name}: index predicate ${index.pred}`);
      expect(trigramSearchPlan(b, 'smith houston')).not.toBeNull();
    }
    expect(searched).toEqual(expect.arrayContaining(['memberships', 'invoices', 'events', 'eventAttendees']));
    expect(searched).not.toContain('contacts');
    expect(failures).toEqual([]);
  });

  it("find the search box's matches through the trigram index as the application role, under row-level security", async () => {
    // A condition is read from an index before the tenant policy only when PostgreSQL counts nothing in it as leaky
    // (COALESCE was; migration 0085): otherwise the search reads every row of the association, whatever the index.
    // Each table is copied, empty, as a temporary table of the same name (it comes first on the search path) with
    // its trigram index alone and its policy: the planner then uses that index unless the condition cannot reach it.
    const failures: string[] = [];
    let checked = 0;
    for (const b of bound) {
      if (!listSearchIndex(b.resource) || !b.isTable) continue;
      const plan = trigramSearchPlan(b, 'zzqx');
      if (!plan) continue;
      checked++;
      const found = nodes(
        await planWithIndexAlone(
          ctx.database,
          t.tenant.id,
          b.resource.table,
          `${b.resource.table}_search_trgm`,
          plan.keys,
        ),
      );
      if (!found.some((n) => n['Index Name'] === `${b.resource.table}_search_trgm_alone`))
        failures.push(`${b.resource.name}: ${found.map((n) => n['Node Type']).join(' > ')}`);
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(failures).toEqual([]);
  });

  it("keep every counted resource's totals by its table's three statement triggers (decision 0103)", async () => {
    const counted = bound.filter((b) => listCountFacets(b.resource));
    expect(counted.map((b) => b.resource.name)).toEqual(
      expect.arrayContaining(['memberships', 'invoices', 'events', 'eventAttendees']),
    );
    const failures: string[] = [];
    for (const b of counted) {
      const deleted = b.resource.softDelete ? (b.columns[b.resource.softDelete.deleted]?.name ?? '?') : '';
      const facets = (listCountFacets(b.resource) ?? []).map((f) => b.columns[f]?.name ?? `?${f}`);
      const triggers = await withTenantTx(
        ctx.database.db,
        { tenantId: t.tenant.id, userId: t.admin.id },
        (tx) =>
          runFragment<{ tgname: string; args: string[] }>(
            tx,
            q`select t.tgname, (string_to_array(encode(t.tgargs, 'escape'), '\\000'))[1:t.tgnargs] as args
              from pg_trigger t where t.tgrelid = ${b.resource.table}::regclass and t.tgname like 'list_count_%'
             order by t.tgname`,
          ),
      );
      const names = triggers.map((r) => r.tgname);
      if (names.join() !== 'list_count_delete,list_count_insert,list_count_update')
        failures.push(`${b.resource.name}: triggers ${names.join()}`);
      for (const r of triggers) {
        const [del, ...cols] = r.args;
        if (del !== deleted || [...cols].sort().join() !== [...facets].sort().join())
          failures.push(
            `${b.resource.name} ${r.tgname}: counts ${JSON.stringify(r.args)}, the resource needs ${JSON.stringify([deleted, ...facets])}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it('tells a sort that no index serves', async () => {
    // The check itself: the same page sorted by a column no list index leads with plans a sort.
    const contacts = bound.find((b) => b.resource.name === 'contacts') as BoundResource;
    const plan = await withPlanner((explain) =>
      explain(
        q`select contact_id from contacts where tenant_id = ${t.tenant.id} and not is_deleted order by phone, contact_id limit 50`,
      ),
    );
    expect(problemsOf(plan, contacts.resource.table)).toContain('sorts the matching rows');
  });
});
