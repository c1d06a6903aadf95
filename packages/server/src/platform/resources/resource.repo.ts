/** Queries of the generic engine: every one runs inside the caller's tenant transaction, scoped by tenant too. */
import { type Fragment, ident, q, type Raw, raw, runFragment, type Tx } from '@guildhall/db';
import { LIST_SEARCH_EXACT_UP_TO } from '@guildhall/shared';
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { SearchIndexPlan } from './hooks.ts';
import type { BoundResource } from './registry.ts';

export type Row = Record<string, unknown>;

/**
 * The list statements run on every list request: written as fragments and read without Drizzle's builder
 * (decision 0060). Rows come keyed by field name in the order asked, each value read by its column's own decoder:
 * a page's rows are its models as they are.
 */
function selectList(bound: BoundResource, fields: readonly string[] | undefined): Raw {
  const names = fields ?? Object.keys(bound.columns);
  const parts: string[] = [];
  for (const f of names) {
    const column = bound.sqlColumns[f];
    if (column) parts.push(`${column.text} as ${ident(f).text}`);
  }
  return raw(parts.join(', '));
}

function scoped(bound: BoundResource, tenantId: string, where: Fragment | undefined): Fragment {
  return where ? q`${bound.sqlTenant} = ${tenantId} and ${where}` : q`${bound.sqlTenant} = ${tenantId}`;
}

/** Each value read by its column's decoder, and a timestamp as ISO text: the values as a model carries them. */
export function decodeRows(bound: BoundResource, rows: Row[]): Row[] {
  const { decoders } = bound;
  for (const row of rows) {
    for (const f in row) {
      const value = row[f];
      const decode = decoders[f];
      if (value === null || value === undefined || !decode) continue;
      const v = decode(value);
      row[f] = v instanceof Date ? v.toISOString() : v;
    }
  }
  return rows;
}

/** The statement of a page: its rows keyed by field name, in the order asked. */
export function listStatement(
  bound: BoundResource,
  tenantId: string,
  plan: {
    where: Fragment | undefined;
    orderBy: Raw;
    limit: number;
    offset: number;
    fields?: readonly string[];
  },
): Fragment {
  const select = selectList(bound, plan.fields);
  const where = scoped(bound, tenantId, plan.where);
  if (plan.offset >= DEFERRED_JOIN_FROM) {
    // Deep pages: skip over keys only (an index-only scan of the sort index), then read the page's rows.
    return q`select ${select} from ${bound.sqlSource} where ${bound.sqlTenant} = ${tenantId} and ${bound.sqlKey} in (select ${bound.sqlKey} from ${bound.sqlSource} where ${where} order by ${plan.orderBy} limit ${plan.limit} offset ${plan.offset}) order by ${plan.orderBy}`;
  }
  return q`select ${select} from ${bound.sqlSource} where ${where} order by ${plan.orderBy} limit ${plan.limit} offset ${plan.offset}`;
}

export async function listRows(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  plan: {
    where: Fragment | undefined;
    orderBy: Raw;
    limit: number;
    offset: number;
    fields?: readonly string[];
  },
): Promise<Row[]> {
  return decodeRows(bound, await runFragment<Row>(tx, listStatement(bound, tenantId, plan)));
}

/**
 * A page and its total when the search box is served by a search index (decision 0101). Both statements first read
 * the keys of at most LIST_SEARCH_EXACT_UP_TO + 1 matches through the index (`m`); then, in the same statement:
 * - up to LIST_SEARCH_EXACT_UP_TO matches, the total is exact and the page is those rows sorted (they are few);
 * - beyond, the total is the sampled share of matches times the list's total without the search (a clearly
 *   labelled estimate, never below the threshold), and the page walks the sort's index testing each row's match
 *   by its key, which finds a page quickly because matches are frequent there. Pages reach the first
 *   LIST_SEARCH_EXACT_UP_TO matches.
 * Each branch is guarded by a condition on `m` alone, which PostgreSQL evaluates once before running the branch.
 */
export function listSearchStatements(
  bound: BoundResource,
  tenantId: string,
  plan: {
    whereWithoutSearch: Fragment | undefined;
    search: SearchIndexPlan;
    orderBy: Raw;
    sorts: readonly { field: string; direction: 'asc' | 'desc' }[];
    limit: number;
    offset: number;
    fields?: readonly string[];
  },
  /** The list's total without the search: a statement answering one row, `n`. */
  unsearchedCount: Fragment,
): [count: Fragment, page: Fragment] {
  const exactUpTo = LIST_SEARCH_EXACT_UP_TO;
  const where = scoped(bound, tenantId, plan.whereWithoutSearch);
  const matches = q`m as materialized (select key from (${plan.search.keys}) k limit ${exactUpTo + 1})`;
  const few = q`(select count(*) from m) <= ${exactUpTo}`;
  const count = q`with ${matches}
    select case when ${few}
      then (select count(*) from ${bound.sqlSource} where ${where} and ${bound.sqlKey} in (select key from m))
      else greatest(${exactUpTo + 1}, round((select share from (${plan.search.share}) s) * (select n from (${unsearchedCount}) u)))
    end as n, not ${few} as estimated`;
  // The few matches' rows with the fields the page shows and sorts by, then sorted: fenced, so the planner reads
  // them by key instead of walking the whole sort index looking for them.
  const names = [
    ...new Set([...(plan.fields ?? Object.keys(bound.columns)), ...plan.sorts.map((s) => s.field)]),
  ];
  const shown = plan.fields ?? Object.keys(bound.columns);
  const fewRows = raw(
    names.map((f) => `${(bound.sqlColumns[f] as Raw).text} as ${ident(f).text}`).join(', '),
  );
  const fewOrder = raw(plan.sorts.map((s) => `${ident(s.field).text} ${s.direction}`).join(', '));
  const fewSelect = raw(
    shown
      .filter((f) => bound.sqlColumns[f])
      .map((f) => ident(f).text)
      .join(', '),
  );
  const select = selectList(bound, plan.fields);
  const limit = plan.offset + plan.limit > exactUpTo ? Math.max(0, exactUpTo - plan.offset) : plan.limit;
  const page = q`with ${matches}, f as materialized (
      select ${fewRows} from ${bound.sqlSource}
      where ${where} and ${bound.sqlKey} in (select key from m) and ${few})
    (select ${fewSelect} from f order by ${fewOrder} limit ${plan.limit} offset ${plan.offset})
    union all
    (select ${select} from ${bound.sqlSource}
      where ${where} and not ${few} and ${plan.search.matchesKey(bound.sqlKey)}
      order by ${plan.orderBy} limit ${limit} offset ${plan.offset})`;
  return [count, page];
}

/** From this offset on, a page is read through its keys first (a deferred join). */
export const DEFERRED_JOIN_FROM = 1000;

/** The statement of the exact number of rows: one row, its `n`. */
export function countStatement(
  bound: BoundResource,
  tenantId: string,
  where: Fragment | undefined,
): Fragment {
  return q`select count(*) as n from ${bound.sqlSource} where ${scoped(bound, tenantId, where)}`;
}

export async function countRows(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  where: Fragment | undefined,
): Promise<number> {
  const [r] = await runFragment<{ n: unknown }>(tx, countStatement(bound, tenantId, where));
  return Number(r?.n ?? 0);
}

function byKey(bound: BoundResource, tenantId: string, key: unknown): SQL | undefined {
  return and(eq(bound.tenantColumn, tenantId), eq(bound.keyColumn, key));
}

/** The whole row by key (every property, so JSON-document fields can be read too). */
export async function findRow(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  key: unknown,
): Promise<Row | undefined> {
  const [row] = await tx
    .select(bound.properties)
    .from(bound.source as PgTable)
    .where(byKey(bound, tenantId, key))
    .limit(1);
  return row;
}

export async function insertRow(tx: Tx, bound: BoundResource, values: Row): Promise<Row> {
  const [row] = await tx
    .insert(bound.source as PgTable)
    .values(values as never)
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row as Row;
}

/**
 * Updates one record; with `version`, only while the record is still at that version (a concurrent save that
 * committed first moved it on, and this one then updates nothing). The version itself moves on by trigger.
 */
export async function updateRow(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  key: unknown,
  values: Row,
  version?: number,
): Promise<Row | undefined> {
  const guard =
    version !== undefined && bound.versionColumn
      ? and(byKey(bound, tenantId, key), eq(bound.versionColumn, version))
      : byKey(bound, tenantId, key);
  const [row] = await tx
    .update(bound.source as PgTable)
    .set(values as never)
    .where(guard)
    .returning();
  return row as Row | undefined;
}
