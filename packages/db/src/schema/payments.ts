/**
 * Payments and refunds: the minimal tables the payments feature grows from. Tenant-owned, keyed by tenant_id
 * first, with row-level security enabled and forced (migrations/*_payments_rls.sql). Amounts are numeric(12,2),
 * read as text and converted to integer cents by the rules (docs/decisions/0010-money-and-rounding.md).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { createdAt, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const payments = pgTable(
  'payments',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    id: tenantSerial('id', 'payments'),
    /** The contact who paid; contacts do not exist yet, so no foreign key. */
    contactId: bigint('contact_id', { mode: 'number' }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    paidAt: ts('paid_at').notNull().defaultNow(),
    method: text('method'),
    reference: text('reference'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const refunds = pgTable(
  'refunds',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    id: tenantSerial('id', 'refunds'),
    paymentId: bigint('payment_id', { mode: 'number' }).notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    reason: text('reason'),
    refundedAt: ts('refunded_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      name: 'refunds_payment_fk',
      columns: [t.tenantId, t.paymentId],
      foreignColumns: [payments.tenantId, payments.id],
    }),
    index('refunds_payment_idx').on(t.tenantId, t.paymentId),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
  ],
);
