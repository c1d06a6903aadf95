/**
 * Help texts per screen state, tenant-owned under row-level security.
 */
import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { recordVersion, tenantId, ts } from './columns.ts';

export const helpTexts = pgTable(
  'help_texts',
  {
    tenantId: tenantId(),
    stateName: text('state_name').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: bigint('updated_by', { mode: 'number' }),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.stateName] })],
);
