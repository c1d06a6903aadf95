/**
 * Platform tables: the associations (tenants) and the rate-limit counters shared by every instance.
 * Each feature keeps its own tables in its own schema file (auth, terms, audit, help, status, mail, …).
 */
import type { TenantSettings } from '@guildhall/shared';
import { integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, ts } from './columns.ts';

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  settings: jsonb('settings').$type<TenantSettings>().notNull(),
  createdAt: createdAt(),
  version: recordVersion(),
});

/**
 * The request counters of the rate limits (forgot-password, sign-up, email validation, …), one row per limited route
 * and caller, shared by every instance of the app: a limit holds for the deployment, not per process.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: ts('reset_at').notNull(),
});
