/**
 * Reports the association's staff build over any list (saved reports: a resource, columns, filters, sort, grouping
 * with aggregates and a chart), private to their owner or shared with the staff, and the reports each user pins to
 * the dashboard. Row-level security keeps another user's private report out of every statement (migration
 * `*_saved_reports_rls.sql`).
 */
import { bigint, boolean, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const savedReports = pgTable(
  'saved_reports',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    savedReportId: tenantSerial('saved_report_id', 'saved_reports'),
    ownerUserId: bigint('owner_user_id', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    resource: text('resource').notNull(),
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    isShared: boolean('is_shared').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.savedReportId] })],
);

export const reportPins = pgTable(
  'report_pins',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    reportId: text('report_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.reportId] })],
);
