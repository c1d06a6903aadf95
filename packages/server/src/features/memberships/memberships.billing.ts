/**
 * Memberships billed through the billing engine (never a money path of their own): the first invoice of a join,
 * the renewal run (idempotent and resumable: one `membership_invoices` row per membership, kind and term, made in
 * the same transaction as its invoice, and an idempotency key per membership and term), autopay charges with
 * retries, and what billing's events do to a membership.
 */
import { type Database, membershipInvoices, q, runFragment, type Tx, withTenantTx } from '@guildhall/db';
import {
  addDays,
  autopayChargeMail,
  autopayFailedMail,
  autopayOffMail,
  autopayOffStaffMail,
  type MembershipQuote,
  type RenewalPreview,
  renewalKey,
  renewalTerm,
  todayIn,
} from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import { tenantMoney } from '../../platform/money.ts';
import type { Services } from '../../platform/services.ts';
import { billingApi, INVOICE_BATCH_MAX, type NewInvoice } from '../billing/billing.module.ts';
import { queueNotice, queueStaffNotice } from './memberships.reminders.ts';
import * as repo from './memberships.repo.ts';
import { priceChoice, termSettingsOf, transition } from './memberships.service.ts';

export const RENEWAL_JOB = 'memberships-renewals';
/** Days after a failed autopay charge before the next attempt; after the last, autopay is turned off. */
export const AUTOPAY_RETRY_DAYS = [1, 3, 7] as const;
/**
 * Renewals per transaction: each batch's invoices are made by billing in a few statements, so the larger the batch
 * the fewer statements per renewal; billing's largest batch (INVOICE_BATCH_MAX).
 */
const BATCH = INVOICE_BATCH_MAX;
const CHARGE_BATCH = 250;

/** The invoice lines of a term's fees (what is owed for it, nothing for a fee of no amount). */
export function renewalLines(price: MembershipQuote, term: { start: string; end: string }) {
  return price.FeeItems.filter((item) => item.FirstBillAmount > 0).map((item) => ({
    description: `${item.Name} (${term.start} to ${term.end})`,
    unitPriceCents: item.FirstBillAmount,
    quantity: 1,
  }));
}

/** The first invoice of a new membership (nothing when nothing is owed). */
export async function invoiceJoin(
  tx: Tx,
  services: Services,
  tenantId: string,
  membership: repo.MembershipRow,
  price: MembershipQuote,
): Promise<number | null> {
  const lines = renewalLines(price, { start: price.TermStart, end: price.TermEnd });
  if (lines.length === 0) return null;
  const invoice = await billingApi.createInvoice(tx, services, tenantId, {
    contactId: membership.contactId,
    lines,
    source: { kind: 'membership', id: membership.membershipId },
    idempotencyKey: `membership:${membership.membershipId}:join:${price.TermStart}`,
    memo: `${membership.name}: first invoice`,
  });
  await tx
    .insert(membershipInvoices)
    .values({
      tenantId,
      membershipId: membership.membershipId,
      kind: 'join',
      termStart: price.TermStart,
      termEnd: price.TermEnd,
      invoiceId: invoice.invoiceId,
      amount: invoice.totalCents,
    })
    .onConflictDoNothing();
  return invoice.invoiceId;
}

interface DueRow {
  membership_id: number;
  contact_id: number;
  contact_name: string;
  name: string;
  membership_type_id: number;
  membership_level_id: number | null;
  chapter_id: number | null;
  bill_frequency_type_id: number;
  units: string | null;
  term_end: string;
  term_total: number | string;
  auto_pay: boolean;
}

/**
 * Memberships whose renewal invoice is due by `today` and not made yet, in id order, after `afterId` (a run pages by
 * id: each batch starts where the last one ended instead of stepping again over the memberships already invoiced).
 */
function dueStatement(tenantId: string, today: string, limit: number, afterId = 0) {
  return q`select m.membership_id, m.contact_id, m.contact_name, m.name, m.membership_type_id,
      m.membership_level_id, m.chapter_id, m.bill_frequency_type_id, m.units, m.term_end::text as term_end,
      m.term_total, m.auto_pay
    from memberships m
    join membership_types t on t.tenant_id = m.tenant_id and t.membership_type_id = m.membership_type_id
    where m.tenant_id = ${tenantId} and m.membership_id > ${afterId} and not m.is_deleted
      and m.status in ('active', 'grace')
      and m.term_end is not null and m.term_end - t.renewal_days_before <= ${today}::date
      -- An index probe per membership whatever the statistics say (offset 0 keeps the subquery a subplan): with
      -- the statistics of before a run, the planner took the run's renewal rows for a handful, materialised them
      -- and compared every membership with each one, so each batch got slower than the one before.
      and not exists (select 1 from membership_invoices i where i.tenant_id = m.tenant_id
        and i.membership_id = m.membership_id and i.kind = 'renewal' and i.term_start = m.term_end + 1 offset 0)
    order by m.membership_id limit ${limit}`;
}

/** Prices are the same for every membership of one choice: each is asked of the rules once per run. */
function quoteCache(tx: Tx, tenantId: string) {
  const cache = new Map<string, Promise<MembershipQuote>>();
  return (row: DueRow, start: string) => {
    const key = [
      row.membership_type_id,
      row.membership_level_id,
      row.chapter_id,
      row.bill_frequency_type_id,
      row.units,
    ].join('|');
    let quote = cache.get(key);
    if (!quote) {
      quote = priceChoice(
        tx,
        tenantId,
        {
          MembershipTypeId: row.membership_type_id,
          MembershipLevelId: row.membership_level_id,
          ChapterId: row.chapter_id,
          BillFrequencyTypeId: row.bill_frequency_type_id,
          Units: row.units,
          JoinDate: start,
        },
        { firstTerm: false },
      ).then((p) => p.price);
      cache.set(key, quote);
    }
    return quote;
  };
}

/** What a run would do today: how many renewals are due, and the first ones with their old and new prices. */
export async function previewRenewals(tx: Tx, tenantId: string, limit = 50): Promise<RenewalPreview> {
  const today = todayIn(await repo.tenantTimezone(tx, tenantId));
  const [count] = await runFragment<{ n: string | number }>(
    tx,
    q`select count(*) as n from (${dueStatement(tenantId, today, 1_000_000_000)}) d`,
  );
  const [invoiced] = await runFragment<{ n: string | number }>(
    tx,
    q`select count(*) as n from membership_invoices where tenant_id = ${tenantId} and kind = 'renewal'
        and created_at >= now() - interval '1 day'`,
  );
  const rows = await runFragment<DueRow>(tx, dueStatement(tenantId, today, limit));
  const quote = quoteCache(tx, tenantId);
  const out: RenewalPreview['Rows'] = [];
  for (const row of rows) {
    const start = addDays(row.term_end, 1);
    const price = await quote(row, start).catch(() => null);
    out.push({
      MembershipId: Number(row.membership_id),
      ContactName: row.contact_name,
      Name: row.name,
      TermEnd: row.term_end,
      NextTermStart: start,
      CurrentTotal: Number(row.term_total),
      NewTotal: price?.TermTotal ?? 0,
      Invoice: price?.FirstBill ?? 0,
    });
  }
  return { Today: today, Due: Number(count?.n ?? 0), Invoiced: Number(invoiced?.n ?? 0), Rows: out };
}

/**
 * One batch of the renewal run in its own transaction: the renewal invoice of each due membership and its row
 * (autopay members' rows due for a charge today). A crash rolls the batch back whole; the next batch (or a
 * restarted run) finds exactly the memberships still without their row. Answers how many it invoiced.
 */
export async function renewBatch(
  tx: Tx,
  services: Services,
  tenantId: string,
  today: string,
  size = BATCH,
  runId: number | null = null,
): Promise<number> {
  return (await renewPage(tx, services, tenantId, today, { size, runId, afterId: 0 })).invoiced;
}

/**
 * The batch of due memberships after `afterId` (id order): answers how many it invoiced, how many it found (fewer
 * than `size`: none are left after it) and the last id it looked at, where the next batch starts.
 */
async function renewPage(
  tx: Tx,
  services: Services,
  tenantId: string,
  today: string,
  page: { size: number; runId: number | null; afterId: number },
): Promise<{ invoiced: number; found: number; lastId: number }> {
  const rows = await runFragment<DueRow>(tx, dueStatement(tenantId, today, page.size, page.afterId));
  const found = rows.length;
  const lastId = found > 0 ? Number(rows[found - 1]?.membership_id) : page.afterId;
  const quote = quoteCache(tx, tenantId);
  const types = new Map<number, Awaited<ReturnType<typeof repo.membershipType>>>();
  const planned: { row: DueRow; start: string; end: string; invoice: NewInvoice | null }[] = [];
  for (const row of rows) {
    const start = addDays(row.term_end, 1);
    if (!types.has(row.membership_type_id))
      types.set(row.membership_type_id, await repo.membershipType(tx, tenantId, row.membership_type_id));
    const type = types.get(row.membership_type_id);
    if (!type) continue;
    const price = await quote(row, start);
    const term = renewalTerm({ start: row.term_end, end: row.term_end }, row.term_end, termSettingsOf(type));
    const lines = renewalLines(price, term);
    planned.push({
      row,
      start,
      end: term.end,
      invoice:
        lines.length === 0
          ? null
          : {
              contactId: Number(row.contact_id),
              lines,
              // Due on the last day of the term; a membership already past it (in grace) owes it today.
              dueDate: row.term_end < today ? today : row.term_end,
              source: { kind: 'membership', id: Number(row.membership_id) },
              idempotencyKey: renewalKey(row.membership_id, start),
              memo: `${row.name}: renewal for ${term.start} to ${term.end}`,
            },
    });
  }
  if (planned.length === 0) return { invoiced: 0, found, lastId };
  // The batch's invoices in a few statements (billing's set-based path), then every row in one insert: a crash
  // rolls both back, and a re-run finds the invoices by their keys.
  const toInvoice = planned.flatMap((p) => (p.invoice ? [p.invoice] : []));
  const summaries = await billingApi.createInvoices(tx, services, tenantId, toInvoice);
  const byInput = new Map(toInvoice.map((input, i) => [input, summaries[i]]));
  // One statement whatever the batch's size: the rows travel as one JSON list, not as ten parameters each.
  const made = planned.map(({ row, start, end, invoice: input }) => {
    const invoice = input ? byInput.get(input) : undefined;
    return {
      membership_id: Number(row.membership_id),
      term_start: start,
      term_end: end,
      invoice_id: invoice?.invoiceId ?? null,
      amount: invoice?.totalCents ?? 0,
      state: invoice ? 'open' : 'paid',
      next_charge_on: row.auto_pay && invoice ? today : null,
    };
  });
  await runFragment(
    tx,
    q`insert into membership_invoices (tenant_id, membership_id, kind, term_start, term_end, invoice_id, amount,
        state, next_charge_on, run_id)
      select ${tenantId}::uuid, membership_id, 'renewal', term_start, term_end, invoice_id, amount, state,
        next_charge_on, ${page.runId}::bigint
      from jsonb_to_recordset(${JSON.stringify(made)}::jsonb) as x(membership_id bigint, term_start date,
        term_end date, invoice_id bigint, amount bigint, state text, next_charge_on date)
      on conflict do nothing`,
  );
  return { invoiced: planned.length, found, lastId };
}

/** Autopay: charges the open renewal invoices whose next attempt is due, through the billing gateway. */
export async function chargeDue(
  tx: Tx,
  services: Services,
  tenantId: string,
  today: string,
): Promise<number> {
  const due = await runFragment<{
    membership_invoice_id: number;
    membership_id: number;
    invoice_id: number;
    charge_attempts: number;
    term_start: string;
    amount: number | string;
    name: string;
  }>(
    tx,
    q`select i.membership_invoice_id, i.membership_id, i.invoice_id, i.charge_attempts,
        i.term_start::text as term_start, i.amount, m.name from membership_invoices i
      join memberships m on m.tenant_id = i.tenant_id and m.membership_id = i.membership_id
      where i.tenant_id = ${tenantId} and i.state = 'open' and i.invoice_id is not null and m.auto_pay
        and i.next_charge_on is not null and i.next_charge_on <= ${today}::date
      order by i.membership_invoice_id limit ${CHARGE_BATCH}`,
  );
  const money = await tenantMoney(tx, tenantId);
  for (const row of due) {
    const attempt = row.charge_attempts + 1;
    // The attempt is counted before the charge: a failure (payment.failed) schedules the next one.
    await tx
      .update(membershipInvoices)
      .set({ chargeAttempts: attempt, nextChargeOn: null })
      .where(
        and(
          eq(membershipInvoices.tenantId, tenantId),
          eq(membershipInvoices.membershipInvoiceId, row.membership_invoice_id),
        ),
      );
    const amount = money(Number(row.amount));
    await queueNotice(tx, tenantId, {
      membershipId: Number(row.membership_id),
      termEnd: addDays(row.term_start, -1),
      kind: `charge-${attempt}`,
      today,
      template: autopayChargeMail,
      values: {
        'Membership.Name': row.name,
        'Membership.Amount': amount,
        'Membership.TermStart': row.term_start,
        'Charge.Attempt': attempt > 1 ? ` (attempt ${attempt} of ${AUTOPAY_RETRY_DAYS.length})` : '',
      },
    });
    await billingApi.chargeSavedCard(tx, services, tenantId, {
      invoiceId: row.invoice_id,
      idempotencyKey: `membership-invoice:${row.membership_invoice_id}:charge:${attempt}`,
    });
  }
  return due.length;
}

/** The whole run for an association: renewal invoices in batches, autopay charges, then the calendar's statuses. */
export async function runRenewals(
  database: Database,
  services: Services,
  tenantId: string,
  runId: number | null = null,
): Promise<{ invoiced: number; charged: number; moved: number }> {
  const today = await withTenantTx(database.db, { tenantId }, async (tx) =>
    todayIn(await repo.tenantTimezone(tx, tenantId)),
  );
  // Paged by id from the start of the run: a restarted run (after a crash or a kill) steps once over what the
  // stopped one invoiced, and every batch after that reads only the memberships it invoices.
  let invoiced = 0;
  let afterId = 0;
  for (;;) {
    const page = await withTenantTx(database.db, { tenantId }, (tx) =>
      renewPage(tx, services, tenantId, today, { size: BATCH, runId, afterId }),
    );
    invoiced += page.invoiced;
    afterId = page.lastId;
    if (page.found < BATCH) break;
  }
  const charged = await withTenantTx(database.db, { tenantId }, (tx) =>
    chargeDue(tx, services, tenantId, today),
  );
  const moved = await withTenantTx(database.db, { tenantId }, (tx) =>
    applyCalendarStatuses(tx, tenantId, today),
  );
  return { invoiced, charged, moved };
}

/** Active memberships past their term move to grace, and past the grace days to lapsed. */
export async function applyCalendarStatuses(tx: Tx, tenantId: string, today: string): Promise<number> {
  const rows = await runFragment<{
    membership_id: number;
    status: string;
    grace_days: number;
    term_end: string;
  }>(
    tx,
    q`select m.membership_id, m.status, t.grace_days, m.term_end::text as term_end from memberships m
      join membership_types t on t.tenant_id = m.tenant_id and t.membership_type_id = m.membership_type_id
      where m.tenant_id = ${tenantId} and not m.is_deleted and m.status in ('active', 'grace')
        and m.term_end < ${today}::date`,
  );
  let moved = 0;
  for (const row of rows) {
    const overdue = Math.round((Date.parse(today) - Date.parse(row.term_end)) / 86_400_000);
    if (row.status === 'active') {
      await transition(tx, null, tenantId, row.membership_id, 'startGrace', { day: today });
      moved++;
    }
    if (overdue > row.grace_days) {
      await transition(tx, null, tenantId, row.membership_id, 'lapse', { day: today });
      if (row.status === 'grace') moved++;
    }
  }
  return moved;
}

async function rowOfInvoice(tx: Tx, tenantId: string, invoiceId: number) {
  const [row] = await tx
    .select()
    .from(membershipInvoices)
    .where(and(eq(membershipInvoices.tenantId, tenantId), eq(membershipInvoices.invoiceId, invoiceId)))
    .for('update');
  return row ?? null;
}

function idsOf(payload: Record<string, unknown>): { invoiceId: number } | null {
  if (payload.sourceKind !== 'membership') return null;
  const invoiceId = Number(payload.invoiceId);
  return Number.isSafeInteger(invoiceId) ? { invoiceId } : null;
}

/**
 * invoice.paid: the join's invoice activates a pending membership (unless its type needs approval); a renewal's
 * extends the term (a membership in grace or lapsed becomes active again). Only an open row acts, once: the
 * event arriving twice, or after the invoice was voided, changes nothing. Never throws: the payment stands.
 */
export const onInvoicePaid =
  (_services: Services) => async (tx: Tx, tenantId: string, payload: Record<string, unknown>) => {
    const ids = idsOf(payload);
    if (!ids) return;
    const row = await rowOfInvoice(tx, tenantId, ids.invoiceId);
    if (!row || row.state !== 'open') return;
    await tx
      .update(membershipInvoices)
      .set({ state: 'paid', nextChargeOn: null })
      .where(
        and(
          eq(membershipInvoices.tenantId, tenantId),
          eq(membershipInvoices.membershipInvoiceId, row.membershipInvoiceId),
        ),
      );
    const m = await repo.lockMembership(tx, tenantId, row.membershipId);
    if (!m) return;
    const type = await repo.membershipType(tx, tenantId, m.membershipTypeId);
    const today = todayIn(await repo.tenantTimezone(tx, tenantId));
    if (row.kind === 'join') {
      if (m.status === 'pending' && !type?.requiresApproval)
        await transition(tx, null, tenantId, m.membershipId, 'paid', { day: today });
      return;
    }
    if (row.kind !== 'renewal' || !type || m.status === 'dropped' || m.status === 'pending') return;
    const previous = { start: m.termStart ?? row.termStart, end: addDays(row.termStart, -1) };
    const term = renewalTerm(previous, today, termSettingsOf(type));
    if (m.status === 'active') {
      await repo.updateMembership(tx, tenantId, m.membershipId, { termStart: term.start, termEnd: term.end });
      await repo.insertHistory(tx, {
        tenantId,
        membershipId: m.membershipId,
        contactId: m.contactId,
        fromStatus: 'active',
        toStatus: 'active',
        changedOn: today,
        event: `Renewed to ${term.end}`,
        changedBy: 'System',
      });
    } else {
      await transition(tx, null, tenantId, m.membershipId, 'paid', { day: today, term });
    }
  };

/** invoice.voided: the row is closed; the membership keeps its status (staff decide what follows). */
export const onInvoiceVoided =
  (_services: Services) => async (tx: Tx, tenantId: string, payload: Record<string, unknown>) => {
    const ids = idsOf(payload);
    if (!ids) return;
    await tx
      .update(membershipInvoices)
      .set({ state: 'void', nextChargeOn: null })
      .where(
        and(
          eq(membershipInvoices.tenantId, tenantId),
          eq(membershipInvoices.invoiceId, ids.invoiceId),
          eq(membershipInvoices.state, 'open'),
        ),
      );
  };

/**
 * payment.failed on an autopay charge: neither extends nor lapses the membership; the next attempt is scheduled
 * (after 1, 3 and 7 days), and after the last one autopay is turned off, the history says so and the association's
 * administrators are mailed. The same failure reported twice schedules nothing twice (the attempt count was taken
 * when the charge was made).
 */
export const onPaymentFailed =
  (services: Services) => async (tx: Tx, tenantId: string, payload: Record<string, unknown>) => {
    const ids = idsOf(payload);
    if (!ids) return;
    const row = await rowOfInvoice(tx, tenantId, ids.invoiceId);
    if (!row || row.state !== 'open' || row.nextChargeOn !== null) return;
    const today = todayIn(await repo.tenantTimezone(tx, tenantId));
    const wait = AUTOPAY_RETRY_DAYS[row.chargeAttempts - 1];
    const m = await repo.lockMembership(tx, tenantId, row.membershipId);
    if (!m) return;
    const message = typeof payload.message === 'string' ? payload.message : 'The card was declined.';
    const money = await tenantMoney(tx, tenantId);
    if (wait !== undefined && row.chargeAttempts < AUTOPAY_RETRY_DAYS.length) {
      await tx
        .update(membershipInvoices)
        .set({ nextChargeOn: addDays(today, wait) })
        .where(
          and(
            eq(membershipInvoices.tenantId, tenantId),
            eq(membershipInvoices.membershipInvoiceId, row.membershipInvoiceId),
          ),
        );
    } else if (m.autoPay) {
      await repo.updateMembership(tx, tenantId, m.membershipId, { autoPay: false });
      // Staff are told (issue 16): the renewal is now theirs to follow up.
      await queueStaffNotice(tx, tenantId, {
        membershipId: m.membershipId,
        termEnd: addDays(row.termStart, -1),
        kind: 'autopay-off',
        today,
        template: autopayOffStaffMail,
        values: {
          'Member.Name': m.contactName,
          'Membership.Name': m.name,
          'Membership.Amount': money(Number(row.amount)),
          'Membership.TermStart': row.termStart,
          'Charge.Failure': message,
          'Charge.Attempts': String(row.chargeAttempts),
          'Membership.Link': `${services.config.publicUrl.replace(/\/$/, '')}/micronet/list/memberships/memberships/${m.membershipId}`,
        },
      });
    }
    const retrying = wait !== undefined && row.chargeAttempts < AUTOPAY_RETRY_DAYS.length;
    const amount = money(Number(row.amount));
    await queueNotice(tx, tenantId, {
      membershipId: m.membershipId,
      termEnd: addDays(row.termStart, -1),
      kind: `failed-${row.chargeAttempts}`,
      today,
      template: retrying ? autopayFailedMail : autopayOffMail,
      values: {
        'Membership.Name': m.name,
        'Membership.Amount': amount,
        'Charge.Failure': message,
        'Charge.NextAttempt': retrying ? addDays(today, wait as number) : '',
        'Charge.Attempts': String(row.chargeAttempts),
      },
    });
    await repo.insertHistory(tx, {
      tenantId,
      membershipId: m.membershipId,
      contactId: m.contactId,
      fromStatus: m.status,
      toStatus: m.status,
      changedOn: today,
      event:
        wait !== undefined && row.chargeAttempts < AUTOPAY_RETRY_DAYS.length
          ? `Autopay charge ${row.chargeAttempts} failed; next try ${addDays(today, wait)}`
          : `Autopay turned off after ${row.chargeAttempts} failed charges`,
      reason: message,
      changedBy: 'System',
    });
  };
