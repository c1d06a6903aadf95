/**
 * Per-tenant counters: one row per association and counter name (contact account numbers, and later invoice
 * numbers), advanced by `update … set value = value + 1 returning value`, whose row lock makes parallel writers
 * draw distinct numbers. Tenant-owned, row-level security forced (migration *_tenant_counters_rls).
 */
import { bigint, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { tenantId } from './columns.ts';
import { tenants } from './platform.ts';

export const tenantCounters = pgTable(
  'tenant_counters',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The last number drawn. */
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

/**
 * The counts behind a counted list's totals (decision 0103): rows of changes, `n` more or fewer rows of a table
 * with a facet's value (facet `''`: the live rows), written by a statement trigger of the table
 * (`gh_list_count_rows`) in the writing transaction, so a total never drifts from the rows whoever writes them. Only
 * inserted: concurrent writers never wait on a counter row; a daily job folds each association's rows into one per
 * value. A total is the sum of its value's rows.
 */
export const listCounts = pgTable(
  'list_counts',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    tableName: text('table_name').notNull(),
    facet: text('facet').notNull(),
    value: text('value').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.tableName, t.facet, t.value, t.id] })],
);
