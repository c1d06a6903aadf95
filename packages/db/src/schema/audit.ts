/**
 * The audit log: one row per write (before/after), tenant-owned under row-level security.
 */
import { bigint, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenantId, tenantSerial, ts } from './columns.ts';

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
