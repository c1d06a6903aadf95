/** Queries of the generic engine: every one runs inside the caller's tenant transaction, scoped by tenant too. */
import { type Fragment, ident, q, type Raw, raw, runFragment, type Tx } from '@guildhall/db';
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
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

export async function updateRow(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  key: unknown,
  values: Row,
): Promise<Row | undefined> {
  const [row] = await tx
    .update(bound.source as PgTable)
    .set(values as never)
    .where(byKey(bound, tenantId, key))
    .returning();
  return row as Row | undefined;
}
