/**
 * Staff invitations. `staff_invitations` is tenant-owned (row-level security forced, ids numbered per association):
 * who was invited, with which role, by whom, and whether they accepted or the invitation was revoked; the users list
 * shows the pending ones with Resend. `invitation_tokens` is an identity table (like password_reset_tokens): the
 * mailed link's token, stored only as its SHA-256, read before an association is known; one live token per
 * invitation (Resend spends the old one).
 */
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const staffInvitations = pgTable(
  'staff_invitations',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    invitationId: tenantSerial('invitation_id', 'staff_invitations'),
    email: text('email').notNull(),
    displayName: text('display_name').notNull().default(''),
    role: text('role').$type<'admin' | 'staff'>().notNull(),
    /** pending, accepted or revoked (an expired one is pending with an expired link: Resend renews it). */
    status: text('status').$type<'pending' | 'accepted' | 'revoked'>().notNull().default('pending'),
    invitedBy: bigint('invited_by', { mode: 'number' }),
    /** When the latest link was sent and until when it works. */
    sentAt: ts('sent_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    sendCount: bigint('send_count', { mode: 'number' }).notNull().default(1),
    acceptedUserId: bigint('accepted_user_id', { mode: 'number' }),
    acceptedAt: ts('accepted_at'),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.invitationId] }),
    // One pending invitation per address and association.
    uniqueIndex('staff_invitations_pending_email_key')
      .on(t.tenantId, sql`lower(${t.email})`)
      .where(sql`status = 'pending'`),
  ],
);

export const invitationTokens = pgTable(
  'invitation_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    invitationId: bigint('invitation_id', { mode: 'number' }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('invitation_tokens_invitation_idx').on(t.tenantId, t.invitationId)],
);
