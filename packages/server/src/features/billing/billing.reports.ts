/**
 * Billing's own reports (issue 15): accounts receivable aging (current, 1-30, 31-60, 61-90, over 90 days past due),
 * revenue by account and month from the ledger, and the dashboard's figures. Each is one or two grouped statements
 * over the tenant's rows (the invoices' open-balance index, the ledger lines' account-and-date index); payments by
 * method and deposits by month are report-builder declarations (shared/src/billing/billing.report.ts).
 */
import { q, runFragment, type Tx } from '@guildhall/db';
import {
  type AgingReport,
  type BillingDashboard,
  calendarDay,
  REVENUE_REPORT_MAX_MONTHS,
  type RevenueReport,
  revenuePeriod,
  shiftDate,
} from '@guildhall/shared';
import { badRequest } from '../../platform/errors.ts';
import type { BillingContext } from './billing.service.ts';

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v ?? 0);

/** The buckets' bounds are dates worked out once, so each row is compared with constants, not date arithmetic. */
const bucketSums = (asOf: string) => {
  const [d30, d60, d90] = [shiftDate(asOf, -30), shiftDate(asOf, -60), shiftDate(asOf, -90)];
  return q`
  coalesce(sum(balance_cents) filter (where due_date >= ${asOf}::date), 0) as current,
  coalesce(sum(balance_cents) filter (where due_date < ${asOf}::date and due_date >= ${d30}::date), 0) as d30,
  coalesce(sum(balance_cents) filter (where due_date < ${d30}::date and due_date >= ${d60}::date), 0) as d60,
  coalesce(sum(balance_cents) filter (where due_date < ${d60}::date and due_date >= ${d90}::date), 0) as d90,
  coalesce(sum(balance_cents) filter (where due_date < ${d90}::date), 0) as over90,
  coalesce(sum(balance_cents), 0) as total, count(*) as invoices`;
};

const buckets = (r: Row) => ({
  current: num(r.current),
  '1-30': num(r.d30),
  '31-60': num(r.d60),
  '61-90': num(r.d90),
  '90+': num(r.over90),
  totalCents: num(r.total),
  invoiceCount: num(r.invoices),
});

/** What is owed on `asOf`, by how late it is: the totals, and the `top` contacts who owe most. */
export async function agingReport(
  tx: Tx,
  tenantId: string,
  ctx: BillingContext,
  asOf: string,
  top = 100,
): Promise<AgingReport> {
  // The kept sums of open balances by due date and by contact (list_counts 'invoice_aging', written by the
  // invoices' statement trigger, migration *_invoice_aging_counts): the totals from the due dates' sums (one row per
  // due date after the daily fold), the top contacts from the contacts' sums, and only their open invoices read.
  const [d30, d60, d90] = [shiftDate(asOf, -30), shiftDate(asOf, -60), shiftDate(asOf, -90)];
  const rows = await runFragment<Row>(
    tx,
    q`with due as (
        select value::date as due_date,
               sum(n) filter (where facet = 'due_cents') as cents, sum(n) filter (where facet = 'due_count') as invoices
        from list_counts where tenant_id = ${tenantId} and table_name = 'invoice_aging' and facet in ('due_cents', 'due_count')
        group by value),
      who as (
        select value::bigint as contact_id,
               sum(n) filter (where facet = 'contact_cents') as cents, sum(n) filter (where facet = 'contact_count') as invoices
        from list_counts where tenant_id = ${tenantId} and table_name = 'invoice_aging'
          and facet in ('contact_cents', 'contact_count')
        group by value),
      top as (select contact_id, cents from who where invoices > 0 order by cents desc, contact_id limit ${top}),
      per as (
        select i.contact_id, ${bucketSums(asOf)} from top t
        join invoices i on i.tenant_id = ${tenantId} and i.contact_id = t.contact_id
          and i.status in ('open', 'partially_paid') and i.balance_cents > 0
        group by i.contact_id)
      select 'all' as kind, null::bigint as contact_id, null as contact_name,
             coalesce(sum(cents) filter (where due_date >= ${asOf}::date), 0) as current,
             coalesce(sum(cents) filter (where due_date < ${asOf}::date and due_date >= ${d30}::date), 0) as d30,
             coalesce(sum(cents) filter (where due_date < ${d30}::date and due_date >= ${d60}::date), 0) as d60,
             coalesce(sum(cents) filter (where due_date < ${d60}::date and due_date >= ${d90}::date), 0) as d90,
             coalesce(sum(cents) filter (where due_date < ${d90}::date), 0) as over90,
             coalesce(sum(cents), 0) as total, coalesce(sum(invoices), 0) as invoices,
             (select count(*) from who where invoices > 0) as contacts
      from due where invoices > 0
      union all
      select 'contact', p.contact_id, c.display_name, p.current, p.d30, p.d60, p.d90, p.over90, p.total, p.invoices, null
      from per p left join contacts c on c.tenant_id = ${tenantId} and c.contact_id = p.contact_id`,
  );
  const totals = rows.find((r) => r.kind === 'all');
  const contacts = rows
    .filter((r) => r.kind === 'contact')
    .sort((x, y) => num(y.total) - num(x.total) || num(x.contact_id) - num(y.contact_id));
  return {
    asOf,
    currency: ctx.currency,
    totals: { ...buckets(totals ?? {}), contactCount: num(totals?.contacts) },
    contacts: contacts.map((r) => ({
      contactId: num(r.contact_id),
      contactName: String(r.contact_name ?? ''),
      ...buckets(r),
    })),
  };
}

/** The months from `from` to `to` ("2026-01" …). */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const end = to.slice(0, 7);
  for (let guard = 0; guard < 120; guard++) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    months.push(key);
    if (key >= end) break;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return months;
}

/**
 * Revenue (credits less debits on revenue accounts) by account and month over a period: a date-range option, the
 * days given, or the last twelve months (`revenuePeriod`).
 */
export async function revenueReport(
  tx: Tx,
  tenantId: string,
  ctx: BillingContext,
  input: { range?: number | undefined; from?: string | undefined; to?: string | undefined },
): Promise<RevenueReport> {
  const { from, to } = revenuePeriod(input, new Date(), ctx.timeZone);
  if (from > to) throw badRequest('The start of the period is after its end.');
  const months = monthsBetween(from, to);
  if (months.length > REVENUE_REPORT_MAX_MONTHS)
    throw badRequest(`Choose a period of ${REVENUE_REPORT_MAX_MONTHS} months at most.`);
  const rows = await runFragment<Row>(
    tx,
    q`select a.account_id, a.code, a.name, to_char(l.entry_date, 'YYYY-MM') as month,
             sum(l.credit_cents - l.debit_cents) as cents
      from ledger_lines l
      join ledger_accounts a on a.tenant_id = l.tenant_id and a.account_id = l.account_id and a.kind = 'revenue'
      where l.tenant_id = ${tenantId} and l.entry_date between ${from}::date and ${to}::date
      group by a.account_id, a.code, a.name, month order by a.code`,
  );
  const accounts = new Map<number, RevenueReport['accounts'][number]>();
  for (const r of rows) {
    const id = num(r.account_id);
    let a = accounts.get(id);
    if (!a) {
      a = {
        accountId: id,
        code: String(r.code),
        name: String(r.name),
        byMonth: months.map(() => 0),
        totalCents: 0,
      };
      accounts.set(id, a);
    }
    const i = months.indexOf(String(r.month));
    if (i >= 0) a.byMonth[i] = (a.byMonth[i] ?? 0) + num(r.cents);
    a.totalCents += num(r.cents);
  }
  const list = [...accounts.values()];
  const totalsByMonth = months.map((_, i) => list.reduce((s, a) => s + (a.byMonth[i] ?? 0), 0));
  return {
    from,
    to,
    currency: ctx.currency,
    months,
    accounts: list,
    totalsByMonth,
    totalCents: totalsByMonth.reduce((s, x) => s + x, 0),
  };
}

/** The dashboard's figures: open receivables, overdue invoices, revenue this month and last. */
export async function billingDashboard(
  tx: Tx,
  tenantId: string,
  ctx: BillingContext,
): Promise<BillingDashboard> {
  const today = calendarDay(new Date(), ctx.timeZone);
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonthStart = `${shiftDate(monthStart, -1).slice(0, 7)}-01`;
  const [r] = await runFragment<Row>(
    tx,
    q`select
        (select coalesce(sum(balance_cents), 0) from invoices where tenant_id = ${tenantId}
           and status in ('open', 'partially_paid')) as open_cents,
        (select count(*) from invoices where tenant_id = ${tenantId} and status in ('open', 'partially_paid')) as open_count,
        (select count(*) from invoices where tenant_id = ${tenantId} and status in ('open', 'partially_paid')
           and due_date < ${today}::date) as overdue_count,
        (select coalesce(sum(balance_cents), 0) from invoices where tenant_id = ${tenantId}
           and status in ('open', 'partially_paid') and due_date < ${today}::date) as overdue_cents,
        (select coalesce(sum(l.credit_cents - l.debit_cents) filter (where l.entry_date >= ${monthStart}::date), 0)
           from ledger_lines l join ledger_accounts a on a.tenant_id = l.tenant_id and a.account_id = l.account_id
           where l.tenant_id = ${tenantId} and a.kind = 'revenue' and l.entry_date >= ${lastMonthStart}::date) as this_month,
        (select coalesce(sum(l.credit_cents - l.debit_cents) filter (where l.entry_date < ${monthStart}::date), 0)
           from ledger_lines l join ledger_accounts a on a.tenant_id = l.tenant_id and a.account_id = l.account_id
           where l.tenant_id = ${tenantId} and a.kind = 'revenue' and l.entry_date >= ${lastMonthStart}::date) as last_month`,
  );
  return {
    currency: ctx.currency,
    openReceivablesCents: num(r?.open_cents),
    openInvoiceCount: num(r?.open_count),
    overdueCount: num(r?.overdue_count),
    overdueCents: num(r?.overdue_cents),
    revenueThisMonthCents: num(r?.this_month),
    revenueLastMonthCents: num(r?.last_month),
  };
}
