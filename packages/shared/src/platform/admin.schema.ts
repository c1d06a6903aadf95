import { z } from 'zod';
import { LOGIN_TYPES, ROLES, tenantSettingsSchema } from './auth.schema.ts';

/** Answers of the platform's staff screens (users, terms, outbox, audit, settings): one shape for server and web. */

export const userRowSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  displayName: z.string(),
  loginType: z.enum(LOGIN_TYPES),
  role: z.enum(ROLES),
  isActive: z.boolean(),
  lastSignInAt: z.string().nullable(),
});
export type UserRow = z.infer<typeof userRowSchema>;

export const userRecordSchema = userRowSchema.extend({ featureFlags: z.record(z.string(), z.boolean()) });
export type UserRecord = z.infer<typeof userRecordSchema>;

export const termsRowSchema = z.object({
  TermsOfUseId: z.number(),
  LoginType: z.enum(LOGIN_TYPES),
  Title: z.string(),
  Description: z.string(),
  PublishedAt: z.string(),
  PublishedBy: z.string().nullable(),
  AcceptedCount: z.number(),
});
export type TermsRow = z.infer<typeof termsRowSchema>;

export const publishTermsBody = z.object({
  LoginType: z.enum(LOGIN_TYPES),
  Title: z.string().trim().min(1, 'Give the terms a title.').max(200),
  Description: z.string().trim().min(1, 'Write the terms.').max(100_000),
});

export const outboxSummarySchema = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxSummary = z.infer<typeof outboxSummarySchema>;
export const outboxMessageSchema = outboxSummarySchema.extend({
  text: z.string(),
  html: z.string().nullable(),
  /** What was attached: names, types and sizes (the bytes went with the delivery only). */
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number() })),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actorUsername: z.string().nullable(),
  onBehalfOfUsername: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
