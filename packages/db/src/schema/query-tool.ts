/**
 * The query tool's tenant-written queries (decision 0170): SQL an association's administrators save, run by the
 * developer query tool through the same guard as the shipped queries. The views the queries read are created by a
 * hand-written migration (schema `gh_query`, security_invoker views over the tenant tables).
 */
import { bigint, boolean, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const savedQueries = pgTable(
  'saved_queries',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    queryId: tenantSerial('query_id', 'saved_queries'),
    title: text('title').notNull(),
    description: text('description'),
    groupName: text('group_name').notNull().default('Our queries'),
    sql: text('sql').notNull(),
    createdByUserId: bigint('created_by_user_id', { mode: 'number' }),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.queryId] })],
);
