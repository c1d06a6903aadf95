/**
 * Auth tables: people, their sessions, sign-in failures, password reset tokens and their associations.
 * Tables without tenant_id (users, sessions, login_failures, password_reset_tokens) are identity tables
 * read only through the auth module before a tenant is known; tenant_users is keyed by tenant_id first,
 * with row-level security enabled and forced (see migrations/*_rls.sql).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, tenantId, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    loginType: text('login_type').$type<'staff' | 'member'>().notNull(),
    securityQuestionId: integer('security_question_id'),
    securityAnswerHash: text('security_answer_hash'),
    isRequirePasswordReset: boolean('is_require_password_reset').notNull().default(false),
    mustChangeUsername: boolean('must_change_username').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    uiVersion: integer('ui_version').notNull().default(2),
    lastSignInAt: ts('last_sign_in_at'),
    passwordChangedAt: ts('password_changed_at'),
    /** The time zone the person reads times in (an IANA name); null: each association's own. */
    timeZone: text('time_zone'),
    /** The association the person worked in last (chosen or switched to): the next sign-in opens it. */
    lastTenantId: uuid('last_tenant_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    index('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the random token held in the cookie; the token itself is never stored. */
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    impersonatorUserId: bigint('impersonator_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    usernameKey: text('username_key').notNull(),
    ip: text('ip').notNull(),
    failedAt: ts('failed_at').notNull().defaultNow(),
  },
  (t) => [index('login_failures_key_idx').on(t.usernameKey, t.ip, t.failedAt)],
);

export const passwordResetTokens = pgTable('password_reset_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: createdAt(),
});

export const tenantUsers = pgTable(
  'tenant_users',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<'admin' | 'staff' | 'member'>().notNull(),
    featureFlags: jsonb('feature_flags').$type<Record<string, boolean>>().notNull().default({}),
    statusOpenedAt: ts('status_opened_at'),
    /** False once an administrator deactivated the person in this association: no session of it opens or lasts. */
    isActive: boolean('is_active').notNull().default(true),
    deactivatedAt: ts('deactivated_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index('tenant_users_user_idx').on(t.userId)],
);
