/**
 * The mail outbox: every message sent (or kept when no SMTP server is set), tenant-owned under row-level security.
 */
import { jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tenantId, tenantSerial, ts } from './columns.ts';

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
