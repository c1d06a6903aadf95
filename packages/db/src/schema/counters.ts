/**
 * Per-tenant counters: one row per association and counter name (contact account numbers, and later invoice
 * numbers), advanced by `update … set value = value + 1 returning value`, whose row lock makes parallel writers
 * draw distinct numbers. Tenant-owned, row-level security forced (migration *_tenant_counters_rls).
 */
import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
