/**
 * Wire shapes of the billing routes (amounts in integer cents; our own camelCase payloads). The web takes its types
 * from these with z.infer; the server's routes declare the same schemas.
 */
import { z } from 'zod';
import { DATE_RANGE_OPTIONS } from '../platform/fields/date-range.rules.ts';
import { AGING_BUCKETS, type AgingBucket, INVOICE_STATUSES } from './invoice.rules.ts';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const cents = z.number().int().min(0).max(99_999_999_999);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date as YYYY-MM-DD.');

export const invoiceSourceSchema = z.object({ kind: z.string().min(1).max(40), id });

export const newInvoiceLineSchema = z.object({
  description: z.string().max(500),
  unitPriceCents: cents,
  quantity: z.number().int().min(1).max(1_000_000),
  discountCents: cents.optional(),
  revenueAccountId: id.nullish(),
  taxSetId: id.nullish(),
});

export const newInvoiceSchema = z.object({
  contactId: id,
  lines: z.array(newInvoiceLineSchema).max(500),
  issueDate: isoDate.optional(),
  dueDate: isoDate.optional(),
  idempotencyKey: z.string().min(1).max(200).optional(),
  memo: z.string().max(2000).optional(),
});

export const invoiceSummarySchema = z.object({
  invoiceId: z.number(),
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  totalCents: z.number(),
  paidCents: z.number(),
  balanceCents: z.number(),
  contactId: z.number(),
  source: invoiceSourceSchema.nullable(),
  /** The currency the invoice was issued in (ISO 4217), kept when the association's Currency changes later. */
  currency: z.string(),
});
export type InvoiceSummaryWire = z.infer<typeof invoiceSummarySchema>;

export const invoiceDetailSchema = invoiceSummarySchema.extend({
  contactName: z.string(),
  issueDate: z.string(),
  dueDate: z.string(),
  subtotalCents: z.number(),
  discountCents: z.number(),
  taxCents: z.number(),
  writtenOffCents: z.number(),
  memo: z.string().nullable(),
  voidReason: z.string().nullable(),
  lines: z.array(
    z.object({
      lineId: z.number(),
      description: z.string(),
      unitPriceCents: z.number(),
      quantity: z.number(),
      discountCents: z.number(),
      taxCents: z.number(),
      totalCents: z.number(),
      revenueAccount: z.string(),
    }),
  ),
  applications: z.array(
    z.object({
      applicationId: z.number(),
      paymentId: z.number().nullable(),
      creditId: z.number().nullable(),
      amountCents: z.number(),
      isReversed: z.boolean(),
      createdAt: z.string(),
      label: z.string(),
    }),
  ),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

export const PAYMENT_METHOD_VALUES = ['cash', 'check', 'bank_transfer', 'card'] as const;
export const PAYMENT_METHOD_LABELS: Record<(typeof PAYMENT_METHOD_VALUES)[number], string> = {
  cash: 'Cash',
  check: 'Check',
  bank_transfer: 'Bank transfer',
  card: 'Card',
};

export const applicationInputSchema = z.object({ invoiceId: id, amountCents: cents });

export const newPaymentSchema = z.object({
  contactId: id,
  amountCents: cents,
  method: z.enum(PAYMENT_METHOD_VALUES),
  checkNumber: z.string().max(40).nullish(),
  reference: z.string().max(200).nullish(),
  paidAt: z.string().max(40).nullish(),
  memo: z.string().max(2000).nullish(),
  idempotencyKey: z.string().min(1).max(200).nullish(),
  applications: z.array(applicationInputSchema).max(200).optional(),
});

export const paymentRecordSchema = z.object({
  paymentId: z.number(),
  contactId: z.number().nullable(),
  amountCents: z.number(),
  appliedCents: z.number(),
  refundedCents: z.number(),
  unappliedCents: z.number(),
  method: z.string().nullable(),
  checkNumber: z.string().nullable(),
  reference: z.string().nullable(),
  status: z.string(),
  depositId: z.number().nullable(),
  paidAt: z.string(),
  applications: z.array(
    z.object({
      applicationId: z.number(),
      invoiceId: z.number(),
      invoiceNumber: z.string(),
      amountCents: z.number(),
      isReversed: z.boolean(),
    }),
  ),
  refunds: z.array(
    z.object({
      refundId: z.number(),
      amountCents: z.number(),
      reason: z.string().nullable(),
      refundedAt: z.string(),
    }),
  ),
});
export type PaymentRecordWire = z.infer<typeof paymentRecordSchema>;

export const applyPaymentSchema = z.object({ applications: z.array(applicationInputSchema).min(1).max(200) });
/** A refund as the refund dialog sends it: the amount in major units as typed (the rule of refund/validate). */
export const refundInputSchema = z.object({
  amount: z.union([z.string().max(40), z.number()]),
  reason: z.string().max(500).nullish(),
  idempotencyKey: z.string().min(1).max(200).nullish(),
});
export const reasonSchema = z.object({ reason: z.string().max(500) });
export const newCreditSchema = z.object({ contactId: id, amountCents: cents, reason: z.string().max(500) });
export const creditNoteSchema = z.object({ amountCents: cents, reason: z.string().max(500) });
export const applyCreditSchema = z.object({ invoiceId: id, amountCents: cents });
export const newDepositSchema = z.object({
  paymentIds: z.array(id).max(5000),
  depositDate: isoDate.nullish(),
  reference: z.string().max(200).nullish(),
});
export const depositResultSchema = z.object({
  depositId: z.number(),
  totalCents: z.number(),
  paymentCount: z.number(),
});

/** An undeposited payment as the deposit screen lists it (spec: PaymentId, IsSelected). */
export const undepositedPaymentSchema = z.object({
  PaymentId: z.number(),
  IsSelected: z.boolean(),
  contactId: z.number().nullable(),
  contactName: z.string(),
  method: z.string(),
  checkNumber: z.string().nullable(),
  amountCents: z.number(),
  paidAt: z.string(),
});
export type UndepositedPayment = z.infer<typeof undepositedPaymentSchema>;

export const contactAccountSchema = z.object({
  contactId: z.number(),
  /** What the contact owes on open invoices. */
  openBalanceCents: z.number(),
  /** Unapplied payments and credits, available to apply. */
  availableCreditCents: z.number(),
  /** Owed minus available credit: negative when the association owes the contact. */
  accountBalanceCents: z.number(),
  overdueCount: z.number(),
  invoices: z.array(
    z.object({
      invoiceId: z.number(),
      number: z.string(),
      status: z.enum(INVOICE_STATUSES),
      issueDate: z.string(),
      dueDate: z.string(),
      totalCents: z.number(),
      balanceCents: z.number(),
      currency: z.string(),
    }),
  ),
  payments: z.array(
    z.object({
      paymentId: z.number(),
      paidAt: z.string(),
      method: z.string().nullable(),
      amountCents: z.number(),
      unappliedCents: z.number(),
      status: z.string(),
    }),
  ),
  credits: z.array(
    z.object({
      creditId: z.number(),
      createdAt: z.string(),
      reason: z.string(),
      amountCents: z.number(),
      unappliedCents: z.number(),
    }),
  ),
});
export type ContactAccount = z.infer<typeof contactAccountSchema>;

export const trialBalanceSchema = z.object({
  debits: z.number(),
  credits: z.number(),
  accounts: z.array(
    z.object({
      accountId: z.number(),
      code: z.string(),
      name: z.string(),
      kind: z.string(),
      role: z.string().nullable(),
      debits: z.number(),
      credits: z.number(),
    }),
  ),
});

export const chargeCardSchema = z.object({
  /** The payment method reference the gateway gave the browser; never a card number. */
  methodRef: z.string().min(1).max(200).optional(),
  idempotencyKey: z.string().min(8).max(200),
});
export const chargeResultSchema = z.object({
  ok: z.boolean(),
  paymentId: z.number().optional(),
  message: z.string().optional(),
  /**
   * The card's bank asks the cardholder to confirm (3-D Secure): the browser lets them do so with the gateway's
   * client secret (Stripe.js `handleNextAction`), then asks the server to finish the payment from its state.
   */
  action: z.object({ paymentRef: z.string(), clientSecret: z.string() }).optional(),
});
export type ChargeAnswer = z.infer<typeof chargeResultSchema>;

/** Sending an invoice by mail: to the contact's address unless another is given, with an optional note. */
export const sendInvoiceSchema = z.object({
  to: z.string().trim().max(320).nullish(),
  message: z.string().max(5000).nullish(),
});
export const sendInvoiceAnswerSchema = z.object({ to: z.string(), subject: z.string() });

/**
 * Card payment as the member area sees it (decision 0123): which gateway takes the card (none: card payment is
 * hidden) and, for Stripe, the publishable key the browser's card form uses. Never a secret key.
 */
export const cardGatewayInfoSchema = z.object({
  name: z.enum(['test', 'stripe']),
  publishableKey: z.string().nullable(),
});
export type CardGatewayInfo = z.infer<typeof cardGatewayInfoSchema>;

/** The member's own account (GET /api/billing/member/account): a contact's account, its currency and card gateway. */
export const memberAccountSchema = contactAccountSchema.extend({
  currency: z.string(),
  cardGateway: cardGatewayInfoSchema.nullable(),
});
export type MemberAccount = z.infer<typeof memberAccountSchema>;

/**
 * The offline test gateway's cards (decision 0123): the number a member types in the test card form and the
 * payment method reference the browser sends for it, as a real gateway's test cards do. Any other number is refused
 * in the browser; the server never sees a card number.
 */
export const TEST_GATEWAY_CARDS: Record<string, string> = {
  '4242424242424242': 'pm_test_visa',
  '4000000000000002': 'pm_test_declined',
};

/** Paying one of the member's own invoices by card: the gateway's payment method reference, never a number. */
export const memberPaySchema = z.object({
  methodRef: z.string().min(1).max(200),
  idempotencyKey: z.string().min(8).max(200),
});

/** Finishing a card payment after the cardholder confirmed it with their bank: the gateway's charge and the same key. */
export const memberPayFinishSchema = z.object({
  paymentRef: z.string().min(1).max(200),
  idempotencyKey: z.string().min(8).max(200),
});

/** The tenant's card gateway as staff set it up: keys are written, never read back (only whether each is set). */
export const gatewaySettingsSchema = z.object({
  gateway: z.enum(['none', 'test', 'stripe']),
  stripeSecretKey: z.string().max(300).nullish(),
  stripePublishableKey: z.string().max(300).nullish(),
  stripeWebhookSecret: z.string().max(300).nullish(),
});
export const gatewaySettingsAnswerSchema = z.object({
  gateway: z.enum(['none', 'test', 'stripe']),
  stripeSecretKeySet: z.boolean(),
  stripePublishableKey: z.string().nullable(),
  stripeWebhookSecretSet: z.boolean(),
});
export type GatewaySettingsAnswer = z.infer<typeof gatewaySettingsAnswerSchema>;

const agingAmounts = z.object(
  Object.fromEntries(AGING_BUCKETS.map((b) => [b, z.number()])) as Record<AgingBucket, z.ZodNumber>,
);

/** Accounts receivable aging on a day: the totals per bucket and the contacts who owe most, with theirs. */
export const agingReportSchema = z.object({
  asOf: z.string(),
  currency: z.string(),
  totals: agingAmounts.extend({ totalCents: z.number(), invoiceCount: z.number(), contactCount: z.number() }),
  contacts: z.array(
    agingAmounts.extend({
      contactId: z.number(),
      contactName: z.string(),
      totalCents: z.number(),
      invoiceCount: z.number(),
    }),
  ),
});
export type AgingReport = z.infer<typeof agingReportSchema>;

/** Revenue by account and month (credits less debits on revenue accounts, by the entries' dates). */
export const revenueReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  months: z.array(z.string()),
  accounts: z.array(
    z.object({
      accountId: z.number(),
      code: z.string(),
      name: z.string(),
      byMonth: z.array(z.number()),
      totalCents: z.number(),
    }),
  ),
  totalsByMonth: z.array(z.number()),
  totalCents: z.number(),
});
export type RevenueReport = z.infer<typeof revenueReportSchema>;
export const revenueQuerySchema = z.object({
  /** A date-range option (0-37, as the lists' date filters): its days replace `from` and `to` (0 is Custom). */
  range: z.coerce
    .number()
    .int()
    .min(0)
    .max(DATE_RANGE_OPTIONS.length - 1)
    .optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});

/** The billing figures of the back office's dashboard. */
export const billingDashboardSchema = z.object({
  currency: z.string(),
  openReceivablesCents: z.number(),
  openInvoiceCount: z.number(),
  overdueCount: z.number(),
  overdueCents: z.number(),
  revenueThisMonthCents: z.number(),
  revenueLastMonthCents: z.number(),
});
export type BillingDashboard = z.infer<typeof billingDashboardSchema>;
