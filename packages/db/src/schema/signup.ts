/**
 * Sign-up requests: the minimal sign-up's single-use links. An identity table (no tenant yet: the association is
 * made when the link is used), read only by the sign-up feature. The token itself is never stored, only its SHA-256.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const signupRequests = pgTable(
  'signup_requests',
  {
    tokenHash: text('token_hash').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    trialKey: text('trial_key'),
    ip: text('ip'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /** The association the link made (named so: this is no tenant-owned row). */
    provisionedTenantId: uuid('provisioned_tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    /** The administrator the link made, signed in by the wizard's answer. */
    administratorUserId: bigint('administrator_user_id', { mode: 'number' }),
  },
  (t) => [
    index('signup_requests_email_idx').on(sql`lower(${t.email})`, t.createdAt),
    index('signup_requests_ip_idx').on(t.ip, t.createdAt),
  ],
);
