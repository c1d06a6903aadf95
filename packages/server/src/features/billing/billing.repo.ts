/** Reads of the billing screens: an invoice with its lines and applications, a contact's account, undeposited payments. */
import { q, runFragment, type Tx } from '@guildhall/db';
import {
  type ContactAccount,
  currencyCode,
  type InvoiceDetail,
  type InvoiceStatus,
  type UndepositedPayment,
} from '@guildhall/shared';
import { HttpError } from '../../platform/errors.ts';
import type { DepositSlipData } from './deposit-slip.ts';
import type { InvoicePdfData } from './invoice-pdf.ts';

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);
const iso = (v: unknown): string => new Date(String(v)).toISOString();

export async function invoiceDetail(tx: Tx, tenantId: string, invoiceId: number): Promise<InvoiceDetail> {
  const [i] = await runFragment<Row>(
    tx,
    q`select i.*, i.issue_date::text as issue, i.due_date::text as due, c.display_name
      from invoices i left join contacts c on c.tenant_id = i.tenant_id and c.contact_id = i.contact_id
      where i.tenant_id = ${tenantId} and i.invoice_id = ${invoiceId}`,
  );
  if (!i) throw new HttpError(404, 'We could not find that invoice.');
  const lines = await runFragment<Row>(
    tx,
    q`select l.*, a.name as account_name from invoice_lines l
      left join ledger_accounts a on a.tenant_id = l.tenant_id and a.account_id = l.revenue_account_id
      where l.tenant_id = ${tenantId} and l.invoice_id = ${invoiceId} order by l.position`,
  );
  const applications = await runFragment<Row>(
    tx,
    q`select a.*, p.method, p.check_number, c.reason from invoice_applications a
      left join payments p on p.tenant_id = a.tenant_id and p.id = a.payment_id
      left join credits c on c.tenant_id = a.tenant_id and c.credit_id = a.credit_id
      where a.tenant_id = ${tenantId} and a.invoice_id = ${invoiceId} order by a.application_id`,
  );
  return {
    invoiceId: num(i.invoice_id),
    number: String(i.number ?? ''),
    status: i.status as InvoiceStatus,
    totalCents: num(i.total_cents),
    paidCents: num(i.applied_cents),
    balanceCents: num(i.balance_cents),
    contactId: num(i.contact_id),
    contactName: String(i.display_name ?? ''),
    source: i.source_kind == null ? null : { kind: String(i.source_kind), id: num(i.source_id) },
    currency: currencyCode(i.currency),
    issueDate: String(i.issue),
    dueDate: String(i.due),
    subtotalCents: num(i.subtotal_cents),
    discountCents: num(i.discount_cents),
    taxCents: num(i.tax_cents),
    writtenOffCents: num(i.written_off_cents),
    memo: (i.memo as string | null) ?? null,
    voidReason: (i.void_reason as string | null) ?? null,
    lines: lines.map((l) => ({
      lineId: num(l.line_id),
      description: String(l.description),
      unitPriceCents: num(l.unit_price_cents),
      quantity: num(l.quantity),
      discountCents: num(l.discount_cents),
      taxCents: num(l.tax_cents),
      totalCents: num(l.total_cents),
      revenueAccount: String(l.account_name ?? ''),
    })),
    applications: applications.map((a) => ({
      applicationId: num(a.application_id),
      paymentId: a.payment_id == null ? null : num(a.payment_id),
      creditId: a.credit_id == null ? null : num(a.credit_id),
      amountCents: num(a.amount_cents),
      isReversed: Boolean(a.is_reversed),
      createdAt: iso(a.created_at),
      label:
        a.payment_id != null
          ? `Payment ${num(a.payment_id)} (${String(a.method ?? '').replace('_', ' ')}${a.check_number ? ` #${a.check_number}` : ''})`
          : `Credit ${num(a.credit_id)}: ${String(a.reason ?? '')}`,
    })),
  };
}

export async function contactAccount(
  tx: Tx,
  tenantId: string,
  contactId: number,
  today: string,
): Promise<ContactAccount> {
  const invoices = await runFragment<Row>(
    tx,
    q`select invoice_id, number, status, issue_date::text as issue, due_date::text as due, total_cents, balance_cents, currency
      from invoices where tenant_id = ${tenantId} and contact_id = ${contactId} and status <> 'draft'
      order by issue_date desc, invoice_id desc limit 200`,
  );
  const payments = await runFragment<Row>(
    tx,
    q`select id, paid_at, method, amount_cents, status,
             case when status = 'completed' then amount_cents - applied_cents - refunded_cents else 0 end as unapplied
      from payments where tenant_id = ${tenantId} and contact_id = ${contactId} and not is_deleted
      order by paid_at desc, id desc limit 200`,
  );
  const credits = await runFragment<Row>(
    tx,
    q`select credit_id, created_at, reason, amount_cents, amount_cents - applied_cents as unapplied
      from credits where tenant_id = ${tenantId} and contact_id = ${contactId} order by credit_id desc limit 200`,
  );
  const [totals] = await runFragment<Row>(
    tx,
    q`select
        (select coalesce(sum(balance_cents), 0) from invoices where tenant_id = ${tenantId} and contact_id = ${contactId}
           and status in ('open', 'partially_paid')) as owed,
        (select count(*) from invoices where tenant_id = ${tenantId} and contact_id = ${contactId}
           and status in ('open', 'partially_paid') and due_date < ${today}::date) as overdue,
        (select coalesce(sum(amount_cents - applied_cents - refunded_cents), 0) from payments where tenant_id = ${tenantId}
           and contact_id = ${contactId} and status = 'completed' and not is_deleted) as paid_credit,
        (select coalesce(sum(amount_cents - applied_cents), 0) from credits where tenant_id = ${tenantId}
           and contact_id = ${contactId}) as credit`,
  );
  const owed = num(totals?.owed);
  const available = num(totals?.paid_credit) + num(totals?.credit);
  return {
    contactId,
    openBalanceCents: owed,
    availableCreditCents: available,
    accountBalanceCents: owed - available,
    overdueCount: num(totals?.overdue),
    invoices: invoices.map((i) => ({
      invoiceId: num(i.invoice_id),
      number: String(i.number ?? ''),
      status: i.status as InvoiceStatus,
      issueDate: String(i.issue),
      dueDate: String(i.due),
      totalCents: num(i.total_cents),
      balanceCents: num(i.balance_cents),
      currency: currencyCode(i.currency),
    })),
    payments: payments.map((p) => ({
      paymentId: num(p.id),
      paidAt: iso(p.paid_at),
      method: (p.method as string | null) ?? null,
      amountCents: num(p.amount_cents),
      unappliedCents: num(p.unapplied),
      status: String(p.status),
    })),
    credits: credits.map((c) => ({
      creditId: num(c.credit_id),
      createdAt: iso(c.created_at),
      reason: String(c.reason),
      amountCents: num(c.amount_cents),
      unappliedCents: num(c.unapplied),
    })),
  };
}

export async function undepositedPayments(tx: Tx, tenantId: string): Promise<UndepositedPayment[]> {
  const rows = await runFragment<Row>(
    tx,
    q`select p.id, p.contact_id, c.display_name, p.method, p.check_number, p.amount_cents - p.refunded_cents as amount, p.paid_at
      from payments p left join contacts c on c.tenant_id = p.tenant_id and c.contact_id = p.contact_id
      where p.tenant_id = ${tenantId} and p.deposit_id is null and p.status = 'completed' and not p.is_deleted
        and p.method in ('cash', 'check') and p.amount_cents - p.refunded_cents > 0
      order by p.paid_at, p.id limit 2000`,
  );
  return rows.map((r) => ({
    PaymentId: num(r.id),
    IsSelected: false,
    contactId: r.contact_id == null ? null : num(r.contact_id),
    contactName: String(r.display_name ?? ''),
    method: String(r.method),
    checkNumber: (r.check_number as string | null) ?? null,
    amountCents: num(r.amount),
    paidAt: iso(r.paid_at),
  }));
}

/** What an invoice's PDF prints, but the logo (the files feature's, read by the caller). */
export async function invoicePdfData(
  tx: Tx,
  tenantId: string,
  invoiceId: number,
): Promise<
  Omit<InvoicePdfData, 'association'> & { association: Omit<InvoicePdfData['association'], 'logo'> }
> {
  const detail = await invoiceDetail(tx, tenantId, invoiceId);
  const [row] = await runFragment<Row>(
    tx,
    q`select t.name as tenant_name, t.settings->>'address' as tenant_address,
             c.contact_type, c.first_name, c.last_name, c.organization_name, c.display_name, c.account_number, c.email,
             c.address1, c.address2, c.city, c.state_province, c.postal_code, c.country_code
      from tenants t left join contacts c on c.tenant_id = t.id and c.contact_id = ${detail.contactId}
      where t.id = ${tenantId}`,
  );
  const str = (v: unknown) => (v == null ? '' : String(v).trim());
  const personal = [str(row?.first_name), str(row?.last_name)].filter(Boolean).join(' ');
  const name =
    (str(row?.contact_type) === 'individual' ? personal : str(row?.organization_name)) ||
    str(row?.display_name) ||
    detail.contactName;
  const cityLine = [
    str(row?.city),
    [str(row?.state_province), str(row?.postal_code)].filter(Boolean).join(' '),
  ]
    .filter(Boolean)
    .join(', ');
  const dates = await runFragment<Row>(
    tx,
    q`select a.application_id, to_char(coalesce(p.paid_at, a.created_at) at time zone coalesce(t.settings->>'defaultTimezone', 'America/Chicago'), 'YYYY-MM-DD') as day
      from invoice_applications a join tenants t on t.id = a.tenant_id
      left join payments p on p.tenant_id = a.tenant_id and p.id = a.payment_id
      where a.tenant_id = ${tenantId} and a.invoice_id = ${invoiceId}`,
  );
  const dayOf = new Map(dates.map((d) => [num(d.application_id), String(d.day)]));
  return {
    association: { name: str(row?.tenant_name), address: str(row?.tenant_address) || null, email: null },
    currency: detail.currency,
    invoice: {
      number: detail.number,
      status: detail.status,
      issueDate: detail.issueDate,
      dueDate: detail.dueDate,
      memo: detail.memo,
      voidReason: detail.voidReason,
      subtotalCents: detail.subtotalCents,
      discountCents: detail.discountCents,
      taxCents: detail.taxCents,
      totalCents: detail.totalCents,
      paidCents: detail.paidCents,
      writtenOffCents: detail.writtenOffCents,
      balanceCents: detail.balanceCents,
    },
    billTo: {
      name,
      accountNumber: str(row?.account_number) || null,
      // The country is printed when it is not the association's own (a US association's US members need none).
      addressLines: [
        str(row?.address1),
        str(row?.address2),
        cityLine,
        str(row?.country_code) === 'US' ? '' : str(row?.country_code),
      ].filter(Boolean),
      email: str(row?.email) || null,
    },
    lines: detail.lines,
    applications: detail.applications
      .filter((a) => !a.isReversed)
      .map((a) => ({
        date: dayOf.get(a.applicationId) ?? a.createdAt.slice(0, 10),
        label: a.label,
        amountCents: a.amountCents,
      })),
  };
}

/** What a deposit's slip prints, but the logo: the deposit, its bank account, and its payments (checks and cash). */
export async function depositSlipData(
  tx: Tx,
  tenantId: string,
  depositId: number,
): Promise<
  Omit<DepositSlipData, 'association'> & { association: Omit<DepositSlipData['association'], 'logo'> }
> {
  const [d] = await runFragment<Row>(
    tx,
    q`select d.deposit_id, d.deposit_date::text as day, d.reference, d.status, d.total_cents, a.code, a.name as account,
             t.name as tenant_name, t.settings->>'address' as tenant_address, t.settings->>'currency' as currency,
             coalesce(t.settings->>'defaultTimezone', 'America/Chicago') as tz
      from deposits d join tenants t on t.id = d.tenant_id
      left join ledger_accounts a on a.tenant_id = d.tenant_id and a.account_id = d.bank_account_id
      where d.tenant_id = ${tenantId} and d.deposit_id = ${depositId}`,
  );
  if (!d) throw new HttpError(404, 'We could not find that deposit.');
  const payments = await runFragment<Row>(
    tx,
    q`select p.id, to_char(p.paid_at at time zone ${String(d.tz)}, 'YYYY-MM-DD') as day, coalesce(c.display_name, p.contact_name) as payer,
             p.method, p.check_number, p.amount_cents - p.refunded_cents as amount
      from payments p left join contacts c on c.tenant_id = p.tenant_id and c.contact_id = p.contact_id
      where p.tenant_id = ${tenantId} and p.deposit_id = ${depositId} order by p.paid_at, p.id`,
  );
  const currency = currencyCode(d.currency);
  return {
    association: {
      name: String(d.tenant_name ?? ''),
      address: (d.tenant_address as string | null)?.trim() || null,
      email: null,
    },
    currency,
    deposit: {
      depositId: num(d.deposit_id),
      depositDate: String(d.day),
      reference: (d.reference as string | null) ?? null,
      bankAccount: [d.code, d.account].filter(Boolean).join(' '),
      status: String(d.status),
      totalCents: num(d.total_cents),
    },
    payments: payments.map((p) => ({
      paymentId: num(p.id),
      paidOn: String(p.day),
      payer: String(p.payer ?? ''),
      method: String(p.method),
      checkNumber: (p.check_number as string | null) ?? null,
      amountCents: num(p.amount),
    })),
  };
}
