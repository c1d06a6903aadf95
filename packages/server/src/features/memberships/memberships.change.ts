/**
 * An upgrade or downgrade mid-term (decision 0130, `midTermChangeParts`): the unused part of the old term's price
 * comes back as a credit note and the days left are invoiced at the new price, both through billing (never a money
 * path of our own). The credit is applied to the new invoice as far as it owes; what is left stays the member's
 * credit. The same rule answers the preview staff see before confirming, so the two never disagree.
 */
import { membershipFeeItems, membershipInvoices, q, runFragment, type Tx } from '@guildhall/db';
import {
  addDays,
  billFrequencyKind,
  type MembershipChange,
  type MembershipChangeAnswer,
  membershipName,
  midTermChangeParts,
  renewalKey,
  todayIn,
} from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { badRequest, HttpError, notFound } from '../../platform/errors.ts';
import { tenantMoney } from '../../platform/money.ts';
import type { Services } from '../../platform/services.ts';
import { billingApi } from '../billing/billing.module.ts';
import { renewalLines } from './memberships.billing.ts';
import * as repo from './memberships.repo.ts';
import { priceChoice } from './memberships.service.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'userId' | 'impersonatorUserId'>;

export const CHANGE_MESSAGES = {
  notActive: 'Only an active membership can be upgraded or downgraded; approve or reinstate it first.',
  termEnded: 'The term has ended: renew the membership instead of changing it.',
  same: 'That is the membership it already is: choose another type, level, chapter or frequency.',
  renewalPaid: (number: string) =>
    `The renewal invoice ${number} for the next term is already paid in part or in full: refund or unapply its payments (or void it) before changing the membership, so the next term can be billed at the new price.`,
} as const;

/** The renewal already invoiced for the term after this one, if the run made it (with its invoice). */
async function nextRenewal(tx: Tx, tenantId: string, membershipId: number, termEnd: string) {
  const [row] = await tx
    .select()
    .from(membershipInvoices)
    .where(
      and(
        eq(membershipInvoices.tenantId, tenantId),
        eq(membershipInvoices.membershipId, membershipId),
        eq(membershipInvoices.kind, 'renewal'),
        eq(membershipInvoices.termStart, addDays(termEnd, 1)),
      ),
    )
    .for('update');
  if (!row?.invoiceId) return null;
  return { row, invoice: await billingApi.invoiceSummary(tx, tenantId, row.invoiceId) };
}

/** The old term's recurring price: what the member pays per term, one-time fees left out. */
async function oldTermCents(tx: Tx, tenantId: string, membershipId: number): Promise<number> {
  const items = await tx
    .select()
    .from(membershipFeeItems)
    .where(and(eq(membershipFeeItems.tenantId, tenantId), eq(membershipFeeItems.membershipId, membershipId)));
  return items
    .filter((i) => billFrequencyKind(i.billFrequencyTypeId) !== 'oneTime')
    .reduce((sum, i) => sum + Number(i.price) * (i.quantity ?? 1), 0);
}

async function plan(tx: Tx, tenantId: string, membershipId: number, change: MembershipChange) {
  const m = await repo.lockMembership(tx, tenantId, membershipId);
  if (!m) throw notFound();
  if (m.status !== 'active') throw new HttpError(409, CHANGE_MESSAGES.notActive);
  const today = todayIn(await repo.tenantTimezone(tx, tenantId));
  if (!m.termStart || !m.termEnd || m.termEnd < today) throw new HttpError(409, CHANGE_MESSAGES.termEnded);
  const typeChanged = change.MembershipTypeId != null && change.MembershipTypeId !== m.membershipTypeId;
  const choice = {
    MembershipTypeId: change.MembershipTypeId ?? m.membershipTypeId,
    // A new type has its own levels and frequencies: the old ones are not carried over.
    MembershipLevelId:
      change.MembershipLevelId !== undefined
        ? change.MembershipLevelId
        : typeChanged
          ? null
          : m.membershipLevelId,
    ChapterId: change.ChapterId !== undefined ? change.ChapterId : m.chapterId,
    BillFrequencyTypeId:
      change.BillFrequencyTypeId != null
        ? change.BillFrequencyTypeId
        : typeChanged
          ? null
          : m.billFrequencyTypeId,
    Units: m.units,
    JoinDate: m.termStart,
  };
  const same =
    choice.MembershipTypeId === m.membershipTypeId &&
    (choice.MembershipLevelId ?? null) === m.membershipLevelId &&
    (choice.ChapterId ?? null) === m.chapterId &&
    (choice.BillFrequencyTypeId ?? m.billFrequencyTypeId) === m.billFrequencyTypeId;
  if (same) throw new HttpError(409, CHANGE_MESSAGES.same);
  // A renewal invoice already made for the next term is re-issued at the new price (below), unless money is on it.
  const renewal = await nextRenewal(tx, tenantId, membershipId, m.termEnd);
  if (renewal && renewal.invoice.status !== 'open' && renewal.invoice.status !== 'void')
    throw new HttpError(409, CHANGE_MESSAGES.renewalPaid(renewal.invoice.number));
  if (renewal && renewal.invoice.paidCents > 0)
    throw new HttpError(409, CHANGE_MESSAGES.renewalPaid(renewal.invoice.number));
  const priced = await priceChoice(tx, tenantId, choice, { firstTerm: false });
  if (priced.price.UnpricedFeeIds.length > 0)
    throw badRequest('No price is set for these units: check the units or the fee formulas.', {
      Units: ['No bracket of the fee formula holds these units.'],
    });
  const oldCents = await oldTermCents(tx, tenantId, membershipId);
  const newCents = priced.price.TermTotal;
  const parts = midTermChangeParts(oldCents, newCents, { start: m.termStart, end: m.termEnd }, today);
  const toName = membershipName({
    TypeName: priced.type.name,
    LevelName: priced.levelName,
    ChapterName: priced.chapterName,
  });
  const answer: MembershipChangeAnswer = {
    MembershipId: m.membershipId,
    FromName: m.name,
    ToName: toName,
    Direction: newCents > oldCents ? 'upgrade' : newCents < oldCents ? 'downgrade' : 'same price',
    OldTermTotal: oldCents,
    NewTermTotal: newCents,
    TermStart: m.termStart,
    TermEnd: m.termEnd,
    DaysLeft: parts.daysLeft,
    DaysInTerm: parts.daysInTerm,
    CreditCents: parts.creditCents,
    ChargeCents: parts.chargeCents,
    NetCents: parts.netCents,
    CreditId: null,
    InvoiceId: null,
    message: '',
  };
  return { m, today, choice, priced, answer, renewal };
}

/** What the change would do: the credit, the new invoice and the net, nothing written. */
export async function previewChange(
  tx: Tx,
  tenantId: string,
  membershipId: number,
  change: MembershipChange,
): Promise<MembershipChangeAnswer> {
  const { answer } = await plan(tx, tenantId, membershipId, change);
  return { ...answer, message: `${answer.FromName} to ${answer.ToName}: ${answer.Direction}.` };
}

/** Makes the change: the invoice for the days left, the credit note applied to it, the new fees, history, audit. */
export async function changeMembership(
  tx: Tx,
  services: Services,
  caller: Caller,
  membershipId: number,
  change: MembershipChange,
): Promise<MembershipChangeAnswer> {
  const tenantId = caller.tenantId;
  const { m, today, choice, priced, answer, renewal } = await plan(tx, tenantId, membershipId, change);
  const [counted] = await runFragment<{ n: number | string }>(
    tx,
    q`select count(*) as n from membership_history where tenant_id = ${tenantId}
        and membership_id = ${membershipId} and event like 'Changed %'`,
  );
  const key = `membership:${membershipId}:change:${Number(counted?.n ?? 0) + 1}`;
  const span = `${today} to ${m.termEnd}`;
  let invoiceId: number | null = null;
  if (answer.ChargeCents > 0) {
    const invoice = await billingApi.createInvoice(tx, services, tenantId, {
      contactId: m.contactId,
      lines: [
        {
          description: `${answer.ToName}: ${answer.DaysLeft} of ${answer.DaysInTerm} days (${span})`,
          unitPriceCents: answer.ChargeCents,
          quantity: 1,
        },
      ],
      source: { kind: 'membership', id: membershipId },
      idempotencyKey: key,
      memo: `${answer.FromName} changed to ${answer.ToName}`,
    });
    invoiceId = invoice.invoiceId;
    await tx
      .insert(membershipInvoices)
      .values({
        tenantId,
        membershipId,
        kind: 'change',
        termStart: today,
        termEnd: m.termEnd as string,
        invoiceId,
        amount: invoice.totalCents,
      })
      .onConflictDoNothing();
  }
  let creditId: number | null = null;
  if (answer.CreditCents > 0) {
    const reason = `${answer.FromName}: unused ${answer.DaysLeft} of ${answer.DaysInTerm} days (${span})`;
    creditId =
      invoiceId === null
        ? (
            await billingApi.issueCredit(tx, services, tenantId, {
              contactId: m.contactId,
              amountCents: answer.CreditCents,
              reason,
              source: { kind: 'membership', id: membershipId },
            })
          ).creditId
        : (
            await billingApi.creditNote(tx, services, tenantId, invoiceId, {
              amountCents: answer.CreditCents,
              reason,
            })
          ).creditId;
  }
  await tx
    .delete(membershipFeeItems)
    .where(and(eq(membershipFeeItems.tenantId, tenantId), eq(membershipFeeItems.membershipId, membershipId)));
  await repo.insertFeeItems(
    tx,
    priced.price.FeeItems.map((item) => ({
      tenantId,
      membershipId,
      feeId: item.FeeId,
      name: item.Name,
      billFrequencyTypeId: item.BillFrequencyTypeId,
      originalPrice: item.OriginalPrice,
      price: item.Price,
      quantity: item.Quantity,
      billFrequency: item.BillFrequency,
      perBillAmount: item.PerBillAmount,
      revenueAccount: item.RevenueAccount,
    })),
  );
  const updated = await repo.updateMembership(tx, tenantId, membershipId, {
    membershipTypeId: choice.MembershipTypeId,
    membershipLevelId: priced.price.MembershipLevelId,
    chapterId: choice.ChapterId ?? null,
    name: answer.ToName,
    billFrequencyTypeId: priced.price.BillFrequencyTypeId,
    termTotal: answer.NewTermTotal,
  });
  const reissued = renewal
    ? await reissueRenewal(
        tx,
        services,
        tenantId,
        { ...m, name: answer.ToName },
        choice,
        renewal,
        answer.ToName,
        today,
      )
    : null;
  const by = await repo.userLabel(tx, caller.impersonatorUserId ?? caller.userId);
  const money = await tenantMoney(tx, tenantId);
  await repo.insertHistory(tx, {
    tenantId,
    membershipId,
    contactId: m.contactId,
    fromStatus: m.status,
    toStatus: updated.status,
    changedOn: today,
    event: `Changed (${answer.Direction}) from ${answer.FromName} to ${answer.ToName}`,
    reason: `Credit ${money(answer.CreditCents)}, new invoice ${money(answer.ChargeCents)}${
      reissued ? `; ${reissued.sentence}` : ''
    }`,
    changedBy: by,
  });
  await audit(tx, caller, {
    action: 'change',
    entity: 'memberships',
    entityId: membershipId,
    before: { Name: m.name, TermTotal: answer.OldTermTotal, BillFrequencyTypeId: m.billFrequencyTypeId },
    after: {
      Name: updated.name,
      TermTotal: answer.NewTermTotal,
      BillFrequencyTypeId: updated.billFrequencyTypeId,
      CreditCents: answer.CreditCents,
      ChargeCents: answer.ChargeCents,
      CreditId: creditId,
      InvoiceId: invoiceId,
      RenewalInvoiceId: reissued?.invoiceId ?? null,
    },
  });
  return {
    ...answer,
    CreditId: creditId,
    InvoiceId: invoiceId,
    message: `Changed to ${answer.ToName}.${reissued ? ` ${reissued.sentence}.` : ''}`,
  };
}

/**
 * The next term's renewal invoice, made before the change at the old price: voided (when still open; nothing is
 * paid on it, `plan` refused otherwise) and made again at the new choice's renewal price for the same term, under
 * a fresh idempotency key. The renewal row points at the new invoice; its autopay schedule starts again.
 */
async function reissueRenewal(
  tx: Tx,
  services: Services,
  tenantId: string,
  m: { membershipId: number; contactId: number; name: string; units: string | null },
  choice: Parameters<typeof priceChoice>[2],
  renewal: NonNullable<Awaited<ReturnType<typeof nextRenewal>>>,
  toName: string,
  today: string,
): Promise<{ invoiceId: number | null; sentence: string }> {
  const { row, invoice: old } = renewal;
  if (old.status === 'open')
    await billingApi.voidInvoice(
      tx,
      services,
      tenantId,
      old.invoiceId,
      `Membership changed to ${toName}: re-issued at the new price`,
    );
  const price = (
    await priceChoice(tx, tenantId, { ...choice, JoinDate: row.termStart }, { firstTerm: false })
  ).price;
  const lines = renewalLines(price, { start: row.termStart, end: row.termEnd });
  const invoice =
    lines.length === 0
      ? null
      : await billingApi.createInvoice(tx, services, tenantId, {
          contactId: m.contactId,
          lines,
          // Due on the last day of the current term, as the run makes it (today once that day has passed).
          dueDate: addDays(row.termStart, -1) < today ? today : addDays(row.termStart, -1),
          source: { kind: 'membership', id: m.membershipId },
          idempotencyKey: `${renewalKey(m.membershipId, row.termStart)}:reissue:${old.invoiceId}`,
          memo: `${toName}: renewal for ${row.termStart} to ${row.termEnd} (re-issued after the change)`,
        });
  await tx
    .update(membershipInvoices)
    .set({
      invoiceId: invoice?.invoiceId ?? null,
      amount: invoice?.totalCents ?? 0,
      state: invoice ? 'open' : 'paid',
      chargeAttempts: 0,
      nextChargeOn: invoice && row.nextChargeOn ? row.nextChargeOn : null,
    })
    .where(
      and(
        eq(membershipInvoices.tenantId, tenantId),
        eq(membershipInvoices.membershipInvoiceId, row.membershipInvoiceId),
      ),
    );
  const money = await tenantMoney(tx, tenantId);
  return {
    invoiceId: invoice?.invoiceId ?? null,
    sentence: invoice
      ? `Renewal invoice ${old.number} voided and ${invoice.number} issued at the new price (${money(invoice.totalCents)})`
      : `Renewal invoice ${old.number} voided: the new choice owes nothing for the next term`,
  };
}
