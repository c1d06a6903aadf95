/**
 * An organisation's secondary members (SecondaryMemberList): the named people its membership covers, who get
 * member access through it. Only a membership of an organisation type has them, as many as its level's
 * MaxSecondaryMembers allows (no limit when the level sets none); the organisation's own contact is its primary.
 */
import { membershipMembers, memberships, q, runFragment, type Tx } from '@guildhall/db';
import { type SecondaryMembers, todayIn } from '@guildhall/shared';
import { and, asc, eq } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { badRequest, HttpError, notFound } from '../../platform/errors.ts';
import * as repo from './memberships.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'userId' | 'impersonatorUserId'>;

export const SECONDARY_MESSAGES = {
  notOrganization: 'Only an organisation’s membership has secondary members.',
  full: (limit: number) =>
    `This level covers ${limit} secondary member${limit === 1 ? '' : 's'}: remove one first, or change the level.`,
  already: 'This person is already a secondary member of this membership.',
  primary: 'The organisation itself is the primary member: choose a person.',
  ended: 'A dropped or lapsed membership gives nobody member access.',
} as const;

async function contextOf(tx: Tx, tenantId: string, membershipId: number, lock = false) {
  const m = lock
    ? await repo.lockMembership(tx, tenantId, membershipId)
    : ((
        await tx
          .select()
          .from(memberships)
          .where(
            and(
              eq(memberships.tenantId, tenantId),
              eq(memberships.membershipId, membershipId),
              eq(memberships.isDeleted, false),
            ),
          )
      )[0] ?? null);
  if (!m) throw notFound();
  const type = await repo.membershipType(tx, tenantId, m.membershipTypeId);
  const [level] =
    m.membershipLevelId === null
      ? []
      : await runFragment<{ max_secondary_members: number | null }>(
          tx,
          q`select max_secondary_members from membership_levels where tenant_id = ${tenantId}
              and membership_level_id = ${m.membershipLevelId}`,
        );
  return { m, isOrganization: type?.isOrganization ?? false, limit: level?.max_secondary_members ?? null };
}

export async function list(tx: Tx, tenantId: string, membershipId: number): Promise<SecondaryMembers> {
  const { m, isOrganization, limit } = await contextOf(tx, tenantId, membershipId);
  const rows = await tx
    .select()
    .from(membershipMembers)
    .where(and(eq(membershipMembers.tenantId, tenantId), eq(membershipMembers.membershipId, membershipId)))
    .orderBy(asc(membershipMembers.contactName));
  return {
    MembershipId: m.membershipId,
    IsOrganization: isOrganization,
    PrimaryContactId: m.contactId,
    PrimaryName: m.contactName,
    Limit: limit,
    Members: rows.map((r) => ({
      ContactId: r.contactId,
      ContactName: r.contactName,
      AddedOn: r.addedOn,
      AddedBy: r.addedBy,
    })),
  };
}

export async function add(tx: Tx, caller: Caller, membershipId: number, contactId: number) {
  const tenantId = caller.tenantId;
  const { m, isOrganization, limit } = await contextOf(tx, tenantId, membershipId, true);
  if (!isOrganization) throw new HttpError(409, SECONDARY_MESSAGES.notOrganization);
  if (m.status === 'dropped' || m.status === 'lapsed') throw new HttpError(409, SECONDARY_MESSAGES.ended);
  if (contactId === m.contactId) throw new HttpError(409, SECONDARY_MESSAGES.primary);
  const name = await repo.contactName(tx, tenantId, contactId);
  if (name === null) throw badRequest('Choose the person.', { ContactId: ['Unknown contact.'] });
  const current = await list(tx, tenantId, membershipId);
  if (current.Members.some((x) => x.ContactId === contactId))
    throw new HttpError(409, SECONDARY_MESSAGES.already);
  if (limit !== null && current.Members.length >= limit)
    throw new HttpError(409, SECONDARY_MESSAGES.full(limit));
  const today = todayIn(await repo.tenantTimezone(tx, tenantId));
  const by = await repo.userLabel(tx, caller.impersonatorUserId ?? caller.userId);
  await tx.insert(membershipMembers).values({
    tenantId,
    membershipId,
    contactId,
    contactName: name,
    addedOn: today,
    addedBy: by,
  });
  await repo.insertHistory(tx, {
    tenantId,
    membershipId,
    contactId: m.contactId,
    fromStatus: m.status,
    toStatus: m.status,
    changedOn: today,
    event: `Secondary member added: ${name}`,
    changedBy: by,
  });
  await audit(tx, caller, {
    action: 'addSecondaryMember',
    entity: 'memberships',
    entityId: membershipId,
    after: { ContactId: contactId, ContactName: name },
  });
  return list(tx, tenantId, membershipId);
}

export async function remove(tx: Tx, caller: Caller, membershipId: number, contactId: number) {
  const tenantId = caller.tenantId;
  const { m } = await contextOf(tx, tenantId, membershipId, true);
  const [gone] = await tx
    .delete(membershipMembers)
    .where(
      and(
        eq(membershipMembers.tenantId, tenantId),
        eq(membershipMembers.membershipId, membershipId),
        eq(membershipMembers.contactId, contactId),
      ),
    )
    .returning();
  if (!gone) throw notFound();
  const today = todayIn(await repo.tenantTimezone(tx, tenantId));
  const by = await repo.userLabel(tx, caller.impersonatorUserId ?? caller.userId);
  await repo.insertHistory(tx, {
    tenantId,
    membershipId,
    contactId: m.contactId,
    fromStatus: m.status,
    toStatus: m.status,
    changedOn: today,
    event: `Secondary member removed: ${gone.contactName}`,
    changedBy: by,
  });
  await audit(tx, caller, {
    action: 'removeSecondaryMember',
    entity: 'memberships',
    entityId: membershipId,
    before: { ContactId: contactId, ContactName: gone.contactName },
  });
  return list(tx, tenantId, membershipId);
}
