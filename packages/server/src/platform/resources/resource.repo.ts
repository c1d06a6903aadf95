/** Queries of the generic engine: every one runs inside the caller's tenant transaction, scoped by tenant too. */
import type { Tx } from '@guildhall/db';
import { and, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { BoundResource } from './registry.ts';

export type Row = Record<string, unknown>;

/** Field name to column, for the fields that have a column of their own. */
function selection(bound: BoundResource, fields?: readonly string[]): Record<string, PgColumn> {
  const out: Record<string, PgColumn> = {};
  for (const [field, column] of Object.entries(bound.columns))
    if (!fields || fields.includes(field)) out[field] = column;
  return out;
}

function scoped(bound: BoundResource, tenantId: string, where: SQL | undefined): SQL | undefined {
  return and(eq(bound.tenantColumn, tenantId), where);
}

export async function listRows(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  plan: { where: SQL | undefined; orderBy: SQL[]; limit: number; offset: number; fields?: readonly string[] },
): Promise<Row[]> {
  if (plan.offset >= DEFERRED_JOIN_FROM) {
    // Deep pages: skip over keys only (an index-only scan of the sort index), then read the page's rows.
    const keys = tx
      .select({ key: bound.keyColumn })
      .from(bound.source as PgTable)
      .where(scoped(bound, tenantId, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset);
    return tx
      .select(selection(bound, plan.fields))
      .from(bound.source as PgTable)
      .where(and(eq(bound.tenantColumn, tenantId), inArray(bound.keyColumn, keys)))
      .orderBy(...plan.orderBy);
  }
  return tx
    .select(selection(bound, plan.fields))
    .from(bound.source as PgTable)
    .where(scoped(bound, tenantId, plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset);
}

/** From this offset on, a page is read through its keys first (a deferred join). */
export const DEFERRED_JOIN_FROM = 1000;

export async function countRows(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  where: SQL | undefined,
): Promise<number> {
  const [r] = await tx
    .select({ n: count() })
    .from(bound.source as PgTable)
    .where(scoped(bound, tenantId, where));
  return Number(r?.n ?? 0);
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
    .where(scoped(bound, tenantId, eq(bound.keyColumn, key)))
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
    .where(scoped(bound, tenantId, eq(bound.keyColumn, key)))
    .returning();
  return row as Row | undefined;
}
