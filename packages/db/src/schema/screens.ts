/**
 * Tables of the generic screen layer: per-user table and widget settings, the PostgreSQL-backed job queue,
 * stored files (exports) and report favourites. All tenant-owned, tenant_id first in the key, with row-level
 * security (migrations/*_screens_rls.sql).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, tenantId, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const tableSettings = pgTable(
  'table_settings',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    screenName: text('screen_name').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.screenName] })],
);

export const userWidgetSettings = pgTable(
  'user_widget_settings',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    screenName: text('screen_name').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.screenName] })],
);

/** Background work: claimed with FOR UPDATE SKIP LOCKED, so any instance can run it and it survives a restart. */
export const jobs = pgTable(
  'jobs',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    userId: bigint('user_id', { mode: 'number' }),
    error: text('error'),
    runAfter: ts('run_after').notNull().defaultNow(),
    /** When the instance running the job claimed it, then its heartbeat: a running job not heard of for long is claimed again. */
    lockedAt: ts('locked_at'),
    /** Progress of a running job (rows done of all), written by the instance running it for every other to read. */
    progressDone: integer('progress_done'),
    progressTotal: integer('progress_total'),
    finishedAt: ts('finished_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('jobs_queued_idx').on(t.status, t.runAfter)],
);

/**
 * The daily jobs already queued: one row per job kind, association and day of the association's calendar, claimed by
 * gh_queue_daily so that a kind runs once a day per association whatever the number of instances or checks.
 */
export const dailyRuns = pgTable(
  'daily_runs',
  {
    kind: text('kind').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.tenantId, t.day] })],
);

/** A file in storage (an export, for now): the bytes live under its storage key, never in the database. */
export const storedFiles = pgTable(
  'stored_files',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    status: text('status').$type<'pending' | 'ready' | 'failed'>().notNull().default('pending'),
    jobId: uuid('job_id'),
    createdAt: createdAt(),
    readyAt: ts('ready_at'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const reportFavorites = pgTable(
  'report_favorites',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    reportId: text('report_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.reportId] })],
);

/**
 * The users of a tenant as the users resource lists them; security_invoker keeps row-level security on. Active: the
 * person is active and not deactivated in this association.
 */
export const userDirectory = pgView('user_directory', {
  tenantId: uuid('tenant_id').notNull(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  username: text('username').notNull(),
  email: text('email').notNull(),
  displayName: text('display_name').notNull(),
  loginType: text('login_type').notNull(),
  role: text('role').notNull(),
  isActive: boolean('is_active').notNull(),
  lastSignInAt: ts('last_sign_in_at'),
})
  .with({ securityInvoker: true })
  .as(
    sql`select tu.tenant_id, u.id as user_id, u.username, u.email, u.display_name, u.login_type, tu.role, (u.is_active and tu.is_active) as is_active, u.last_sign_in_at from tenant_users tu join users u on u.id = tu.user_id`,
  );
