/** The member area: a member's own memberships (status, term, fees, the open invoice) and autopay on or off. */
import {
  membershipFeeItems,
  membershipInvoices,
  membershipMembers,
  memberships,
  type Tx,
} from '@guildhall/db';
import type { MyMembership } from '@guildhall/shared';
import { and, asc, desc, eq, inArray, or } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import * as repo from './memberships.repo.ts';

/** `contactId`: the member's own contact (the pipeline's `ownContactIdIfAny`), null when the sign-in names none. */
export async function myMemberships(
  tx: Tx,
  auth: AuthContext,
  contactId: number | null,
): Promise<MyMembership[]> {
  if (contactId === null) return [];
  // Their own, and the organisations' that name them as secondary members (member access through them).
  const covering = await tx
    .select({ id: membershipMembers.membershipId })
    .from(membershipMembers)
    .where(and(eq(membershipMembers.tenantId, auth.tenantId), eq(membershipMembers.contactId, contactId)));
  const rows = await tx
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.tenantId, auth.tenantId),
        covering.length > 0
          ? or(
              eq(memberships.contactId, contactId),
              inArray(
                memberships.membershipId,
                covering.map((c) => c.id),
              ),
            )
          : eq(memberships.contactId, contactId),
        eq(memberships.isDeleted, false),
      ),
    )
    .orderBy(desc(memberships.termEnd));
  const out: MyMembership[] = [];
  for (const m of rows) {
    const covered = m.contactId !== contactId;
    const fees = await tx
      .select()
      .from(membershipFeeItems)
      .where(
        and(
          eq(membershipFeeItems.tenantId, auth.tenantId),
          eq(membershipFeeItems.membershipId, m.membershipId),
        ),
      )
      .orderBy(asc(membershipFeeItems.itemId));
    const [open] = await tx
      .select()
      .from(membershipInvoices)
      .where(
        and(
          eq(membershipInvoices.tenantId, auth.tenantId),
          eq(membershipInvoices.membershipId, m.membershipId),
          eq(membershipInvoices.state, 'open'),
        ),
      )
      .orderBy(desc(membershipInvoices.termStart))
      .limit(1);
    out.push({
      MembershipId: m.membershipId,
      Name: m.name,
      Status: m.status,
      StatusDate: m.statusDate,
      TermStart: m.termStart,
      TermEnd: m.termEnd,
      BillFrequencyTypeId: m.billFrequencyTypeId,
      TermTotal: Number(m.termTotal),
      AutoPay: m.autoPay,
      Fees: fees.map((f) => ({
        Name: f.name,
        BillFrequencyTypeId: f.billFrequencyTypeId,
        Price: Number(f.price),
        PerBillAmount: Number(f.perBillAmount),
      })),
      // The organisation pays its dues: a secondary member sees the membership, not its bills.
      OpenInvoiceId: covered ? null : (open?.invoiceId ?? null),
      OpenAmount: covered || !open ? null : Number(open.amount),
      CoveredBy: covered ? m.contactName : null,
    });
  }
  return out;
}

/** A member turns autopay of their own membership on or off (the card itself is billing's). */
export async function setMyAutoPay(
  tx: Tx,
  auth: AuthContext,
  contactId: number | null,
  membershipId: number,
  autoPay: boolean,
) {
  const m = await repo.lockMembership(tx, auth.tenantId, membershipId);
  if (!m || contactId === null || m.contactId !== contactId) throw notFound();
  await repo.updateMembership(tx, auth.tenantId, membershipId, { autoPay, autoPayFailures: 0 });
  await audit(tx, auth, {
    action: 'update',
    entity: 'memberships',
    entityId: membershipId,
    before: { AutoPay: m.autoPay },
    after: { AutoPay: autoPay },
  });
  return myMemberships(tx, auth, contactId);
}
