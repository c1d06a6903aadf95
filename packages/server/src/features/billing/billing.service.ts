/**
 * The billing engine (issue 15, decisions 0120-0124): invoices, payments and their applications, credits,
 * refunds, write-offs, voids, bounced checks and bank deposits. Every operation runs in the caller's transaction,
 * changes the money tables under row locks (a conditional update is the lock and the check at once, so parallel
 * callers can never over-apply a payment or over-pay an invoice), posts its balanced ledger entry through
 * `ledger.ts`, and publishes its domain events (decision 0110) in the same transaction.
 */
import { q, runFragment, type Tx } from '@guildhall/db';
import {
  type CardGatewayInfo,
  type ChargeAnswer,
  calculatePurchase,
  calendarDay,
  centsToDecimalString,
  credit,
  currencyCode,
  DEFAULT_TIMEZONE,
  debit,
  formatInvoiceNumber,
  formatMoney,
  type InvoiceEvent,
  type InvoiceStatus,
  invoicePosting,
  type PurchaseItemInput,
  shiftDate,
  validateRefund,
} from '@guildhall/shared';
import { nextCounterValues } from '../../platform/counters.ts';
import { badRequest, HttpError, notFound } from '../../platform/errors.ts';
import type { MailMessage } from '../../platform/mailer.ts';
import type { Services } from '../../platform/services.ts';
import { filesApi } from '../files/files.module.ts';
import { depositSlipData, invoicePdfData } from './billing.repo.ts';
import { renderDepositSlip } from './deposit-slip.ts';
import { type CardGateway, testGateway } from './gateway.ts';
import { formatDay, renderInvoicePdf } from './invoice-pdf.ts';
import { type Accounts, accountsOf, entryOf, post, postMany, reverseEntry } from './ledger.ts';
import { GatewayUnavailableError, stripeGateway, verifyStripeEvent } from './stripe-gateway.ts';

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v == null ? null : Number(v));

export interface InvoiceSource {
  kind: string;
  id: number;
}
export interface NewInvoiceLine {
  description: string;
  unitPriceCents: number;
  quantity: number;
  discountCents?: number;
  revenueAccountId?: number | null;
  taxSetId?: number | null;
}
export interface NewInvoice {
  contactId: number;
  lines: NewInvoiceLine[];
  issueDate?: string;
  dueDate?: string;
  source?: InvoiceSource;
  idempotencyKey?: string;
  memo?: string;
}
export interface InvoiceSummary {
  invoiceId: number;
  number: string;
  status: InvoiceStatus;
  totalCents: number;
  paidCents: number;
  balanceCents: number;
  contactId: number;
  source: InvoiceSource | null;
  /** The currency it was issued in. */
  currency: string;
}

export const PAYMENT_METHODS = ['cash', 'check', 'bank_transfer', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** Methods whose money waits in undeposited funds until a bank deposit; the others land in the bank at once. */
export const DEPOSITED_BY_HAND: readonly string[] = ['cash', 'check'];

export interface NewPayment {
  contactId: number;
  amountCents: number;
  method: PaymentMethod;
  checkNumber?: string | null;
  reference?: string | null;
  paidAt?: string | null;
  memo?: string | null;
  idempotencyKey?: string | null;
  gateway?: string | null;
  gatewayRef?: string | null;
  applications?: { invoiceId: number; amountCents: number }[];
}

const money = (cents: number, currency: string) => formatMoney(cents, { currency });

// ---------------------------------------------------------------------------------------------------------------
// Tenant context

export interface BillingContext {
  timeZone: string;
  termsDays: number;
  invoicePrefix: string;
  gateway: string;
  /** ISO 4217 code of the association's money: the tenant's Currency setting (absent: USD). */
  currency: string;
  /** The Stripe keys (server side only: never in an answer). */
  stripe: { secretKey: string | null; publishableKey: string | null; webhookSecret: string | null };
}

export async function contextOf(tx: Tx, tenantId: string): Promise<BillingContext> {
  const [row] = await runFragment<Row>(
    tx,
    q`select t.settings->>'defaultTimezone' as tz, t.settings->>'currency' as currency, s.terms_days, s.invoice_prefix,
             s.gateway, s.stripe_secret_key, s.stripe_publishable_key, s.stripe_webhook_secret
      from tenants t left join billing_settings s on s.tenant_id = t.id
      where t.id = ${tenantId}`,
  );
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return {
    timeZone: (row?.tz as string | null) || DEFAULT_TIMEZONE,
    termsDays: row?.terms_days == null ? 30 : num(row.terms_days),
    invoicePrefix: (row?.invoice_prefix as string | null) ?? 'INV-',
    gateway: (row?.gateway as string | null) ?? 'none',
    currency: currencyCode(row?.currency),
    stripe: {
      secretKey: str(row?.stripe_secret_key),
      publishableKey: str(row?.stripe_publishable_key),
      webhookSecret: str(row?.stripe_webhook_secret),
    },
  };
}

export function todayIn(ctx: BillingContext): string {
  return calendarDay(new Date(), ctx.timeZone);
}

/** Serialises work on one idempotency key (two requests with it at once: the second waits and finds the first). */
async function lockKey(tx: Tx, tenantId: string, scopeName: string, key: string): Promise<void> {
  await runFragment(
    tx,
    q`select pg_advisory_xact_lock(hashtextextended(${`${tenantId}:${scopeName}:${key}`}, 0))`,
  );
}

async function publishInvoiceEvent(
  tx: Tx,
  services: Services,
  tenantId: string,
  name: 'invoice.paid' | 'invoice.voided' | 'invoice.reopened',
  invoice: Row,
): Promise<void> {
  const payload: InvoiceEvent = {
    invoiceId: num(invoice.invoice_id),
    contactId: num(invoice.contact_id),
    sourceKind: (invoice.source_kind as string | null) ?? null,
    sourceId: numOrNull(invoice.source_id),
  };
  await services.events.publish(tx, tenantId, name, payload);
}

// ---------------------------------------------------------------------------------------------------------------
// Invoices

function summaryOf(row: Row): InvoiceSummary {
  return {
    invoiceId: num(row.invoice_id),
    number: String(row.number ?? ''),
    status: row.status as InvoiceStatus,
    totalCents: num(row.total_cents),
    paidCents: num(row.applied_cents),
    balanceCents: num(row.balance_cents),
    contactId: num(row.contact_id),
    source: row.source_kind == null ? null : { kind: String(row.source_kind), id: num(row.source_id) },
    currency: currencyCode(row.currency),
  };
}

async function invoiceRow(tx: Tx, tenantId: string, invoiceId: number, lock = false): Promise<Row> {
  const [row] = await runFragment<Row>(
    tx,
    lock
      ? q`select * from invoices where tenant_id = ${tenantId} and invoice_id = ${invoiceId} for update`
      : q`select * from invoices where tenant_id = ${tenantId} and invoice_id = ${invoiceId}`,
  );
  if (!row) throw new HttpError(404, 'We could not find that invoice.');
  return row;
}

export async function invoiceSummary(tx: Tx, tenantId: string, invoiceId: number): Promise<InvoiceSummary> {
  return summaryOf(await invoiceRow(tx, tenantId, invoiceId));
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The field checks of a new invoice (the same for one and for a batch): throws a 400 with the first message. */
function checkInvoiceInput(input: NewInvoice): void {
  const errors: Record<string, string[]> = {};
  if (input.lines.length === 0) errors.lines = ['Add at least one line to the invoice.'];
  input.lines.forEach((line, i) => {
    if (!line.description.trim()) errors[`lines.${i}.description`] = ['Enter a description.'];
    if (!Number.isSafeInteger(line.unitPriceCents) || line.unitPriceCents < 0)
      errors[`lines.${i}.unitPriceCents`] = ['The price must be zero or more, in whole cents.'];
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1)
      errors[`lines.${i}.quantity`] = ['The quantity must be a whole number of at least 1.'];
    if (line.discountCents != null && (!Number.isSafeInteger(line.discountCents) || line.discountCents < 0))
      errors[`lines.${i}.discountCents`] = ['The discount must be zero or more, in whole cents.'];
  });
  if (input.issueDate && !ISO_DATE.test(input.issueDate))
    errors.issueDate = ['Enter the date as YYYY-MM-DD.'];
  if (input.dueDate && !ISO_DATE.test(input.dueDate)) errors.dueDate = ['Enter the date as YYYY-MM-DD.'];
  if (Object.keys(errors).length > 0)
    throw badRequest(Object.values(errors)[0]?.[0] ?? "Order isn't saved", errors);
}

/** One invoice: the set-based `createInvoices` with a batch of one (the same checks, prices, number and posting). */
export async function createInvoice(
  tx: Tx,
  services: Services,
  tenantId: string,
  input: NewInvoice,
): Promise<InvoiceSummary> {
  const [summary] = await createInvoices(tx, services, tenantId, [input]);
  if (!summary) throw new Error('createInvoices answered no invoice');
  return summary;
}

/** The largest batch `createInvoices` takes (its statements carry the batch as one JSON list). */
export const INVOICE_BATCH_MAX = 2000;

/**
 * Many invoices at once (a renewal run, say), in a fixed number of statements whatever the batch's size: the same
 * checks, prices (the shared purchase rules), numbers (drawn as one block from the tenant's counter), lines and
 * balanced ledger entries for every invoice (`createInvoice` is this with a batch of one). An idempotency key
 * already used answers its existing invoice (the keys are locked first, in order, so parallel batches wait for
 * each other). A check that fails throws for the whole batch, so nothing of it is written. Answers one summary
 * per input, in order.
 */
export async function createInvoices(
  tx: Tx,
  services: Services,
  tenantId: string,
  inputs: readonly NewInvoice[],
): Promise<InvoiceSummary[]> {
  if (inputs.length === 0) return [];
  if (inputs.length > INVOICE_BATCH_MAX) throw new Error(`at most ${INVOICE_BATCH_MAX} invoices per batch`);
  const keys = inputs.map((i) => i.idempotencyKey).filter((k): k is string => !!k);
  if (new Set(keys).size !== keys.length)
    throw new Error('a batch of invoices names one idempotency key twice');
  const existing = new Map<string, InvoiceSummary>();
  if (keys.length > 0) {
    const scoped = [...keys].sort().map((k) => `${tenantId}:invoice:${k}`);
    await runFragment(
      tx,
      q`select count(pg_advisory_xact_lock(hashtextextended(k, 0)))
        from (select k from unnest(${scoped}::text[]) as k order by k) s`,
    );
    const rows = await runFragment<Row>(
      tx,
      q`select * from invoices where tenant_id = ${tenantId} and idempotency_key = any(${keys}::text[])`,
    );
    for (const r of rows) existing.set(String(r.idempotency_key), summaryOf(r));
  }
  const fresh = inputs.filter((i) => !(i.idempotencyKey && existing.has(i.idempotencyKey)));
  for (const input of fresh) checkInvoiceInput(input);

  const made = new Map<NewInvoice, InvoiceSummary>();
  if (fresh.length > 0) {
    // Ids may come as strings from a bigint column: compared as numbers.
    const contactIds = [...new Set(fresh.map((i) => Number(i.contactId)))];
    const contacts = new Map<number, string>();
    for (const r of await runFragment<Row>(
      tx,
      q`select contact_id, display_name from contacts
        where tenant_id = ${tenantId} and contact_id = any(${contactIds}::bigint[]) and not is_deleted`,
    ))
      contacts.set(num(r.contact_id), String(r.display_name ?? ''));
    if (contactIds.some((id) => !contacts.has(id)))
      throw badRequest('We could not find that contact.', { contactId: ['We could not find that contact.'] });

    const ctx = await contextOf(tx, tenantId);
    const accounts = await accountsOf(tx, tenantId);
    const allLines = fresh.flatMap((i) => i.lines);
    const taxSetIds = [...new Set(allLines.map((l) => l.taxSetId).filter((x): x is number => x != null))];
    const taxSets = new Map<number, { rate: string; floatAmountCents: number }>();
    if (taxSetIds.length > 0) {
      const rows = await runFragment<Row>(
        tx,
        q`select tax_set_id, rate::text as rate, float_amount_cents from tax_sets
          where tenant_id = ${tenantId} and tax_set_id = any(${taxSetIds}::bigint[]) and not is_deleted`,
      );
      for (const r of rows)
        taxSets.set(num(r.tax_set_id), { rate: String(r.rate), floatAmountCents: num(r.float_amount_cents) });
      for (const id of taxSetIds) if (!taxSets.has(id)) throw badRequest('We could not find that tax set.');
    }
    const revenueIds = [
      ...new Set(allLines.map((l) => l.revenueAccountId).filter((x): x is number => x != null)),
    ];
    if (revenueIds.length > 0) {
      const rows = await runFragment<Row>(
        tx,
        q`select account_id from ledger_accounts
          where tenant_id = ${tenantId} and account_id = any(${revenueIds}::bigint[]) and kind = 'revenue' and is_active`,
      );
      if (rows.length !== revenueIds.length) throw badRequest('We could not find that revenue account.');
    }

    const today = todayIn(ctx);
    const priced = fresh.map((input) => {
      const issueDate = input.issueDate ?? today;
      const dueDate = input.dueDate ?? shiftDate(issueDate, ctx.termsDays);
      if (dueDate < issueDate)
        throw badRequest('The due date cannot be before the invoice date.', {
          dueDate: ['The due date cannot be before the invoice date.'],
        });
      const items: PurchaseItemInput[] = input.lines.map((l) => {
        const set = l.taxSetId == null ? null : taxSets.get(l.taxSetId);
        return {
          Price: l.unitPriceCents,
          Quantity: l.quantity,
          ItemDiscountAmount: l.discountCents ?? 0,
          TaxSetId: l.taxSetId ?? null,
          ItemTaxSetRate: set?.rate ?? null,
          ItemTaxSetFloatAmount: set?.floatAmountCents ?? null,
        };
      });
      const totals = calculatePurchase(
        { ContactId: input.contactId, PurchaseItems: items },
        { today: issueDate, timeZone: ctx.timeZone },
      );
      const postingLines = input.lines.map((l, i) => {
        const result = totals.Lines[i];
        return {
          revenueAccountId: l.revenueAccountId ?? accounts.revenue,
          netCents: (result?.Gross ?? 0) - (result?.TotalDiscount ?? 0),
          taxCents: result?.TaxAmount ?? 0,
          totalCents: result?.Total ?? 0,
        };
      });
      return { input, issueDate, dueDate, totals, postingLines };
    });

    const numbers = await nextCounterValues(
      tx,
      tenantId,
      'invoice',
      fresh.length,
      q`select coalesce(max(nullif(substring(number from '[0-9]+$'), '')::bigint), 0) from invoices where tenant_id = ${tenantId}`,
    );
    const paidAt = new Date().toISOString();
    const heads = priced.map((p, i) => {
      const status: InvoiceStatus = p.totals.Total === 0 ? 'paid' : 'open';
      return {
        i,
        number: formatInvoiceNumber(ctx.invoicePrefix, numbers[i] ?? 0),
        contact_id: Number(p.input.contactId),
        contact_name: contacts.get(Number(p.input.contactId)) ?? '',
        status,
        issue_date: p.issueDate,
        due_date: p.dueDate,
        subtotal_cents: p.totals.Subtotal,
        discount_cents: p.totals.DiscountTotal,
        tax_cents: p.totals.TaxAmount,
        total_cents: p.totals.Total,
        source_kind: p.input.source?.kind ?? null,
        source_id: p.input.source ? Number(p.input.source.id) : null,
        idempotency_key: p.input.idempotencyKey ?? null,
        memo: p.input.memo ?? null,
        paid_at: status === 'paid' ? paidAt : null,
      };
    });
    const rows = await runFragment<Row>(
      tx,
      q`insert into invoices (tenant_id, number, contact_id, contact_name, status, issue_date, due_date, subtotal_cents,
          discount_cents, tax_cents, total_cents, applied_cents, written_off_cents, balance_cents, currency, source_kind,
          source_id, idempotency_key, memo, paid_at)
        select ${tenantId}::uuid, number, contact_id, contact_name, status, issue_date, due_date, subtotal_cents,
          discount_cents, tax_cents, total_cents, 0, 0, total_cents, ${ctx.currency}, source_kind, source_id,
          idempotency_key, memo, paid_at
        from jsonb_to_recordset(${JSON.stringify(heads)}::jsonb) as x(i int, number text, contact_id bigint,
          contact_name text, status text, issue_date date, due_date date, subtotal_cents bigint, discount_cents bigint,
          tax_cents bigint, total_cents bigint, source_kind text, source_id bigint, idempotency_key text, memo text,
          paid_at timestamptz)
        order by i
        returning *`,
    );
    const byNumber = new Map(rows.map((r) => [String(r.number), r]));
    const invoices = heads.map((h) => {
      const row = byNumber.get(h.number);
      if (!row) throw new Error(`invoice ${h.number} was not written`);
      return row;
    });
    const lines: Record<string, unknown>[] = [];
    priced.forEach((p, k) => {
      const invoiceId = num(invoices[k]?.invoice_id);
      p.input.lines.forEach((l, i) => {
        const result = p.totals.Lines[i];
        lines.push({
          invoice_id: invoiceId,
          position: i + 1,
          description: l.description.trim(),
          unit_price_cents: l.unitPriceCents,
          quantity: l.quantity,
          discount_cents: result?.TotalDiscount ?? 0,
          tax_set_id: l.taxSetId ?? null,
          tax_cents: result?.TaxAmount ?? 0,
          total_cents: result?.Total ?? 0,
          revenue_account_id: p.postingLines[i]?.revenueAccountId ?? accounts.revenue,
        });
      });
    });
    await runFragment(
      tx,
      q`insert into invoice_lines (tenant_id, invoice_id, position, description, unit_price_cents, quantity,
          discount_cents, tax_set_id, tax_cents, total_cents, revenue_account_id)
        select ${tenantId}::uuid, invoice_id, position, description, unit_price_cents, quantity, discount_cents,
          tax_set_id, tax_cents, total_cents, revenue_account_id
        from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as x(invoice_id bigint, position int,
          description text, unit_price_cents bigint, quantity int, discount_cents bigint, tax_set_id bigint,
          tax_cents bigint, total_cents bigint, revenue_account_id bigint)`,
    );
    await postMany(
      tx,
      tenantId,
      priced.map((p, k) => {
        const invoice = invoices[k] as Row;
        const invoiceId = num(invoice.invoice_id);
        return {
          head: {
            kind: 'invoice',
            sourceKind: 'invoice',
            sourceId: invoiceId,
            contactId: Number(p.input.contactId),
            entryDate: p.issueDate,
            memo: `Invoice ${String(invoice.number)}`,
          },
          lines: invoicePosting(
            { receivable: accounts.receivable, taxPayable: accounts.tax_payable },
            p.postingLines,
            {
              contactId: Number(p.input.contactId),
              invoiceId,
            },
          ),
        };
      }),
    );
    for (const [k, p] of priced.entries()) {
      const invoice = invoices[k] as Row;
      if (invoice.status === 'paid')
        await publishInvoiceEvent(tx, services, tenantId, 'invoice.paid', invoice);
      made.set(p.input, summaryOf(invoice));
    }
  }
  return inputs.map((input) => {
    const summary = (input.idempotencyKey && existing.get(input.idempotencyKey)) || made.get(input);
    if (!summary) throw new Error('an invoice of the batch has no answer');
    return summary;
  });
}

/**
 * Voids an invoice: its posting is reversed and it owes nothing. An invoice with payments or credits applied must
 * have them unapplied first (they stay on the contact's account); a void invoice is voided again without change.
 */
export async function voidInvoice(
  tx: Tx,
  services: Services,
  tenantId: string,
  invoiceId: number,
  reason: string,
): Promise<InvoiceSummary> {
  const invoice = await invoiceRow(tx, tenantId, invoiceId, true);
  if (invoice.status === 'void') return summaryOf(invoice);
  if (num(invoice.applied_cents) > 0)
    throw badRequest('Unapply the payments and credits on this invoice before voiding it.');
  if (num(invoice.written_off_cents) > 0) throw badRequest('A written-off invoice cannot be voided.');
  if (!reason.trim())
    throw badRequest('Say why the invoice is voided.', { reason: ['Say why the invoice is voided.'] });
  const ctx = await contextOf(tx, tenantId);
  const entry = await entryOf(tx, tenantId, 'invoice', invoiceId, 'invoice');
  if (entry != null)
    await reverseEntry(tx, tenantId, entry, {
      kind: 'invoice_void',
      entryDate: todayIn(ctx),
      memo: `Void: ${reason.trim()}`,
    });
  const [row] = await runFragment<Row>(
    tx,
    q`update invoices set status = 'void', balance_cents = 0, void_reason = ${reason.trim()}, voided_at = now(), updated_at = now()
      where tenant_id = ${tenantId} and invoice_id = ${invoiceId} returning *`,
  );
  if (!row) throw notFound();
  await publishInvoiceEvent(tx, services, tenantId, 'invoice.voided', row);
  return summaryOf(row);
}

/** Writes off what an open invoice still owes (bad debt). */
export async function writeOffInvoice(
  tx: Tx,
  _services: Services,
  tenantId: string,
  invoiceId: number,
  reason: string,
): Promise<InvoiceSummary> {
  const invoice = await invoiceRow(tx, tenantId, invoiceId, true);
  const balance = num(invoice.balance_cents);
  if (invoice.status !== 'open' && invoice.status !== 'partially_paid')
    throw badRequest('Only an invoice that still owes money can be written off.');
  if (!reason.trim())
    throw badRequest('Say why the invoice is written off.', {
      reason: ['Say why the invoice is written off.'],
    });
  const ctx = await contextOf(tx, tenantId);
  const accounts = await accountsOf(tx, tenantId);
  const refs = { contactId: num(invoice.contact_id), invoiceId };
  await post(
    tx,
    tenantId,
    {
      kind: 'write_off',
      sourceKind: 'invoice',
      sourceId: invoiceId,
      contactId: refs.contactId,
      entryDate: todayIn(ctx),
      memo: `Write-off: ${reason.trim()}`,
    },
    [debit(accounts.bad_debt, balance, refs), credit(accounts.receivable, balance, refs)],
  );
  const [row] = await runFragment<Row>(
    tx,
    q`update invoices set written_off_cents = written_off_cents + ${balance}, balance_cents = 0, status = 'written_off', updated_at = now()
      where tenant_id = ${tenantId} and invoice_id = ${invoiceId} returning *`,
  );
  if (!row) throw notFound();
  return summaryOf(row);
}

// ---------------------------------------------------------------------------------------------------------------
// Applications of payments and credits to invoices

export type ApplicationSource = { paymentId: number } | { creditId: number };

/**
 * Applies part of a payment (or a credit) to an invoice. Two conditional updates are the locks and the checks:
 * the source must have the amount left, the invoice must owe at least it. Parallel applications of one payment
 * queue on its row and each sees what the others took.
 */
export async function applyToInvoice(
  tx: Tx,
  services: Services,
  tenantId: string,
  source: ApplicationSource,
  invoiceId: number,
  amountCents: number,
  accounts?: Accounts,
): Promise<number> {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw badRequest('The amount to apply must be more than zero.');
  const isPayment = 'paymentId' in source;
  const sourceId = isPayment ? source.paymentId : source.creditId;
  const [taken] = await runFragment<Row>(
    tx,
    isPayment
      ? q`update payments set applied_cents = applied_cents + ${amountCents}, updated_at = now()
          where tenant_id = ${tenantId} and id = ${sourceId} and status = 'completed' and not is_deleted
            and amount_cents - applied_cents - refunded_cents >= ${amountCents}
          returning contact_id`
      : q`update credits set applied_cents = applied_cents + ${amountCents}, updated_at = now()
          where tenant_id = ${tenantId} and credit_id = ${sourceId} and amount_cents - applied_cents >= ${amountCents}
          returning contact_id`,
  );
  if (!taken) {
    const [left] = await runFragment<Row>(
      tx,
      isPayment
        ? q`select status, amount_cents - applied_cents - refunded_cents as left from payments where tenant_id = ${tenantId} and id = ${sourceId} and not is_deleted`
        : q`select 'completed' as status, amount_cents - applied_cents as left from credits where tenant_id = ${tenantId} and credit_id = ${sourceId}`,
    );
    if (!left)
      throw new HttpError(
        404,
        isPayment ? 'We could not find that payment.' : 'We could not find that credit.',
      );
    if (left.status !== 'completed') throw badRequest('A bounced payment cannot be applied.');
    const { currency } = await contextOf(tx, tenantId);
    throw badRequest(
      `Only ${money(num(left.left), currency)} of this ${isPayment ? 'payment' : 'credit'} is left to apply; ${money(amountCents, currency)} cannot be applied.`,
    );
  }
  const [invoice] = await runFragment<Row>(
    tx,
    q`update invoices set applied_cents = applied_cents + ${amountCents}, balance_cents = balance_cents - ${amountCents},
        status = case when balance_cents - ${amountCents} = 0 then 'paid' else 'partially_paid' end,
        paid_at = case when balance_cents - ${amountCents} = 0 then now() else paid_at end, updated_at = now()
      where tenant_id = ${tenantId} and invoice_id = ${invoiceId} and status in ('open', 'partially_paid')
        and balance_cents >= ${amountCents}
      returning *`,
  );
  if (!invoice) {
    const [row] = await runFragment<Row>(
      tx,
      q`select number, status, balance_cents from invoices where tenant_id = ${tenantId} and invoice_id = ${invoiceId}`,
    );
    if (!row) throw new HttpError(404, 'We could not find that invoice.');
    if (row.status !== 'open' && row.status !== 'partially_paid')
      throw badRequest(
        `Invoice ${row.number} does not owe anything (${String(row.status).replace('_', ' ')}).`,
      );
    const { currency } = await contextOf(tx, tenantId);
    throw badRequest(
      `Invoice ${row.number} owes only ${money(num(row.balance_cents), currency)}; ${money(amountCents, currency)} cannot be applied to it.`,
    );
  }
  const [application] = await runFragment<Row>(
    tx,
    q`insert into invoice_applications (tenant_id, invoice_id, payment_id, credit_id, amount_cents)
      values (${tenantId}::uuid, ${invoiceId}, ${isPayment ? sourceId : null}, ${isPayment ? null : sourceId}, ${amountCents})
      returning application_id`,
  );
  const applicationId = num(application?.application_id);
  const acc = accounts ?? (await accountsOf(tx, tenantId));
  const ctx = await contextOf(tx, tenantId);
  const refs = { contactId: num(invoice.contact_id), invoiceId };
  await post(
    tx,
    tenantId,
    {
      kind: 'application',
      sourceKind: 'application',
      sourceId: applicationId,
      contactId: refs.contactId,
      entryDate: todayIn(ctx),
      memo: `Applied to ${invoice.number}`,
    },
    [debit(acc.customer_credit, amountCents, refs), credit(acc.receivable, amountCents, refs)],
  );
  if (invoice.status === 'paid') await publishInvoiceEvent(tx, services, tenantId, 'invoice.paid', invoice);
  return applicationId;
}

/** Takes an application back: the money returns to the payment or credit, the invoice owes it again. */
export async function unapply(
  tx: Tx,
  services: Services,
  tenantId: string,
  applicationId: number,
): Promise<void> {
  const [application] = await runFragment<Row>(
    tx,
    q`update invoice_applications set is_reversed = true, reversed_at = now()
      where tenant_id = ${tenantId} and application_id = ${applicationId} and not is_reversed
      returning invoice_id, payment_id, credit_id, amount_cents`,
  );
  if (!application)
    throw new HttpError(404, 'We could not find that application, or it was already taken back.');
  const amount = num(application.amount_cents);
  if (application.payment_id != null) {
    await runFragment(
      tx,
      q`update payments set applied_cents = applied_cents - ${amount}, updated_at = now()
        where tenant_id = ${tenantId} and id = ${num(application.payment_id)}`,
    );
  } else {
    await runFragment(
      tx,
      q`update credits set applied_cents = applied_cents - ${amount}, updated_at = now()
        where tenant_id = ${tenantId} and credit_id = ${num(application.credit_id)}`,
    );
  }
  const before = await invoiceRow(tx, tenantId, num(application.invoice_id), true);
  const [invoice] = await runFragment<Row>(
    tx,
    q`update invoices set applied_cents = applied_cents - ${amount}, balance_cents = balance_cents + ${amount},
        status = case when applied_cents - ${amount} = 0 and written_off_cents = 0 then 'open' else 'partially_paid' end,
        paid_at = null, updated_at = now()
      where tenant_id = ${tenantId} and invoice_id = ${num(application.invoice_id)} returning *`,
  );
  if (!invoice) throw notFound();
  const ctx = await contextOf(tx, tenantId);
  const entry = await entryOf(tx, tenantId, 'application', applicationId, 'application');
  if (entry != null)
    await reverseEntry(tx, tenantId, entry, {
      kind: 'unapplication',
      entryDate: todayIn(ctx),
      memo: `Unapplied from ${invoice.number}`,
    });
  if (before.status === 'paid')
    await publishInvoiceEvent(tx, services, tenantId, 'invoice.reopened', invoice);
}

// ---------------------------------------------------------------------------------------------------------------
// Payments

export interface PaymentRecord {
  paymentId: number;
  contactId: number | null;
  amountCents: number;
  appliedCents: number;
  refundedCents: number;
  unappliedCents: number;
  method: string | null;
  checkNumber: string | null;
  reference: string | null;
  status: string;
  depositId: number | null;
  paidAt: string;
  applications: {
    applicationId: number;
    invoiceId: number;
    invoiceNumber: string;
    amountCents: number;
    isReversed: boolean;
  }[];
  refunds: { refundId: number; amountCents: number; reason: string | null; refundedAt: string }[];
}

export async function paymentRecord(tx: Tx, tenantId: string, paymentId: number): Promise<PaymentRecord> {
  const [p] = await runFragment<Row>(
    tx,
    q`select * from payments where tenant_id = ${tenantId} and id = ${paymentId} and not is_deleted`,
  );
  if (!p) throw new HttpError(404, 'We could not find that payment.');
  const applications = await runFragment<Row>(
    tx,
    q`select a.application_id, a.invoice_id, i.number, a.amount_cents, a.is_reversed
      from invoice_applications a join invoices i on i.tenant_id = a.tenant_id and i.invoice_id = a.invoice_id
      where a.tenant_id = ${tenantId} and a.payment_id = ${paymentId} order by a.application_id`,
  );
  const refunds = await runFragment<Row>(
    tx,
    q`select id, amount_cents, reason, refunded_at from refunds where tenant_id = ${tenantId} and payment_id = ${paymentId} order by id`,
  );
  return {
    paymentId: num(p.id),
    contactId: numOrNull(p.contact_id),
    amountCents: num(p.amount_cents),
    appliedCents: num(p.applied_cents),
    refundedCents: num(p.refunded_cents),
    unappliedCents:
      p.status === 'completed' ? num(p.amount_cents) - num(p.applied_cents) - num(p.refunded_cents) : 0,
    method: (p.method as string | null) ?? null,
    checkNumber: (p.check_number as string | null) ?? null,
    reference: (p.reference as string | null) ?? null,
    status: String(p.status),
    depositId: numOrNull(p.deposit_id),
    paidAt: new Date(String(p.paid_at)).toISOString(),
    applications: applications.map((a) => ({
      applicationId: num(a.application_id),
      invoiceId: num(a.invoice_id),
      invoiceNumber: String(a.number),
      amountCents: num(a.amount_cents),
      isReversed: Boolean(a.is_reversed),
    })),
    refunds: refunds.map((r) => ({
      refundId: num(r.id),
      amountCents: num(r.amount_cents),
      reason: (r.reason as string | null) ?? null,
      refundedAt: new Date(String(r.refunded_at)).toISOString(),
    })),
  };
}

/**
 * Records a payment received and applies it to the invoices named; what is not applied stays a credit on the
 * contact's account. The same idempotency key twice answers the first payment and records nothing.
 */
export async function recordPayment(
  tx: Tx,
  services: Services,
  tenantId: string,
  input: NewPayment,
): Promise<PaymentRecord> {
  if (input.idempotencyKey) {
    await lockKey(tx, tenantId, 'payment', input.idempotencyKey);
    const [existing] = await runFragment<Row>(
      tx,
      q`select id from payments where tenant_id = ${tenantId} and idempotency_key = ${input.idempotencyKey}`,
    );
    if (existing) return paymentRecord(tx, tenantId, num(existing.id));
  }
  const ctx = await contextOf(tx, tenantId);
  const errors: Record<string, string[]> = {};
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
    errors.amountCents = ['The payment amount must be more than zero.'];
  if (!PAYMENT_METHODS.includes(input.method)) errors.method = ['Choose how the payment was made.'];
  if (input.method === 'check' && !input.checkNumber?.trim())
    errors.checkNumber = ['Enter the check number.'];
  const applications = input.applications ?? [];
  const applied = applications.reduce((s, a) => s + a.amountCents, 0);
  if (applied > input.amountCents)
    errors.applications = [
      `The amounts applied (${money(applied, ctx.currency)}) are more than the payment (${money(input.amountCents, ctx.currency)}).`,
    ];
  const seen = new Set<number>();
  for (const a of applications) {
    if (seen.has(a.invoiceId)) errors.applications = ['Apply the payment to each invoice once.'];
    seen.add(a.invoiceId);
  }
  if (Object.keys(errors).length > 0)
    throw badRequest(Object.values(errors)[0]?.[0] ?? 'The payment is not valid.', errors);
  const [contact] = await runFragment<Row>(
    tx,
    q`select contact_id, display_name from contacts where tenant_id = ${tenantId} and contact_id = ${input.contactId} and not is_deleted`,
  );
  if (!contact)
    throw badRequest('We could not find that contact.', { contactId: ['We could not find that contact.'] });
  const accounts = await accountsOf(tx, tenantId);
  const paidAt = input.paidAt ? new Date(input.paidAt) : new Date();
  if (Number.isNaN(paidAt.getTime()))
    throw badRequest('Enter the payment date.', { paidAt: ['Enter the payment date.'] });
  const [payment] = await runFragment<Row>(
    tx,
    q`insert into payments (tenant_id, contact_id, contact_name, amount_cents, paid_at, method, reference, check_number, status,
        idempotency_key, gateway, gateway_ref, memo)
      values (${tenantId}::uuid, ${input.contactId}, ${String(contact.display_name ?? '')}, ${input.amountCents}, ${paidAt.toISOString()}::timestamptz, ${input.method},
        ${input.reference?.trim() || null}, ${input.checkNumber?.trim() || null}, 'completed', ${input.idempotencyKey ?? null},
        ${input.gateway ?? null}, ${input.gatewayRef ?? null}, ${input.memo?.trim() || null})
      returning id`,
  );
  const paymentId = num(payment?.id);
  const into = DEPOSITED_BY_HAND.includes(input.method) ? accounts.undeposited : accounts.bank;
  const refs = { contactId: input.contactId };
  await post(
    tx,
    tenantId,
    {
      kind: 'payment',
      sourceKind: 'payment',
      sourceId: paymentId,
      contactId: input.contactId,
      entryDate: calendarDay(paidAt, ctx.timeZone),
      memo: `Payment (${input.method.replace('_', ' ')})`,
    },
    [debit(into, input.amountCents, refs), credit(accounts.customer_credit, input.amountCents, refs)],
  );
  for (const a of applications) {
    if (a.amountCents === 0) continue;
    await applyToInvoice(tx, services, tenantId, { paymentId }, a.invoiceId, a.amountCents, accounts);
  }
  return paymentRecord(tx, tenantId, paymentId);
}

/** Takes back applications of a payment, newest first, until `needed` cents of it are free (or all of them). */
async function freePayment(
  tx: Tx,
  services: Services,
  tenantId: string,
  paymentId: number,
  needed: number | 'all',
): Promise<void> {
  const rows = await runFragment<Row>(
    tx,
    q`select application_id, amount_cents from invoice_applications
      where tenant_id = ${tenantId} and payment_id = ${paymentId} and not is_reversed order by application_id desc`,
  );
  let left = needed;
  for (const r of rows) {
    if (left !== 'all' && left <= 0) break;
    await unapply(tx, services, tenantId, num(r.application_id));
    if (left !== 'all') left -= num(r.amount_cents);
  }
}

async function lockedPayment(tx: Tx, tenantId: string, paymentId: number): Promise<Row> {
  const [p] = await runFragment<Row>(
    tx,
    q`select * from payments where tenant_id = ${tenantId} and id = ${paymentId} and not is_deleted for update`,
  );
  if (!p) throw new HttpError(404, 'We could not find that payment.');
  return p;
}

/**
 * Refunds part or all of a payment: never more than paid minus already refunded (the shared refund rule, the
 * messages of POST /api/utils/refund/validate). What the refund needs beyond the payment's unapplied part is taken
 * back from its invoices, newest first, which then owe again. A card payment is refunded through its gateway.
 */
export async function refundPayment(
  tx: Tx,
  services: Services,
  tenantId: string,
  paymentId: number,
  input: { amount: string | number; reason?: string | null; idempotencyKey?: string | null },
  gatewayOf: GatewayOf = defaultGateway,
): Promise<PaymentRecord> {
  const p = await lockedPayment(tx, tenantId, paymentId);
  if (p.status !== 'completed') throw badRequest('This payment bounced; there is nothing to refund.');
  const verdict = validateRefund(
    { PaymentId: paymentId, Amount: input.amount },
    {
      PaidAmount: centsToDecimalString(num(p.amount_cents)),
      RefundedAmount: centsToDecimalString(num(p.refunded_cents)),
    },
  );
  if (!verdict.Valid)
    throw badRequest(verdict.ErrorMessages[0] ?? 'The refund is not valid.', {
      Amount: verdict.ErrorMessages,
    });
  const amountCents = Math.round(Number(input.amount) * 100);
  const unapplied = num(p.amount_cents) - num(p.applied_cents) - num(p.refunded_cents);
  if (amountCents > unapplied) await freePayment(tx, services, tenantId, paymentId, amountCents - unapplied);
  const ctx = await contextOf(tx, tenantId);
  let gatewayRef: string | null = null;
  if (p.gateway && p.gateway_ref) {
    const gateway = gatewayOf({ ...ctx, gateway: String(p.gateway) }, services);
    if (!gateway) throw badRequest('Card refunds are not set up for this association.');
    const result = await viaGateway(() =>
      gateway.refund({
        chargeRef: String(p.gateway_ref),
        amountCents,
        idempotencyKey:
          input.idempotencyKey ?? `refund-${tenantId}-${paymentId}-${num(p.refunded_cents)}-${amountCents}`,
      }),
    );
    if (!result.ok) throw badRequest(result.message);
    gatewayRef = result.ref;
  }
  const [updated] = await runFragment<Row>(
    tx,
    q`update payments set refunded_cents = refunded_cents + ${amountCents}, updated_at = now()
      where tenant_id = ${tenantId} and id = ${paymentId} and amount_cents - applied_cents - refunded_cents >= ${amountCents}
      returning id`,
  );
  if (!updated) throw badRequest('The payment changed while it was being refunded; try again.');
  const [refund] = await runFragment<Row>(
    tx,
    q`insert into refunds (tenant_id, payment_id, amount_cents, reason, gateway_ref)
      values (${tenantId}::uuid, ${paymentId}, ${amountCents}, ${input.reason?.trim() || null}, ${gatewayRef}) returning id`,
  );
  const accounts = await accountsOf(tx, tenantId);
  const from =
    DEPOSITED_BY_HAND.includes(String(p.method)) && p.deposit_id == null
      ? accounts.undeposited
      : accounts.bank;
  const refs = { contactId: numOrNull(p.contact_id) };
  await post(
    tx,
    tenantId,
    {
      kind: 'refund',
      sourceKind: 'refund',
      sourceId: num(refund?.id),
      contactId: refs.contactId,
      entryDate: todayIn(ctx),
      memo: input.reason?.trim() || 'Refund',
    },
    [debit(accounts.customer_credit, amountCents, refs), credit(from, amountCents, refs)],
  );
  return paymentRecord(tx, tenantId, paymentId);
}

/**
 * A check came back unpaid: every invoice it paid owes again, and the money it brought leaves the books (from the
 * bank when it was deposited, from undeposited funds otherwise). The payment stays, marked bounced.
 */
export async function bouncePayment(
  tx: Tx,
  services: Services,
  tenantId: string,
  paymentId: number,
): Promise<PaymentRecord> {
  const p = await lockedPayment(tx, tenantId, paymentId);
  if (p.method !== 'check') throw badRequest('Only a check can bounce.');
  if (p.status === 'bounced') throw badRequest('This check is already marked bounced.');
  await freePayment(tx, services, tenantId, paymentId, 'all');
  const amount = num(p.amount_cents) - num(p.refunded_cents);
  const accounts = await accountsOf(tx, tenantId);
  const ctx = await contextOf(tx, tenantId);
  const from = p.deposit_id == null ? accounts.undeposited : accounts.bank;
  const refs = { contactId: numOrNull(p.contact_id) };
  await post(
    tx,
    tenantId,
    {
      kind: 'bounce',
      sourceKind: 'payment',
      sourceId: paymentId,
      contactId: refs.contactId,
      entryDate: todayIn(ctx),
      memo: `Check ${p.check_number ?? ''} bounced`.trim(),
    },
    [debit(accounts.customer_credit, amount, refs), credit(from, amount, refs)],
  );
  await runFragment(
    tx,
    q`update payments set status = 'bounced', updated_at = now() where tenant_id = ${tenantId} and id = ${paymentId}`,
  );
  return paymentRecord(tx, tenantId, paymentId);
}

// ---------------------------------------------------------------------------------------------------------------
// Credits

export async function issueCredit(
  tx: Tx,
  _services: Services,
  tenantId: string,
  input: {
    contactId: number;
    amountCents: number;
    reason: string;
    source?: InvoiceSource;
    invoiceId?: number | null;
  },
): Promise<{ creditId: number }> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
    throw badRequest('The credit amount must be more than zero.', {
      amountCents: ['The credit amount must be more than zero.'],
    });
  if (!input.reason.trim())
    throw badRequest('Say why the credit is given.', { reason: ['Say why the credit is given.'] });
  const [contact] = await runFragment<Row>(
    tx,
    q`select contact_id, display_name from contacts where tenant_id = ${tenantId} and contact_id = ${input.contactId} and not is_deleted`,
  );
  if (!contact)
    throw badRequest('We could not find that contact.', { contactId: ['We could not find that contact.'] });
  const [row] = await runFragment<Row>(
    tx,
    q`insert into credits (tenant_id, contact_id, contact_name, amount_cents, reason, invoice_id, source_kind, source_id)
      values (${tenantId}::uuid, ${input.contactId}, ${String(contact.display_name ?? '')}, ${input.amountCents}, ${input.reason.trim()}, ${input.invoiceId ?? null},
        ${input.source?.kind ?? null}, ${input.source?.id ?? null})
      returning credit_id`,
  );
  const creditId = num(row?.credit_id);
  const accounts = await accountsOf(tx, tenantId);
  const ctx = await contextOf(tx, tenantId);
  const refs = { contactId: input.contactId };
  await post(
    tx,
    tenantId,
    {
      kind: 'credit',
      sourceKind: 'credit',
      sourceId: creditId,
      contactId: input.contactId,
      entryDate: todayIn(ctx),
      memo: input.reason.trim(),
    },
    [
      debit(accounts.allowances, input.amountCents, refs),
      credit(accounts.customer_credit, input.amountCents, refs),
    ],
  );
  return { creditId };
}

/** A credit note: a credit for the invoice's contact, applied to the invoice as far as it owes. */
export async function creditNote(
  tx: Tx,
  services: Services,
  tenantId: string,
  invoiceId: number,
  input: { amountCents: number; reason: string },
): Promise<{ creditId: number; appliedCents: number }> {
  const invoice = await invoiceRow(tx, tenantId, invoiceId, true);
  if (invoice.status === 'void' || invoice.status === 'draft')
    throw badRequest('A credit note corrects an issued invoice; this one is not.');
  const { creditId } = await issueCredit(tx, services, tenantId, {
    contactId: num(invoice.contact_id),
    amountCents: input.amountCents,
    reason: input.reason,
    invoiceId,
  });
  const applied = Math.min(input.amountCents, num(invoice.balance_cents));
  if (applied > 0) await applyToInvoice(tx, services, tenantId, { creditId }, invoiceId, applied);
  return { creditId, appliedCents: applied };
}

// ---------------------------------------------------------------------------------------------------------------
// Deposits

/**
 * Gathers undeposited cash and checks onto one bank deposit: undeposited funds move to the bank. A payment
 * already deposited, bounced, or not paid by hand is refused by name.
 */
export async function makeDeposit(
  tx: Tx,
  _services: Services,
  tenantId: string,
  input: { paymentIds: number[]; depositDate?: string | null; reference?: string | null },
): Promise<{ depositId: number; totalCents: number; paymentCount: number }> {
  const ids = [...new Set(input.paymentIds)];
  if (ids.length === 0)
    throw badRequest('Select the payments to deposit.', { paymentIds: ['Select the payments to deposit.'] });
  const rows = await runFragment<Row>(
    tx,
    q`select id, amount_cents, refunded_cents, method, status, deposit_id, contact_id from payments
      where tenant_id = ${tenantId} and id = any(${ids}::bigint[]) and not is_deleted order by id for update`,
  );
  const found = new Map(rows.map((r) => [num(r.id), r]));
  for (const id of ids) {
    const r = found.get(id);
    if (!r) throw new HttpError(404, 'We could not find that payment.');
    if (r.deposit_id != null) throw badRequest(`Payment ${id} is already deposited.`);
    if (r.status !== 'completed') throw badRequest(`Payment ${id} bounced and cannot be deposited.`);
    if (!DEPOSITED_BY_HAND.includes(String(r.method)))
      throw badRequest(`Payment ${id} went straight to the bank; only cash and checks are deposited.`);
  }
  const total = rows.reduce((s, r) => s + num(r.amount_cents) - num(r.refunded_cents), 0);
  const ctx = await contextOf(tx, tenantId);
  const depositDate = input.depositDate ?? todayIn(ctx);
  if (!ISO_DATE.test(depositDate))
    throw badRequest('Enter the date as YYYY-MM-DD.', { depositDate: ['Enter the date as YYYY-MM-DD.'] });
  const accounts = await accountsOf(tx, tenantId);
  const [deposit] = await runFragment<Row>(
    tx,
    q`insert into deposits (tenant_id, deposit_date, bank_account_id, total_cents, payment_count, reference)
      values (${tenantId}::uuid, ${depositDate}::date, ${accounts.bank}, ${total}, ${ids.length}, ${input.reference?.trim() || null})
      returning deposit_id`,
  );
  const depositId = num(deposit?.deposit_id);
  await runFragment(
    tx,
    q`update payments set deposit_id = ${depositId}, updated_at = now() where tenant_id = ${tenantId} and id = any(${ids}::bigint[])`,
  );
  await post(
    tx,
    tenantId,
    {
      kind: 'deposit',
      sourceKind: 'deposit',
      sourceId: depositId,
      entryDate: depositDate,
      memo: `Deposit of ${ids.length} payment${ids.length === 1 ? '' : 's'}`,
    },
    [debit(accounts.bank, total), credit(accounts.undeposited, total)],
  );
  return { depositId, totalCents: total, paymentCount: ids.length };
}

/** Takes a deposit back: its payments are undeposited again (and can be edited, refunded from undeposited funds). */
export async function reverseDeposit(
  tx: Tx,
  _services: Services,
  tenantId: string,
  depositId: number,
): Promise<void> {
  const [deposit] = await runFragment<Row>(
    tx,
    q`select * from deposits where tenant_id = ${tenantId} and deposit_id = ${depositId} for update`,
  );
  if (!deposit) throw new HttpError(404, 'We could not find that deposit.');
  if (deposit.status !== 'deposited') throw badRequest('This deposit is already reversed.');
  const [now] = await runFragment<Row>(
    tx,
    q`select coalesce(sum(amount_cents - refunded_cents) filter (where status = 'completed'), 0) as total,
             count(*) filter (where status <> 'completed') as bounced
      from payments where tenant_id = ${tenantId} and deposit_id = ${depositId}`,
  );
  if (num(now?.bounced) > 0 || num(now?.total) !== num(deposit.total_cents))
    throw badRequest(
      'A payment of this deposit bounced or was refunded since; the deposit cannot be reversed.',
    );
  const ctx = await contextOf(tx, tenantId);
  const entry = await entryOf(tx, tenantId, 'deposit', depositId, 'deposit');
  if (entry != null)
    await reverseEntry(tx, tenantId, entry, {
      kind: 'deposit_reversal',
      entryDate: todayIn(ctx),
      memo: 'Deposit reversed',
    });
  await runFragment(
    tx,
    q`update payments set deposit_id = null, updated_at = now() where tenant_id = ${tenantId} and deposit_id = ${depositId}`,
  );
  await runFragment(
    tx,
    q`update deposits set status = 'reversed', reversed_at = now(), updated_at = now() where tenant_id = ${tenantId} and deposit_id = ${depositId}`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Card payments

const sharedTestGateway = testGateway();

/**
 * The tenant's card gateway, or null when none is set up (card payment is then hidden): the offline test gateway,
 * or Stripe with the tenant's secret key (through `STRIPE_API_URL` when the configuration names another server).
 */
export function defaultGateway(ctx: BillingContext, services?: Pick<Services, 'config'>): CardGateway | null {
  if (ctx.gateway === 'test') return sharedTestGateway;
  if (ctx.gateway === 'stripe' && ctx.stripe.secretKey)
    return stripeGateway({ secretKey: ctx.stripe.secretKey, apiUrl: services?.config.stripeApiUrl });
  return null;
}

/** What the member area may know of the gateway: its name and Stripe's publishable key. */
export function cardGatewayInfo(ctx: BillingContext): CardGatewayInfo | null {
  if (ctx.gateway === 'test') return { name: 'test', publishableKey: null };
  if (ctx.gateway === 'stripe' && ctx.stripe.secretKey && ctx.stripe.publishableKey)
    return { name: 'stripe', publishableKey: ctx.stripe.publishableKey };
  return null;
}

export type GatewayOf = (ctx: BillingContext, services: Services) => CardGateway | null;

/** A gateway that cannot be reached answers 502 with its reason (the transaction rolls back: nothing is recorded). */
async function viaGateway<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GatewayUnavailableError) throw new HttpError(502, error.message);
    throw error;
  }
}

/**
 * Charges a card for what an invoice owes: the contact's saved card, or the payment method the browser got from
 * the gateway. Accepted: a card payment applied to the invoice. Refused: `payment.failed` and the gateway's message.
 * When the card's bank asks the cardholder to confirm (3-D Secure) and the cardholder is here (`canAuthenticate`),
 * nothing is recorded yet: the answer carries the charge's client secret for the browser, which then asks
 * `finishCardPayment`; without the cardholder (a saved card charged by the association) it is refused.
 */
export async function chargeCard(
  tx: Tx,
  services: Services,
  tenantId: string,
  input: {
    invoiceId: number;
    idempotencyKey: string;
    methodRef?: string | null;
    /** The cardholder is here and can confirm with their bank (3-D Secure): a charge that asks is answered with its action. */
    canAuthenticate?: boolean;
  },
  gatewayOf: GatewayOf = defaultGateway,
): Promise<ChargeAnswer> {
  await lockKey(tx, tenantId, 'payment', input.idempotencyKey);
  const [existing] = await runFragment<Row>(
    tx,
    q`select id from payments where tenant_id = ${tenantId} and idempotency_key = ${input.idempotencyKey}`,
  );
  if (existing) return { ok: true, paymentId: num(existing.id) };
  const invoice = await invoiceRow(tx, tenantId, input.invoiceId);
  const fail = async (message: string) => {
    await services.events.publish(tx, tenantId, 'payment.failed', {
      invoiceId: num(invoice.invoice_id),
      contactId: num(invoice.contact_id),
      sourceKind: (invoice.source_kind as string | null) ?? null,
      sourceId: numOrNull(invoice.source_id),
      message,
    });
    return { ok: false, message };
  };
  if (invoice.status !== 'open' && invoice.status !== 'partially_paid')
    return { ok: false, message: `Invoice ${invoice.number} does not owe anything.` };
  const ctx = await contextOf(tx, tenantId);
  const gateway = gatewayOf(ctx, services);
  if (!gateway) return fail('Card payments are not set up for this association.');
  let methodRef = input.methodRef ?? null;
  let customerRef: string | null = null;
  if (!methodRef) {
    const [card] = await runFragment<Row>(
      tx,
      q`select method_ref, customer_ref from payment_cards
        where tenant_id = ${tenantId} and contact_id = ${num(invoice.contact_id)} and gateway = ${gateway.name} and not is_deleted
        order by is_default desc, card_id desc limit 1`,
    );
    if (!card) return fail('There is no card on file.');
    methodRef = String(card.method_ref);
    customerRef = (card.customer_ref as string | null) ?? null;
  }
  const amountCents = num(invoice.balance_cents);
  const result = await viaGateway(() =>
    gateway.charge({
      amountCents,
      currency: currencyCode(invoice.currency).toLowerCase(),
      methodRef,
      customerRef,
      idempotencyKey: input.idempotencyKey,
      description: `Invoice ${invoice.number}`,
      metadata: {
        tenantId,
        invoiceId: String(input.invoiceId),
        invoiceNumber: String(invoice.number),
        idempotencyKey: input.idempotencyKey,
      },
    }),
  );
  if (!result.ok) {
    if (result.action && input.canAuthenticate)
      return {
        ok: false,
        message: result.message,
        action: { paymentRef: result.action.ref, clientSecret: result.action.clientSecret },
      };
    return fail(result.message);
  }
  const payment = await recordPayment(tx, services, tenantId, {
    contactId: num(invoice.contact_id),
    amountCents,
    method: 'card',
    reference: `Card payment of invoice ${invoice.number}`,
    idempotencyKey: input.idempotencyKey,
    gateway: gateway.name,
    gatewayRef: result.ref,
    applications: [{ invoiceId: input.invoiceId, amountCents }],
  });
  return { ok: true, paymentId: payment.paymentId };
}

/**
 * A card payment the gateway took, recorded once whichever path tells us first (the browser's finish, the
 * webhook): under the charge's own idempotency key, applied to its invoice up to what the invoice still owes (the
 * rest is a credit on the account). Null when it was already recorded.
 */
async function recordGatewayPayment(
  tx: Tx,
  services: Services,
  tenantId: string,
  input: { gateway: string; ref: string; invoiceId: number; amountCents: number; idempotencyKey: string },
): Promise<number | null> {
  await lockKey(tx, tenantId, 'payment', input.idempotencyKey);
  const [known] = await runFragment<Row>(
    tx,
    q`select id from payments where tenant_id = ${tenantId}
        and (idempotency_key = ${input.idempotencyKey} or (gateway = ${input.gateway} and gateway_ref = ${input.ref}))`,
  );
  if (known) return null;
  const invoice = await invoiceRow(tx, tenantId, input.invoiceId, true);
  const owes = invoice.status === 'open' || invoice.status === 'partially_paid';
  const applied = owes ? Math.min(input.amountCents, num(invoice.balance_cents)) : 0;
  const payment = await recordPayment(tx, services, tenantId, {
    contactId: num(invoice.contact_id),
    amountCents: input.amountCents,
    method: 'card',
    reference: `Card payment of invoice ${invoice.number}`,
    idempotencyKey: input.idempotencyKey,
    gateway: input.gateway,
    gatewayRef: input.ref,
    applications: applied > 0 ? [{ invoiceId: input.invoiceId, amountCents: applied }] : [],
  });
  return payment.paymentId;
}

/**
 * Finishes a card payment the cardholder confirmed with their bank (3-D Secure), from the charge's state at the
 * gateway, never from the browser's word: it must be the charge made for this invoice under this key (its
 * metadata). Succeeded: the payment is recorded (once, with the webhook). Failed: `payment.failed` and the reason.
 * Still waiting: nothing is recorded and the member is told so (the webhook records it if the bank confirms later).
 */
export async function finishCardPayment(
  tx: Tx,
  services: Services,
  tenantId: string,
  input: { invoiceId: number; paymentRef: string; idempotencyKey: string },
  gatewayOf: GatewayOf = defaultGateway,
): Promise<ChargeAnswer> {
  await lockKey(tx, tenantId, 'payment', input.idempotencyKey);
  const paid = async () => {
    const [row] = await runFragment<Row>(
      tx,
      q`select id from payments where tenant_id = ${tenantId} and idempotency_key = ${input.idempotencyKey}`,
    );
    return row ? num(row.id) : null;
  };
  const existing = await paid();
  if (existing) return { ok: true, paymentId: existing };
  const ctx = await contextOf(tx, tenantId);
  const gateway = gatewayOf(ctx, services);
  if (!gateway) throw new HttpError(409, 'Card payments are not set up for this association.');
  const state = await viaGateway(() => gateway.lookup(input.paymentRef));
  const meta = state?.metadata ?? {};
  if (
    !state ||
    meta.tenantId !== tenantId ||
    meta.invoiceId !== String(input.invoiceId) ||
    meta.idempotencyKey !== input.idempotencyKey
  )
    throw new HttpError(404, 'There is no such card payment for this invoice.');
  if (state.status === 'pending')
    return { ok: false, message: state.message ?? 'The payment is not confirmed yet.' };
  if (state.status === 'failed') {
    const invoice = await invoiceRow(tx, tenantId, input.invoiceId);
    const message = state.message ?? 'The payment did not go through.';
    await services.events.publish(tx, tenantId, 'payment.failed', {
      invoiceId: num(invoice.invoice_id),
      contactId: num(invoice.contact_id),
      sourceKind: (invoice.source_kind as string | null) ?? null,
      sourceId: numOrNull(invoice.source_id),
      message,
    });
    return { ok: false, message };
  }
  const recorded = await recordGatewayPayment(tx, services, tenantId, {
    gateway: gateway.name,
    ref: state.ref,
    invoiceId: input.invoiceId,
    amountCents: state.amountCents,
    idempotencyKey: input.idempotencyKey,
  });
  return { ok: true, paymentId: recorded ?? (await paid()) ?? undefined };
}

/**
 * A Stripe webhook (decision 0125), in the association's transaction: its signature checked with the tenant's
 * signing secret, each event handled once (`gateway_events`: a second delivery of an event finds its row and does
 * nothing). `payment_intent.succeeded` records the card payment if the synchronous charge did not (the member
 * closed the page; the bank confirmed later), under the same idempotency key, so the two paths make one payment
 * whichever comes first; events about a PaymentIntent already recorded, failures (the member was answered at the
 * time) and other types are kept and change nothing, so an event arriving late or out of order is harmless.
 */
export async function stripeWebhook(
  tx: Tx,
  services: Services,
  tenantId: string,
  rawBody: string,
  signature: string,
): Promise<{ received: true; duplicate: boolean; handled: string }> {
  const ctx = await contextOf(tx, tenantId);
  if (ctx.gateway !== 'stripe' || !ctx.stripe.webhookSecret)
    throw new HttpError(404, 'This association takes no Stripe webhooks.');
  const event = await verifyStripeEvent(rawBody, signature, ctx.stripe.webhookSecret);
  if (!event) throw new HttpError(400, 'The webhook signature does not match.');
  const [fresh] = await runFragment<Row>(
    tx,
    q`insert into gateway_events (tenant_id, gateway, event_id, type) values (${tenantId}::uuid, 'stripe', ${event.id}, ${event.type})
      on conflict do nothing returning event_id`,
  );
  if (!fresh) return { received: true, duplicate: true, handled: 'duplicate' };
  if (event.type !== 'payment_intent.succeeded') return { received: true, duplicate: false, handled: 'kept' };
  const intent = event.data.object as {
    id: string;
    amount_received?: number;
    amount?: number;
    metadata?: Record<string, string>;
  };
  const meta = intent.metadata ?? {};
  if (meta.tenantId !== tenantId) return { received: true, duplicate: false, handled: 'not ours' };
  const invoiceId = Number(meta.invoiceId);
  const amountCents = Number(intent.amount_received ?? intent.amount ?? 0);
  if (!Number.isSafeInteger(invoiceId) || invoiceId <= 0 || amountCents <= 0)
    return { received: true, duplicate: false, handled: 'kept' };
  const recorded = await recordGatewayPayment(tx, services, tenantId, {
    gateway: 'stripe',
    ref: intent.id,
    invoiceId,
    amountCents,
    idempotencyKey: meta.idempotencyKey || `stripe:${intent.id}`,
  });
  return { received: true, duplicate: false, handled: recorded ? 'payment recorded' : 'already recorded' };
}

/** The card gateway as staff see it: keys are never read back, only whether each is set. */
export async function gatewaySettings(tx: Tx, tenantId: string) {
  const ctx = await contextOf(tx, tenantId);
  return {
    gateway: (['none', 'test', 'stripe'].includes(ctx.gateway) ? ctx.gateway : 'none') as
      | 'none'
      | 'test'
      | 'stripe',
    stripeSecretKeySet: ctx.stripe.secretKey != null,
    stripePublishableKey: ctx.stripe.publishableKey,
    stripeWebhookSecretSet: ctx.stripe.webhookSecret != null,
  };
}

/** Sets the card gateway; a key left out (undefined) keeps its value, null clears it. Stripe needs its keys. */
export async function setGatewaySettings(
  tx: Tx,
  tenantId: string,
  input: {
    gateway: 'none' | 'test' | 'stripe';
    stripeSecretKey?: string | null | undefined;
    stripePublishableKey?: string | null | undefined;
    stripeWebhookSecret?: string | null | undefined;
  },
) {
  const before = await contextOf(tx, tenantId);
  const pick = (given: string | null | undefined, kept: string | null) =>
    given === undefined ? kept : given?.trim() || null;
  const secret = pick(input.stripeSecretKey, before.stripe.secretKey);
  const publishable = pick(input.stripePublishableKey, before.stripe.publishableKey);
  const webhook = pick(input.stripeWebhookSecret, before.stripe.webhookSecret);
  if (input.gateway === 'stripe') {
    const errors: Record<string, string[]> = {};
    if (!secret?.startsWith('sk_') && !secret?.startsWith('rk_'))
      errors.stripeSecretKey = ['Enter the secret key (it starts with sk_).'];
    if (!publishable?.startsWith('pk_'))
      errors.stripePublishableKey = ['Enter the publishable key (it starts with pk_).'];
    if (!webhook?.startsWith('whsec_'))
      errors.stripeWebhookSecret = ['Enter the webhook signing secret (it starts with whsec_).'];
    // Keys of test mode and of live mode never work together (Stripe refuses the browser's payment method).
    const mode = (key: string | null) => /^(?:sk|rk|pk)_(test|live)_/.exec(key ?? '')?.[1] ?? null;
    if (!errors.stripeSecretKey && !errors.stripePublishableKey && mode(secret) !== mode(publishable))
      errors.stripePublishableKey = [
        'The publishable key and the secret key must be of the same mode (both test or both live).',
      ];
    if (Object.keys(errors).length > 0)
      throw badRequest(Object.values(errors)[0]?.[0] ?? 'Enter the Stripe keys.', errors);
  }
  await runFragment(
    tx,
    q`insert into billing_settings (tenant_id, gateway, stripe_secret_key, stripe_publishable_key, stripe_webhook_secret)
      values (${tenantId}::uuid, ${input.gateway}, ${secret}, ${publishable}, ${webhook})
      on conflict (tenant_id) do update set gateway = excluded.gateway, stripe_secret_key = excluded.stripe_secret_key,
        stripe_publishable_key = excluded.stripe_publishable_key, stripe_webhook_secret = excluded.stripe_webhook_secret,
        updated_at = now()`,
  );
  return gatewaySettings(tx, tenantId);
}

// ---------------------------------------------------------------------------------------------------------------
// Invoice documents

/** An invoice as a PDF, with the association's logo when it has one. */
export async function invoicePdf(
  tx: Tx,
  services: Services,
  tenantId: string,
  invoiceId: number,
): Promise<{ fileName: string; bytes: Buffer; number: string }> {
  const data = await invoicePdfData(tx, tenantId, invoiceId);
  const logo = await filesApi.associationLogo(tx, services.storage, tenantId);
  const bytes = await renderInvoicePdf({ ...data, association: { ...data.association, logo } });
  return { fileName: `Invoice ${data.invoice.number}.pdf`, bytes, number: data.invoice.number };
}

/** A deposit's printable slip, with the association's logo when it has one. */
export async function depositSlipPdf(
  tx: Tx,
  services: Services,
  tenantId: string,
  depositId: number,
): Promise<{ fileName: string; bytes: Buffer }> {
  const data = await depositSlipData(tx, tenantId, depositId);
  const logo = await filesApi.associationLogo(tx, services.storage, tenantId);
  const bytes = await renderDepositSlip({ ...data, association: { ...data.association, logo } });
  return { fileName: `Deposit slip ${depositId}.pdf`, bytes };
}

/**
 * An invoice of the member's own (404 for anyone else's, as for one that does not exist, and for a sign-in that
 * names no contact: `contactId` null).
 */
export async function memberInvoiceId(
  tx: Tx,
  tenantId: string,
  contactId: number | null,
  invoiceId: number,
): Promise<number> {
  const [row] = await runFragment<Row>(
    tx,
    q`select invoice_id from invoices where tenant_id = ${tenantId} and invoice_id = ${invoiceId}
      and contact_id = ${contactId ?? -1} and status <> 'draft'`,
  );
  if (!row) throw new HttpError(404, 'We could not find that invoice.');
  return invoiceId;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * An invoice's mail: its PDF attached, to the contact's address unless another is given. Answers the message for
 * the caller to send after the answer (the platform mailer keeps it in the outbox, with the attachment's name).
 */
export async function invoiceMail(
  tx: Tx,
  services: Services,
  tenantId: string,
  invoiceId: number,
  input: { to?: string | null; message?: string | null },
): Promise<MailMessage & { values: Record<string, string> }> {
  const data = await invoicePdfData(tx, tenantId, invoiceId);
  if (data.invoice.status === 'draft') throw badRequest('Issue the invoice before sending it.');
  const to = input.to?.trim() || data.billTo.email || '';
  if (!to)
    throw badRequest('This contact has no email address; enter the address to send the invoice to.', {
      to: ['Enter the address to send the invoice to.'],
    });
  if (!EMAIL.test(to))
    throw badRequest('Enter a valid email address.', { to: ['Enter a valid email address.'] });
  const logo = await filesApi.associationLogo(tx, services.storage, tenantId);
  const bytes = await renderInvoicePdf({ ...data, association: { ...data.association, logo } });
  const i = data.invoice;
  const amount = (cents: number) => formatMoney(cents, { currency: data.currency });
  const firstName = data.billTo.name.split(' ')[0] || data.billTo.name;
  const owed =
    i.balanceCents > 0 && i.status !== 'void'
      ? `The balance due is ${amount(i.balanceCents)}, by ${formatDay(i.dueDate)}.`
      : i.status === 'void'
        ? 'This invoice is void: nothing is owed on it.'
        : 'It is paid in full: thank you.';
  const text = [
    `Dear ${firstName},`,
    '',
    `Please find attached invoice ${i.number} of ${formatDay(i.issueDate)} for ${amount(i.totalCents)}. ${owed}`,
    ...(input.message?.trim() ? ['', input.message.trim()] : []),
    '',
    'With our thanks,',
    data.association.name,
  ].join('\n');
  return {
    to,
    subject: `Invoice ${i.number} from ${data.association.name}`,
    text,
    attachments: [{ filename: `Invoice ${i.number}.pdf`, content: bytes, contentType: 'application/pdf' }],
    // The system message's values: sent in the association's wording (decision 0154).
    values: {
      'Invoice.FirstName': firstName,
      'Invoice.Number': i.number,
      'Invoice.IssueDate': formatDay(i.issueDate),
      'Invoice.Total': amount(i.totalCents),
      'Invoice.Balance': amount(i.balanceCents),
      'Invoice.Owed': owed,
      'Invoice.Note': input.message?.trim() ?? '',
      'Association.Name': data.association.name,
    },
  };
}
