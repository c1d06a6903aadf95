/**
 * Billing: the money of the association (issue 15). Invoices and their lines, payments and their applications to
 * invoices, credits on a contact's account, refunds, bank deposits, the tenant's ledger accounts and tax sets, and
 * the double-entry ledger every one of them posts to (decisions 0120-0124). Amounts are integer cents (bigint),
 * never floats. Tenant-owned: tenant_id first in every key, per-tenant ids, row-level security forced
 * (migrations *_billing_rls.sql). Ledger entries and lines are never updated: a mistake is reversed by another entry.
 */
import { creditsResource, invoicesResource, paymentsResource } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, resourceListIndexes, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

const cents = (name: string) => bigint(name, { mode: 'number' });

/** The tenant's chart of accounts: the system accounts billing posts to (by role) and revenue accounts staff add. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    accountId: tenantSerial('account_id', 'ledger_accounts'),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** asset, liability, revenue, expense (debit-normal: asset and expense). */
    kind: text('kind').notNull(),
    /** The system role the posting module finds the account by (receivable, bank, …); null for revenue accounts. */
    role: text('role'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.accountId] }),
    uniqueIndex('ledger_accounts_code_key').on(t.tenantId, t.code),
    uniqueIndex('ledger_accounts_role_key').on(t.tenantId, t.role).where(sql`role is not null`),
    check('ledger_accounts_kind', sql`${t.kind} in ('asset', 'liability', 'revenue', 'expense', 'equity')`),
  ],
);

/** Tax sets staff set up: a percentage rate plus a flat amount per unit (decision 0011). */
export const taxSets = pgTable(
  'tax_sets',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    taxSetId: tenantSerial('tax_set_id', 'tax_sets'),
    name: text('name').notNull(),
    rate: numeric('rate', { precision: 7, scale: 4 }).notNull().default('0'),
    floatAmountCents: cents('float_amount_cents').notNull().default(0),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.taxSetId] })],
);

/** What a tenant's billing is set up with: terms, the number prefix and the card gateway (none without keys). */
export const billingSettings = pgTable('billing_settings', {
  tenantId: tenantId()
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  termsDays: integer('terms_days').notNull().default(30),
  invoicePrefix: text('invoice_prefix').notNull().default('INV-'),
  /** none, test (the offline test gateway) or stripe. */
  gateway: text('gateway').notNull().default('none'),
  stripeSecretKey: text('stripe_secret_key'),
  stripePublishableKey: text('stripe_publishable_key'),
  stripeWebhookSecret: text('stripe_webhook_secret'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Invoices. Numbered from a per-tenant counter when issued (gap-free: the counter row moves in the issuing
 * transaction). Totals come from the shared purchase rules; applied, written off and balance move with every
 * application, under the row's lock. A posted invoice is never edited: a credit note corrects it.
 */
export const invoices = pgTable(
  'invoices',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    invoiceId: tenantSerial('invoice_id', 'invoices'),
    number: text('number'),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    /** The contact's name when invoiced, for the list's sort and search. */
    contactName: text('contact_name').notNull().default(''),
    status: text('status').notNull().default('draft'),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    subtotalCents: cents('subtotal_cents').notNull().default(0),
    discountCents: cents('discount_cents').notNull().default(0),
    taxCents: cents('tax_cents').notNull().default(0),
    totalCents: cents('total_cents').notNull().default(0),
    appliedCents: cents('applied_cents').notNull().default(0),
    writtenOffCents: cents('written_off_cents').notNull().default(0),
    balanceCents: cents('balance_cents').notNull().default(0),
    /** ISO 4217 code the invoice was issued in (the association's Currency then); kept when the setting changes. */
    currency: text('currency').notNull(),
    sourceKind: text('source_kind'),
    sourceId: bigint('source_id', { mode: 'number' }),
    idempotencyKey: text('idempotency_key'),
    memo: text('memo'),
    voidReason: text('void_reason'),
    voidedAt: ts('voided_at'),
    paidAt: ts('paid_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.invoiceId] }),
    ...resourceListIndexes('invoices', t, invoicesResource),
    uniqueIndex('invoices_number_key').on(t.tenantId, t.number).where(sql`number is not null`),
    uniqueIndex('invoices_idempotency_key')
      .on(t.tenantId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    index('invoices_contact_idx').on(t.tenantId, t.contactId),
    index('invoices_source_idx').on(t.tenantId, t.sourceKind, t.sourceId),
    index('invoices_open_due_idx').on(t.tenantId, t.dueDate).where(sql`status in ('open', 'partially_paid')`),
    // The receivables aging report: the open balances by contact and due date, read from the index alone and
    // grouped in its order (no sort, no heap).
    index('invoices_open_aging_idx')
      .on(t.tenantId, t.contactId, t.dueDate, t.balanceCents)
      .where(sql`status in ('open', 'partially_paid') and balance_cents > 0`),
    check(
      'invoices_status',
      sql`${t.status} in ('draft', 'open', 'partially_paid', 'paid', 'void', 'written_off')`,
    ),
    check(
      'invoices_balance',
      sql`${t.balanceCents} >= 0 and ${t.appliedCents} >= 0 and ${t.writtenOffCents} >= 0 and ${t.balanceCents} = ${t.totalCents} - ${t.appliedCents} - ${t.writtenOffCents} or ${t.status} = 'void'`,
    ),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    lineId: tenantSerial('line_id', 'invoice_lines'),
    invoiceId: bigint('invoice_id', { mode: 'number' }).notNull(),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    unitPriceCents: cents('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    discountCents: cents('discount_cents').notNull().default(0),
    taxSetId: bigint('tax_set_id', { mode: 'number' }),
    taxCents: cents('tax_cents').notNull().default(0),
    /** Gross minus discount plus tax, floored at 0 (the shared rules). */
    totalCents: cents('total_cents').notNull(),
    revenueAccountId: bigint('revenue_account_id', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.lineId] }),
    foreignKey({
      name: 'invoice_lines_invoice_fk',
      columns: [t.tenantId, t.invoiceId],
      foreignColumns: [invoices.tenantId, invoices.invoiceId],
    }),
    index('invoice_lines_invoice_idx').on(t.tenantId, t.invoiceId),
  ],
);

/** Bank deposits: undeposited payments gathered onto one slip; reversing one returns them to undeposited. */
export const deposits = pgTable(
  'deposits',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    depositId: tenantSerial('deposit_id', 'deposits'),
    depositDate: date('deposit_date', { mode: 'string' }).notNull(),
    bankAccountId: bigint('bank_account_id', { mode: 'number' }).notNull(),
    totalCents: cents('total_cents').notNull(),
    paymentCount: integer('payment_count').notNull(),
    reference: text('reference'),
    status: text('status').notNull().default('deposited'),
    reversedAt: ts('reversed_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.depositId] }),
    index('deposits_date_idx').on(t.tenantId, t.depositDate),
  ],
);

/**
 * Payments received: cash, check, bank transfer or card. `applied_cents` and `refunded_cents` move under the row's
 * lock with every application, unapplication and refund; what is left is a credit on the contact's account.
 */
export const payments = pgTable(
  'payments',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    id: tenantSerial('id', 'payments'),
    contactId: bigint('contact_id', { mode: 'number' }),
    contactName: text('contact_name').notNull().default(''),
    amountCents: cents('amount_cents').notNull().default(0),
    appliedCents: cents('applied_cents').notNull().default(0),
    refundedCents: cents('refunded_cents').notNull().default(0),
    paidAt: ts('paid_at').notNull().defaultNow(),
    method: text('method'),
    reference: text('reference'),
    checkNumber: text('check_number'),
    /** completed, bounced (a returned check), or failed (a refused card charge, never posted). */
    status: text('status').notNull().default('completed'),
    depositId: bigint('deposit_id', { mode: 'number' }),
    idempotencyKey: text('idempotency_key'),
    gateway: text('gateway'),
    gatewayRef: text('gateway_ref'),
    memo: text('memo'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    ...resourceListIndexes('payments', t, paymentsResource),
    uniqueIndex('payments_idempotency_key')
      .on(t.tenantId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    uniqueIndex('payments_gateway_ref_key')
      .on(t.tenantId, t.gateway, t.gatewayRef)
      .where(sql`gateway_ref is not null`),
    index('payments_contact_idx').on(t.tenantId, t.contactId),
    index('payments_undeposited_idx')
      .on(t.tenantId, t.paidAt)
      .where(sql`deposit_id is null and status = 'completed' and not is_deleted`),
    index('payments_deposit_idx').on(t.tenantId, t.depositId),
    check(
      'payments_amounts',
      sql`${t.amountCents} >= 0 and ${t.appliedCents} >= 0 and ${t.refundedCents} >= 0 and ${t.appliedCents} + ${t.refundedCents} <= ${t.amountCents}`,
    ),
  ],
);

/** Credits on a contact's account: a credit note, a prorated downgrade, a cancelled registration. */
export const credits = pgTable(
  'credits',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    creditId: tenantSerial('credit_id', 'credits'),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    contactName: text('contact_name').notNull().default(''),
    amountCents: cents('amount_cents').notNull(),
    appliedCents: cents('applied_cents').notNull().default(0),
    reason: text('reason').notNull(),
    /** The invoice a credit note corrects, if any. */
    invoiceId: bigint('invoice_id', { mode: 'number' }),
    sourceKind: text('source_kind'),
    sourceId: bigint('source_id', { mode: 'number' }),
    revenueAccountId: bigint('revenue_account_id', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.creditId] }),
    ...resourceListIndexes('credits', t, creditsResource),
    index('credits_contact_idx').on(t.tenantId, t.contactId),
    check(
      'credits_amounts',
      sql`${t.amountCents} > 0 and ${t.appliedCents} >= 0 and ${t.appliedCents} <= ${t.amountCents}`,
    ),
  ],
);

/** A payment's or a credit's application to an invoice; unapplying marks it reversed (and posts the reversal). */
export const invoiceApplications = pgTable(
  'invoice_applications',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    applicationId: tenantSerial('application_id', 'invoice_applications'),
    invoiceId: bigint('invoice_id', { mode: 'number' }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }),
    creditId: bigint('credit_id', { mode: 'number' }),
    amountCents: cents('amount_cents').notNull(),
    isReversed: boolean('is_reversed').notNull().default(false),
    reversedAt: ts('reversed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.applicationId] }),
    foreignKey({
      name: 'invoice_applications_invoice_fk',
      columns: [t.tenantId, t.invoiceId],
      foreignColumns: [invoices.tenantId, invoices.invoiceId],
    }),
    foreignKey({
      name: 'invoice_applications_payment_fk',
      columns: [t.tenantId, t.paymentId],
      foreignColumns: [payments.tenantId, payments.id],
    }),
    foreignKey({
      name: 'invoice_applications_credit_fk',
      columns: [t.tenantId, t.creditId],
      foreignColumns: [credits.tenantId, credits.creditId],
    }),
    index('invoice_applications_invoice_idx').on(t.tenantId, t.invoiceId),
    index('invoice_applications_payment_idx').on(t.tenantId, t.paymentId),
    index('invoice_applications_credit_idx').on(t.tenantId, t.creditId),
    check('invoice_applications_amount', sql`${t.amountCents} > 0`),
    check('invoice_applications_one_source', sql`(${t.paymentId} is null) <> (${t.creditId} is null)`),
  ],
);

export const refunds = pgTable(
  'refunds',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    id: tenantSerial('id', 'refunds'),
    paymentId: bigint('payment_id', { mode: 'number' }).notNull(),
    amountCents: cents('amount_cents').notNull().default(0),
    reason: text('reason'),
    gatewayRef: text('gateway_ref'),
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
  ],
);

/** A contact's card on file at the tenant's gateway: only the gateway's references and what a person reads. */
export const paymentCards = pgTable(
  'payment_cards',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    cardId: tenantSerial('card_id', 'payment_cards'),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    gateway: text('gateway').notNull(),
    customerRef: text('customer_ref'),
    methodRef: text('method_ref').notNull(),
    brand: text('brand'),
    last4: text('last4'),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    isDefault: boolean('is_default').notNull().default(true),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.cardId] }),
    index('payment_cards_contact_idx').on(t.tenantId, t.contactId),
  ],
);

/** Gateway webhook events already handled: a duplicate delivery finds its row and does nothing. */
export const gatewayEvents = pgTable(
  'gateway_events',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    gateway: text('gateway').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.gateway, t.eventId] })],
);

/** A ledger entry: one balanced posting (its lines' debits equal their credits). Never updated. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    entryId: tenantSerial('entry_id', 'ledger_entries'),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    /** invoice, invoice_void, payment, application, unapplication, credit, refund, write_off, deposit, … */
    kind: text('kind').notNull(),
    sourceKind: text('source_kind').notNull(),
    sourceId: bigint('source_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }),
    memo: text('memo'),
    /** The entry this one reverses, if it is a reversal. */
    reversesEntryId: bigint('reverses_entry_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.entryId] }),
    index('ledger_entries_source_idx').on(t.tenantId, t.sourceKind, t.sourceId),
    index('ledger_entries_date_idx').on(t.tenantId, t.entryDate),
  ],
);

export const ledgerLines = pgTable(
  'ledger_lines',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    lineId: tenantSerial('line_id', 'ledger_lines'),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    debitCents: cents('debit_cents').notNull().default(0),
    creditCents: cents('credit_cents').notNull().default(0),
    contactId: bigint('contact_id', { mode: 'number' }),
    invoiceId: bigint('invoice_id', { mode: 'number' }),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.lineId] }),
    foreignKey({
      name: 'ledger_lines_entry_fk',
      columns: [t.tenantId, t.entryId],
      foreignColumns: [ledgerEntries.tenantId, ledgerEntries.entryId],
    }),
    foreignKey({
      name: 'ledger_lines_account_fk',
      columns: [t.tenantId, t.accountId],
      foreignColumns: [ledgerAccounts.tenantId, ledgerAccounts.accountId],
    }),
    index('ledger_lines_entry_idx').on(t.tenantId, t.entryId),
    index('ledger_lines_account_idx').on(t.tenantId, t.accountId, t.entryDate),
    check(
      'ledger_lines_one_side',
      sql`${t.debitCents} >= 0 and ${t.creditCents} >= 0 and (${t.debitCents} = 0) <> (${t.creditCents} = 0)`,
    ),
  ],
);
