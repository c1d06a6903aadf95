/**
 * The query tool's SQL: the association's saved queries, and a guarded query run in a read-only transaction
 * (search_path the query views only, a statement timeout, a cost ceiling from EXPLAIN), as a page or through a
 * cursor in batches.
 */
import {
  type DbKind,
  Fragment,
  q,
  raw,
  render,
  runFragment,
  runFragmentInLoop,
  savedQueries,
  type Tx,
} from '@guildhall/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { QUERY_SCHEMA } from './query-guard.ts';

export interface SavedQueryRow {
  queryId: number;
  title: string;
  description: string | null;
  groupName: string;
  sql: string;
}

export async function listSavedQueries(tx: Tx, tenantId: string): Promise<SavedQueryRow[]> {
  return tx
    .select({
      queryId: savedQueries.queryId,
      title: savedQueries.title,
      description: savedQueries.description,
      groupName: savedQueries.groupName,
      sql: savedQueries.sql,
    })
    .from(savedQueries)
    .where(and(eq(savedQueries.tenantId, tenantId), eq(savedQueries.isDeleted, false)))
    .orderBy(asc(savedQueries.title));
}

/** Limits of a run (decision 0170). */
export interface QueryLimits {
  /** PostgreSQL: per statement (each FETCH of a cursor is one). PGlite ignores it. */
  statementTimeoutMs: number;
  /** Refused when EXPLAIN's total cost estimate is above this, on both databases. */
  costCeiling: number;
  /** PGlite: the most rows a CSV download streams (it cannot be interrupted by a timeout). */
  pgliteRowCap: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  statementTimeoutMs: 15_000,
  costCeiling: 50_000_000,
  pgliteRowCap: 1_000_000,
};

/** The query as a fragment: its SQL cut at the placeholders, one value per occurrence. */
export function queryFragment(strings: readonly string[], values: readonly unknown[]): Fragment {
  return new Fragment(strings, values);
}

/**
 * Makes the rest of the transaction a query run: nothing but the query views resolve without a schema, statements
 * stop after the timeout, times are in the association's timezone, nothing can be written. Call after the transaction's own writes (the audit row).
 */
export async function enterQueryMode(tx: Tx, limits: QueryLimits, timeZone: string): Promise<void> {
  // The association's timezone: times read as its staff read them, and `::date` is its calendar day.
  await tx.execute(
    sql`select set_config('search_path', ${QUERY_SCHEMA}, true), set_config('statement_timeout', ${String(limits.statementTimeoutMs)}, true), set_config('TimeZone', ${timeZone}, true)`,
  );
  await tx.execute(sql`set transaction read only`);
}

/** EXPLAIN's estimate of the query's total cost. */
export async function estimatedCost(tx: Tx, query: Fragment): Promise<number> {
  const rows = await runFragment<{ 'QUERY PLAN': unknown }>(tx, q`explain (format json) ${query}`);
  const plan = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
    Plan?: { 'Total Cost'?: number };
  }[];
  return Number(parsed[0]?.Plan?.['Total Cost'] ?? 0);
}

/** One page of the query's rows (one more than asked, to tell whether a next page exists). */
export async function queryPage(
  tx: Tx,
  query: Fragment,
  limit: number,
  offset: number,
): Promise<Record<string, unknown>[]> {
  return runFragment(tx, q`select * from (${query}) as gh_query_result limit ${limit + 1} offset ${offset}`);
}

/**
 * Rows per cursor fetch. Each row is one CSV line made by the database (one text value, not one per column), so a
 * batch is small and dies young in the JavaScript heap (decision 0060), read through `runFragmentInLoop` so that
 * nothing keeps it alive into the old space (decision 0191).
 */
const BATCH = 1000;

interface DescribingSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: undefined,
    isResponseInArrayMode: boolean,
  ): { execute(): Promise<{ fields?: { name: string }[] }> };
}

/**
 * The query's column names in order, without reading a row (`limit 0`: planned, nothing fetched). Read from the
 * answer's field descriptions, which both drivers give even when there is no row; two columns of the same name stay
 * two.
 */
export async function queryColumns(tx: Tx, query: Fragment): Promise<string[]> {
  const { text, params } = render(q`select * from (${query}) as gh_query_result limit 0`);
  const session = (tx as unknown as { session: DescribingSession }).session;
  const result = await session.prepareQuery({ sql: text, params }, undefined, undefined, false).execute();
  return (result.fields ?? []).map((f) => f.name);
}

/**
 * The query's rows as CSV lines in batches through a cursor, at most `cap` rows in all. The query is wrapped as a
 * sub-select whose columns are renamed by position (`gh_query_result(c1, c2, …)`, so two columns of one name are
 * both read), and each line is made by the database as exports make theirs: `gh_csv_field` per column (quoting and
 * spreadsheet-formula escaping, the same rule as csvField), joined by commas. The wrapper is the server's text
 * around the guarded query: the guard still parses and checks the query itself.
 */
export async function* queryCsvLines(tx: Tx, query: Fragment, columnCount: number, cap: number) {
  const names = Array.from({ length: columnCount }, (_, i) => `c${i + 1}`);
  // Each value made text once (`offset 0` keeps the planner from pulling the casts into every use the inlined
  // gh_csv_field makes of its argument: 5.7 s against 3.2 s for 200,000 rows of 5 columns, psql, load 27).
  const texts = names.map((n) => `gh_query_result.${n}::text as ${n}`).join(', ');
  const cells = names.map((n) => `public.gh_csv_field(gh_query_text.${n})`).join(', ');
  const line = columnCount > 0 ? `concat_ws(',', ${cells})` : `''`;
  const renamed = columnCount > 0 ? `(${names.join(', ')})` : '';
  await runFragment(
    tx,
    q`declare gh_query_cursor no scroll cursor for select ${raw(line)} as line from (select ${raw(texts || 'null')} from (${query}) as gh_query_result${raw(renamed)} offset 0) as gh_query_text`,
  );
  let sent = 0;
  while (sent < cap) {
    const rows = await runFragmentInLoop<{ line: string }>(
      tx,
      q`fetch ${raw(String(Math.min(BATCH, cap - sent)))} from gh_query_cursor`,
    );
    if (rows.length === 0) break;
    sent += rows.length;
    yield rows.map((r) => r.line);
    if (rows.length < BATCH) break;
  }
  await tx.execute(sql`close gh_query_cursor`);
}

export function rowCap(kind: DbKind, limits: QueryLimits): number {
  return kind === 'pglite' ? limits.pgliteRowCap : Number.MAX_SAFE_INTEGER;
}
