/**
 * Memberships (decision 0130): the setup (types with their term rules, levels, chapters, fee price rows, bill
 * frequency options), the memberships, their priced fee items, their status history and the invoices billed for
 * them (one per membership and term and kind: the renewal run's idempotency). Money is integer cents; the money
 * itself (invoices, payments) lives in billing. Tenant-owned: tenant_id first in every key, row-level security
 * forced (migration *_memberships_rls).
 */
import {
  contactsResource,
  membershipFeeItemsResource,
  membershipHistoryResource,
  membershipsResource,
  parentFieldsOf,
} from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, resourceListIndexes, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const membershipTypes = pgTable(
  'membership_types',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    membershipTypeId: tenantSerial('membership_type_id', 'membership_types'),
    name: text('name').notNull(),
    description: text('description'),
    isOrganization: boolean('is_organization').notNull().default(false),
    requiresApproval: boolean('requires_approval').notNull().default(false),
    termKind: text('term_kind').notNull().default('anniversary'),
    durationMonths: integer('duration_months').notNull().default(12),
    calendarStartMonth: integer('calendar_start_month'),
    prorationRule: text('proration_rule'),
    cutoffDays: integer('cutoff_days'),
    graceDays: integer('grace_days').notNull().default(30),
    renewalDaysBefore: integer('renewal_days_before').notNull().default(30),
    /** Days before the term ends to mail the member a renewal reminder; none when empty. */
    reminderDaysBefore: integer('reminder_days_before'),
    /** Days after the renewal invoice's due day (the term's end) to remind a member who has not paid; none when empty. */
    reminderDaysAfter: integer('reminder_days_after'),
    renewalAfterGap: text('renewal_after_gap'),
    roundToNearestOnes: boolean('round_to_nearest_ones').notNull().default(false),
    formulaBasedPricing: boolean('formula_based_pricing').notNull().default(false),
    hasLevelPricing: boolean('has_level_pricing').notNull().default(false),
    hasChapterPricing: boolean('has_chapter_pricing').notNull().default(false),
    levelSelectionCustomFieldId: bigint('level_selection_custom_field_id', { mode: 'number' }),
    isActive: boolean('is_active').notNull().default(true),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.membershipTypeId] })],
);

export const membershipLevels = pgTable(
  'membership_levels',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    membershipLevelId: tenantSerial('membership_level_id', 'membership_levels'),
    membershipTypeId: bigint('membership_type_id', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    sortOrder: integer('sort_order'),
    maxSecondaryMembers: integer('max_secondary_members'),
    /** Answers of the type's level-selection custom field that pick this level, comma separated. */
    levelFieldValues: text('level_field_values'),
    minUnits: integer('min_units'),
    maxUnits: integer('max_units'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.membershipLevelId] }),
    index('membership_levels_type_idx').on(t.tenantId, t.membershipTypeId),
  ],
);

export const chapters = pgTable(
  'chapters',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    chapterId: tenantSerial('chapter_id', 'chapters'),
    name: text('name').notNull(),
    region: text('region'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.chapterId] })],
);

export const membershipFees = pgTable(
  'membership_fees',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    feePriceId: tenantSerial('fee_price_id', 'membership_fees'),
    membershipTypeId: bigint('membership_type_id', { mode: 'number' }).notNull(),
    /** Rows with one fee id are one fee priced per level or chapter (selectFeePrices). */
    feeId: integer('fee_id').notNull(),
    name: text('name').notNull(),
    membershipLevelId: bigint('membership_level_id', { mode: 'number' }),
    chapterId: bigint('chapter_id', { mode: 'number' }),
    originalPrice: bigint('original_price', { mode: 'number' }).notNull().default(0),
    billFrequencyTypeId: integer('bill_frequency_type_id').notNull().default(12),
    perBillAmount: bigint('per_bill_amount', { mode: 'number' }),
    quantity: integer('quantity'),
    isExcludedFromDiscounts: boolean('is_excluded_from_discounts').notNull().default(false),
    isCollectedWithFirstPayment: boolean('is_collected_with_first_payment').notNull().default(false),
    /** Unit formula brackets (decision 0013) for formula-based pricing. */
    unitFormulas: jsonb('unit_formulas'),
    revenueAccount: text('revenue_account'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.feePriceId] }),
    index('membership_fees_type_idx').on(t.tenantId, t.membershipTypeId),
  ],
);

export const billFrequencyOptions = pgTable(
  'bill_frequency_options',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    optionId: tenantSerial('option_id', 'bill_frequency_options'),
    membershipTypeId: bigint('membership_type_id', { mode: 'number' }).notNull(),
    billFrequencyTypeId: integer('bill_frequency_type_id').notNull(),
    name: text('name'),
    priceChangePercentage: text('price_change_percentage'),
    perBillMultipler: integer('per_bill_multipler'),
    isDefault: boolean('is_default').notNull().default(false),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.optionId] }),
    index('bill_frequency_options_type_idx').on(t.tenantId, t.membershipTypeId),
  ],
);

export const memberships = pgTable(
  'memberships',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    membershipId: tenantSerial('membership_id', 'memberships'),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    /** The member's name as the list shows and sorts it (kept with the contact's). */
    contactName: text('contact_name').notNull(),
    /** "type - level - chapter". */
    name: text('name').notNull(),
    membershipTypeId: bigint('membership_type_id', { mode: 'number' }).notNull(),
    membershipLevelId: bigint('membership_level_id', { mode: 'number' }),
    chapterId: bigint('chapter_id', { mode: 'number' }),
    status: text('status').notNull().default('pending'),
    statusDate: date('status_date', { mode: 'string' }).notNull(),
    joinDate: date('join_date', { mode: 'string' }).notNull(),
    termStart: date('term_start', { mode: 'string' }),
    termEnd: date('term_end', { mode: 'string' }),
    billFrequencyTypeId: integer('bill_frequency_type_id').notNull().default(12),
    termTotal: bigint('term_total', { mode: 'number' }).notNull().default(0),
    /** The member's units for formula-based pricing (employees, revenue). */
    units: text('units'),
    autoPay: boolean('auto_pay').notNull().default(false),
    autoPayFailures: integer('auto_pay_failures').notNull().default(0),
    dropReason: text('drop_reason'),
    notes: text('notes'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.membershipId] }),
    ...resourceListIndexes(
      'memberships',
      t,
      membershipsResource,
      parentFieldsOf(membershipsResource, [contactsResource]),
    ),
    index('memberships_contact_idx').on(t.tenantId, t.contactId),
    // The expiring window filtered by status: status first, then the day the term ends.
    index('memberships_status_term_end_idx').on(t.tenantId, t.status, t.termEnd).where(sql`not is_deleted`),
  ],
);

export const membershipFeeItems = pgTable(
  'membership_fee_items',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    itemId: tenantSerial('item_id', 'membership_fee_items'),
    membershipId: bigint('membership_id', { mode: 'number' }).notNull(),
    feeId: integer('fee_id'),
    name: text('name').notNull(),
    billFrequencyTypeId: integer('bill_frequency_type_id').notNull(),
    originalPrice: bigint('original_price', { mode: 'number' }).notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    quantity: integer('quantity').notNull().default(1),
    billFrequency: integer('bill_frequency').notNull().default(1),
    perBillAmount: bigint('per_bill_amount', { mode: 'number' }).notNull().default(0),
    isExcludedFromDiscounts: boolean('is_excluded_from_discounts').notNull().default(false),
    isCollectedWithFirstPayment: boolean('is_collected_with_first_payment').notNull().default(false),
    revenueAccount: text('revenue_account'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.itemId] }),
    ...resourceListIndexes(
      'membership_fee_items',
      t,
      membershipFeeItemsResource,
      parentFieldsOf(membershipFeeItemsResource, [membershipsResource]),
    ),
  ],
);

export const membershipHistory = pgTable(
  'membership_history',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    historyId: tenantSerial('history_id', 'membership_history'),
    membershipId: bigint('membership_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    changedOn: date('changed_on', { mode: 'string' }).notNull(),
    event: text('event').notNull(),
    reason: text('reason'),
    changedBy: text('changed_by'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.historyId] }),
    ...resourceListIndexes(
      'membership_history',
      t,
      membershipHistoryResource,
      parentFieldsOf(membershipHistoryResource, [membershipsResource]),
    ),
    index('membership_history_contact_idx').on(t.tenantId, t.contactId),
    index('membership_history_changed_idx').on(t.tenantId, t.toStatus, t.changedOn),
  ],
);

/**
 * The invoices billed for memberships: one per membership, term and kind (join, renewal, change). The unique key
 * makes the renewal run idempotent and resumable: a second run, or a run restarted after a crash, finds the row.
 */
export const membershipInvoices = pgTable(
  'membership_invoices',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    membershipInvoiceId: tenantSerial('membership_invoice_id', 'membership_invoices'),
    membershipId: bigint('membership_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    termStart: date('term_start', { mode: 'string' }).notNull(),
    termEnd: date('term_end', { mode: 'string' }).notNull(),
    invoiceId: bigint('invoice_id', { mode: 'number' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** Open until the invoice is paid (then the term is applied) or voided. */
    state: text('state').notNull().default('open'),
    /** Autopay: charge attempts so far and the day of the next one. */
    chargeAttempts: integer('charge_attempts').notNull().default(0),
    nextChargeOn: date('next_charge_on', { mode: 'string' }),
    /** The renewal run that made it (none for a join, a change, or a run of the daily schedule). */
    runId: bigint('run_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.membershipInvoiceId] }),
    uniqueIndex('membership_invoices_term_key').on(t.tenantId, t.membershipId, t.kind, t.termStart),
    index('membership_invoices_invoice_idx').on(t.tenantId, t.invoiceId),
    index('membership_invoices_run_idx').on(t.tenantId, t.runId).where(sql`run_id is not null`),
  ],
);

/**
 * The renewal runs staff started from the renewal run screen (and the daily runs): when, by whom, how far, and
 * what each did (renewal invoices made, autopay charges asked, statuses moved by the calendar, reminders sent).
 */
export const membershipRenewalRuns = pgTable(
  'membership_renewal_runs',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    runId: tenantSerial('run_id', 'membership_renewal_runs'),
    /** running, done or failed. */
    status: text('status').notNull().default('running'),
    /** The day the run renewed for (the association's today when it started). */
    runDay: date('run_day', { mode: 'string' }).notNull(),
    startedBy: text('started_by'),
    startedAt: ts('started_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
    invoiced: integer('invoiced').notNull().default(0),
    charged: integer('charged').notNull().default(0),
    moved: integer('moved').notNull().default(0),
    reminded: integer('reminded').notNull().default(0),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.runId] })],
);

/**
 * Renewal reminders sent: one row per membership, term and reminder (the key makes each sent once, however often
 * the daily job runs or is restarted). The mail itself is in the outbox.
 */
export const membershipReminders = pgTable(
  'membership_reminders',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    membershipId: bigint('membership_id', { mode: 'number' }).notNull(),
    termEnd: date('term_end', { mode: 'string' }).notNull(),
    /**
     * before: N days before the term ends; after: N days after an unpaid renewal's due day; charge-N: before the
     * Nth autopay charge; failed-N: after the Nth failed one.
     */
    kind: text('kind').notNull(),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    email: text('email'),
    /**
     * A notice written where it arose (an autopay charge or failure) and mailed after that commits: the key of its
     * system message (decision 0154) and its values as JSON, rendered in the wording of the day it is mailed.
     */
    subject: text('subject'),
    body: text('body'),
    /** When it went to the mailer; a notice waiting to be mailed has none. */
    mailedAt: ts('mailed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.membershipId, t.termEnd, t.kind] }),
    index('membership_reminders_unmailed_idx').on(t.tenantId).where(sql`mailed_at is null`),
  ],
);

/**
 * An organisation's secondary members (SecondaryMemberList): the named people its membership covers, who get
 * member access; as many as the level's MaxSecondaryMembers allows.
 */
export const membershipMembers = pgTable(
  'membership_members',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    membershipId: bigint('membership_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    contactName: text('contact_name').notNull(),
    addedOn: date('added_on', { mode: 'string' }).notNull(),
    addedBy: text('added_by'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.membershipId, t.contactId] }),
    index('membership_members_contact_idx').on(t.tenantId, t.contactId),
  ],
);
