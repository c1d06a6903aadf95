/**
 * Communications: the association's email templates and newsletters, its staff's signatures, its mailings with one
 * row per recipient (the delivery log), and the suppression list every send honours. Tenant-owned: tenant_id first
 * in every primary key and index, ids numbered per association, row-level security forced (communications_rls).
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
} from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

/** A saved email template (rich text) or newsletter (designer: Html and DesignJson). */
export const emailTemplates = pgTable(
  'email_templates',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    templateId: tenantSerial('template_id', 'email_templates'),
    name: text('name').notNull(),
    /** `template` (rich text) or `newsletter` (designer). */
    kind: text('kind').notNull().default('template'),
    /** What it is for (TEMPLATE_PURPOSES): general, or another feature's message (invoice, receipt, …). */
    purpose: text('purpose').notNull().default('general'),
    subject: text('subject').notNull().default(''),
    /** Sanitized HTML with merge chips (templates) or the designer's email HTML (newsletters). */
    bodyHtml: text('body_html'),
    /** The designer's own model of a newsletter, saved beside its HTML so that reopening restores it exactly. */
    designJson: jsonb('design_json'),
    isArchived: boolean('is_archived').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.templateId] }),
    index('email_templates_name_idx').on(t.tenantId, t.name),
  ],
);

/** A staff member's email signature; one of each user's may be the default. */
export const signatures = pgTable(
  'signatures',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    signatureId: tenantSerial('signature_id', 'signatures'),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    signatureHtml: text('signature_html').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.signatureId] }),
    index('signatures_user_idx').on(t.tenantId, t.userId, t.name),
  ],
);

/**
 * A mailing: one message (from a template or written once) to an audience. Its recipients are fixed when it is
 * sent (a saved filter is evaluated then), one row each in `mailing_recipients`.
 */
export const mailings = pgTable(
  'mailings',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    mailingId: tenantSerial('mailing_id', 'mailings'),
    name: text('name').notNull(),
    templateId: bigint('template_id', { mode: 'number' }),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    /** A designed message's design (the email designer); its Html is then the server's rendering of it. */
    designJson: jsonb('design_json'),
    /** Who receives it (MailingAudience in shared): contact ids, a saved filter, or everyone of some statuses. */
    audience: jsonb('audience').notNull().default(sql`'{}'::jsonb`),
    /** draft, scheduled, sending, sent, cancelled. */
    status: text('status').notNull().default('draft'),
    scheduledAt: ts('scheduled_at'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    createdBy: bigint('created_by', { mode: 'number' }),
    recipientCount: integer('recipient_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.mailingId] }),
    index('mailings_created_idx').on(t.tenantId, t.createdAt),
  ],
);

/**
 * One recipient of a mailing (or one transactional message): the delivery log. A recipient is claimed for sending
 * and marked sent in the same transaction as nothing else, so a restart neither repeats nor skips one.
 */
export const mailingRecipients = pgTable(
  'mailing_recipients',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    recipientId: tenantSerial('recipient_id', 'mailing_recipients'),
    /** The mailing; null for a transactional message of another feature (an invoice, a password reset). */
    mailingId: bigint('mailing_id', { mode: 'number' }),
    /** A transactional message's subject (a mailing's recipients share the mailing's). */
    subject: text('subject'),
    contactId: bigint('contact_id', { mode: 'number' }),
    email: text('email').notNull(),
    /** queued, sending, sent, deferred, failed, bounced, suppressed. */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lastError: text('last_error'),
    /** The unguessable part of the recipient's unsubscribe and preferences addresses (and its VERP return path). */
    token: text('token').notNull(),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.recipientId] }),
    uniqueIndex('mailing_recipients_email_idx').on(t.tenantId, t.mailingId, t.email),
    index('mailing_recipients_status_idx').on(t.tenantId, t.mailingId, t.status, t.recipientId),
    index('mailing_recipients_contact_idx').on(t.tenantId, t.contactId, t.createdAt),
    uniqueIndex('mailing_recipients_token_idx').on(t.tenantId, t.token),
  ],
);

/** Addresses no mailing may reach: unsubscribed, hard-bounced, or added by staff. */
export const mailSuppressions = pgTable(
  'mail_suppressions',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    /** Lower-case address. */
    email: text('email').notNull(),
    /** unsubscribed, bounced, complaint, manual. */
    reason: text('reason').notNull(),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.email] })],
);

/**
 * Delivery status notifications received for the association's messages (RFC 3464, read at the VERP return path):
 * one row per failed recipient report. A hard bounce (5.x.x) also suppresses the address; soft ones (4.x.x,
 * delayed) are counted here.
 */
export const mailBounces = pgTable(
  'mail_bounces',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    bounceId: tenantSerial('bounce_id', 'mail_bounces'),
    /** The mailing recipient the return path names; its mailing and contact, when it has them. */
    recipientId: bigint('recipient_id', { mode: 'number' }),
    mailingId: bigint('mailing_id', { mode: 'number' }),
    contactId: bigint('contact_id', { mode: 'number' }),
    /** Lower-case address the message was sent to. */
    email: text('email').notNull(),
    /** hard or soft. */
    kind: text('kind').notNull(),
    /** The enhanced status code (5.1.1), the DSN's action (failed, delayed) and diagnostic code. */
    status: text('status'),
    action: text('action'),
    diagnostic: text('diagnostic'),
    reportingMta: text('reporting_mta'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.bounceId] }),
    index('mail_bounces_email_idx').on(t.tenantId, t.email, t.createdAt),
  ],
);

/**
 * The association's own wording of a system message (password reset, invoice, event confirmation, …): the product
 * declares each one with its default text (a feature module's `mailTemplates`); a row here exists only once staff
 * changed it, and deleting it restores the default.
 */
export const systemTemplates = pgTable(
  'system_templates',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    templateKey: text('template_key').notNull(),
    subject: text('subject').notNull(),
    bodyHtml: text('body_html').notNull(),
    updatedBy: bigint('updated_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.templateKey] })],
);
