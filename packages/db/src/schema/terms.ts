/**
 * Terms of use and privacy: the published terms and each user's acceptances (kept as proof of consent).
 * Tenant-owned, row-level security enabled and forced (see migrations/*_rls.sql).
 */
import { bigint, boolean, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const termsOfUse = pgTable(
  'terms_of_use',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    id: tenantSerial('id', 'terms_of_use'),
    loginType: text('login_type').$type<'staff' | 'member'>().notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    publishedAt: ts('published_at').notNull().defaultNow(),
    publishedBy: bigint('published_by', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const termsAcceptances = pgTable(
  'terms_acceptances',
  {
    tenantId: tenantId(),
    termsId: bigint('terms_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accepted: boolean('accepted').notNull(),
    actedAt: ts('acted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.termsId, t.userId] })],
);

/** Each user's acceptance of a version of the association's privacy policy (kept as proof of consent). */
export const privacyAcceptances = pgTable(
  'privacy_acceptances',
  {
    tenantId: tenantId(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    policyVersion: text('policy_version').notNull(),
    acceptedAt: ts('accepted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.policyVersion] })],
);
