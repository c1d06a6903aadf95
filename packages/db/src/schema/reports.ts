/**
 * Reports the association's staff build over any list (saved reports: a resource, columns, filters, sort, grouping
 * with aggregates and a chart), private to their owner or shared with the staff, and the reports each user pins to
 * the dashboard. Row-level security keeps another user's private report out of every statement (migration
 * `*_saved_reports_rls.sql`).
 */
import { bigint, boolean, date, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
    /** The report's parameter values the widget runs with (a date range kept as its option). */
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull().default({}),
    /** `report`: its chart, groups or count; `figure`: one total (`measure`, an aggregate key) as a number. */
    display: text('display').$type<'report' | 'figure'>().notNull().default('report'),
    measure: text('measure'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.reportId] })],
);

/**
 * A saved report mailed as CSV on a schedule (daily, weekly on a weekday, monthly on a day) to staff users of the
 * association and typed addresses. Not restricted by owner like `saved_reports`: the daily job reads every schedule
 * and runs each report in a transaction opened as its owner (decision 0176).
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    scheduleId: tenantSerial('schedule_id', 'report_schedules'),
    savedReportId: bigint('saved_report_id', { mode: 'number' }).notNull(),
    ownerUserId: bigint('owner_user_id', { mode: 'number' }).notNull(),
    frequency: text('frequency').$type<'daily' | 'weekly' | 'monthly'>().notNull(),
    /** ISO weekday, 1 Monday to 7 Sunday (weekly). */
    weekday: integer('weekday'),
    /** Day of the month, 1 to 31; a shorter month sends on its last day (monthly). */
    dayOfMonth: integer('day_of_month'),
    userIds: jsonb('user_ids').$type<number[]>().notNull().default([]),
    addresses: jsonb('addresses').$type<string[]>().notNull().default([]),
    /** The report's parameter values each send runs with (a date range kept as its option). */
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull().default({}),
    isActive: boolean('is_active').notNull().default(true),
    /** The association's calendar day of the last send (once per day, however often the job runs). */
    lastSentOn: date('last_sent_on', { mode: 'string' }),
    lastOutcome: text('last_outcome'),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.scheduleId] })],
);
