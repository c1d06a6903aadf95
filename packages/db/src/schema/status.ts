/**
 * Status and maintenance messages shown to an association's users, tenant-owned under row-level security.
 */
import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenantId, ts } from './columns.ts';

export const statusMessages = pgTable(
  'status_messages',
  {
    tenantId: tenantId(),
    kind: text('kind').$type<'status' | 'maintenance'>().notNull(),
    message: text('message').notNull(),
    level: text('level').$type<'info' | 'warning' | 'critical'>().notNull().default('info'),
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind] })],
);
