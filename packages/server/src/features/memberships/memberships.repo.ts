/** Queries of the memberships feature beyond the generic engine: the setup a price needs, lifecycle writes. */
import {
  billFrequencyOptions,
  chapters,
  contacts,
  membershipFeeItems,
  membershipFees,
  membershipHistory,
  membershipLevels,
  memberships,
  membershipTypes,
  rowsOf,
  type Tx,
  tenants,
} from '@guildhall/db';
import { and, asc, eq, sql } from 'drizzle-orm';

export type MembershipRow = typeof memberships.$inferSelect;
export type MembershipTypeRow = typeof membershipTypes.$inferSelect;

export async function tenantTimezone(tx: Tx, tenantId: string): Promise<string> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId));
  const settings = row?.settings as { defaultTimezone?: string } | undefined;
  return settings?.defaultTimezone ?? 'America/Chicago';
}

export async function contactName(tx: Tx, tenantId: string, contactId: number): Promise<string | null> {
  const [row] = await tx
    .select({ name: contacts.displayName })
    .from(contacts)
    .where(
      and(eq(contacts.tenantId, tenantId), eq(contacts.contactId, contactId), eq(contacts.isDeleted, false)),
    );
  return row?.name ?? null;
}

export async function membershipType(tx: Tx, tenantId: string, typeId: number) {
  const [row] = await tx
    .select()
    .from(membershipTypes)
    .where(
      and(
        eq(membershipTypes.tenantId, tenantId),
        eq(membershipTypes.membershipTypeId, typeId),
        eq(membershipTypes.isDeleted, false),
      ),
    );
  return row ?? null;
}

export async function typeSetup(tx: Tx, tenantId: string, typeId: number) {
  const [levels, fees, options] = await Promise.all([
    tx
      .select()
      .from(membershipLevels)
      .where(
        and(
          eq(membershipLevels.tenantId, tenantId),
          eq(membershipLevels.membershipTypeId, typeId),
          eq(membershipLevels.isDeleted, false),
        ),
      )
      .orderBy(asc(membershipLevels.sortOrder), asc(membershipLevels.membershipLevelId)),
    tx
      .select()
      .from(membershipFees)
      .where(
        and(
          eq(membershipFees.tenantId, tenantId),
          eq(membershipFees.membershipTypeId, typeId),
          eq(membershipFees.isDeleted, false),
        ),
      )
      .orderBy(asc(membershipFees.feeId), asc(membershipFees.feePriceId)),
    tx
      .select()
      .from(billFrequencyOptions)
      .where(
        and(
          eq(billFrequencyOptions.tenantId, tenantId),
          eq(billFrequencyOptions.membershipTypeId, typeId),
          eq(billFrequencyOptions.isDeleted, false),
        ),
      )
      .orderBy(asc(billFrequencyOptions.billFrequencyTypeId)),
  ]);
  return { levels, fees, options };
}

export async function chapterName(tx: Tx, tenantId: string, chapterId: number): Promise<string | null> {
  const [row] = await tx
    .select({ name: chapters.name })
    .from(chapters)
    .where(
      and(eq(chapters.tenantId, tenantId), eq(chapters.chapterId, chapterId), eq(chapters.isDeleted, false)),
    );
  return row?.name ?? null;
}

export async function allChapters(tx: Tx, tenantId: string) {
  return tx
    .select({ ChapterId: chapters.chapterId, Name: chapters.name })
    .from(chapters)
    .where(and(eq(chapters.tenantId, tenantId), eq(chapters.isDeleted, false)))
    .orderBy(asc(chapters.name));
}

export async function openTypes(tx: Tx, tenantId: string) {
  return tx
    .select()
    .from(membershipTypes)
    .where(
      and(
        eq(membershipTypes.tenantId, tenantId),
        eq(membershipTypes.isDeleted, false),
        eq(membershipTypes.isActive, true),
      ),
    )
    .orderBy(asc(membershipTypes.name));
}

export async function lockMembership(tx: Tx, tenantId: string, membershipId: number) {
  const [row] = await tx
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.tenantId, tenantId),
        eq(memberships.membershipId, membershipId),
        eq(memberships.isDeleted, false),
      ),
    )
    .for('update');
  return row ?? null;
}

export async function insertMembership(tx: Tx, values: typeof memberships.$inferInsert) {
  const [row] = await tx.insert(memberships).values(values).returning();
  if (!row) throw new Error('membership insert returned nothing');
  return row;
}

export async function insertFeeItems(tx: Tx, rows: (typeof membershipFeeItems.$inferInsert)[]) {
  if (rows.length > 0) await tx.insert(membershipFeeItems).values(rows);
}

export async function updateMembership(
  tx: Tx,
  tenantId: string,
  membershipId: number,
  values: Partial<typeof memberships.$inferInsert>,
) {
  const [row] = await tx
    .update(memberships)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.membershipId, membershipId)))
    .returning();
  if (!row) throw new Error('membership update found nothing');
  return row;
}

export async function insertHistory(tx: Tx, values: typeof membershipHistory.$inferInsert) {
  await tx.insert(membershipHistory).values(values);
}

export async function userLabel(tx: Tx, userId: number | null): Promise<string> {
  if (userId === null) return 'System';
  const rows = rowsOf<{ label: string }>(
    await tx.execute(
      sql`select coalesce(nullif(display_name, ''), username) as label from user_directory where user_id = ${userId}`,
    ),
  );
  return rows[0]?.label ?? 'Staff';
}
