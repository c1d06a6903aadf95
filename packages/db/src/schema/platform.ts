/**
 * Platform tables: tenants, identities, sessions, terms of use, audit, help, status, mail.
 * Tables without tenant_id (users, sessions, login_failures, password_reset_tokens) are identity tables
 * read only through the auth module before a tenant is known; every other table is tenant-owned,
 * keyed by tenant_id first, with row-level security enabled and forced (see migrations/*_rls.sql).
 */
import type { TenantSettings } from '@guildhall/shared';
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
import { createdAt, recordVersion, tenantId, tenantSerial, ts } from './columns.ts';

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  settings: jsonb('settings').$type<TenantSettings>().notNull(),
  createdAt: createdAt(),
  version: recordVersion(),
});

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

/**
 * The request counters of the rate limits (forgot-password, sign-up, email validation, …), one row per limited route
 * and caller, shared by every instance of the app: a limit holds for the deployment, not per process.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: ts('reset_at').notNull(),
});

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

export const auditLog = pgTable(
  'audit_log',
  {
    tenantId: tenantId(),
    id: tenantSerial('id', 'audit_log'),
    at: ts('at').notNull().defaultNow(),
    /** The person who acted (the staff user while impersonating). */
    actorUserId: bigint('actor_user_id', { mode: 'number' }),
    /** The user on whose behalf the action was taken (the impersonated user), when different. */
    onBehalfOfUserId: bigint('on_behalf_of_user_id', { mode: 'number' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('audit_log_at_idx').on(t.tenantId, t.at)],
);

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

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    tenantId: tenantId(),
    id: tenantSerial('id', 'mail_outbox'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** What was attached (name, type, size); the bytes went with the delivery only. */
    attachments: jsonb('attachments').$type<{ filename: string; contentType: string; size: number }[]>(),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);
