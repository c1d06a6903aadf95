import {
  type Database,
  invitationTokens,
  staffInvitations,
  type Tx,
  tenants,
  tenantUsers,
  users,
} from '@guildhall/db';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';

/** A user of the association whose address is `email` (case-insensitive). */
export async function memberWithEmail(tx: Tx, tenantId: string, email: string) {
  const [m] = await tx
    .select({ userId: users.id })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(tenantUsers.tenantId, tenantId), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(1);
  return m;
}

export async function pendingWithEmail(tx: Tx, tenantId: string, email: string) {
  const [i] = await tx
    .select({ invitationId: staffInvitations.invitationId })
    .from(staffInvitations)
    .where(
      and(
        eq(staffInvitations.tenantId, tenantId),
        eq(staffInvitations.status, 'pending'),
        sql`lower(${staffInvitations.email}) = ${email.toLowerCase()}`,
      ),
    )
    .limit(1);
  return i;
}

export async function insertInvitation(
  tx: Tx,
  values: {
    tenantId: string;
    email: string;
    displayName: string;
    role: 'admin' | 'staff';
    invitedBy: number;
    expiresAt: Date;
  },
) {
  const [row] = await tx.insert(staffInvitations).values(values).returning();
  if (!row) throw new Error('invitation insert returned nothing');
  return row;
}

/** The invitation, locked for the transaction (Resend, Revoke and Accept of one invitation wait on each other). */
export async function lockInvitation(tx: Tx, tenantId: string, invitationId: number) {
  const [row] = await tx
    .select()
    .from(staffInvitations)
    .where(and(eq(staffInvitations.tenantId, tenantId), eq(staffInvitations.invitationId, invitationId)))
    .for('update')
    .limit(1);
  return row;
}

/** Every live link of the invitation stops working (Resend, Revoke, Accept). */
export async function spendTokens(tx: Tx, tenantId: string, invitationId: number): Promise<void> {
  await tx
    .update(invitationTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(invitationTokens.tenantId, tenantId),
        eq(invitationTokens.invitationId, invitationId),
        isNull(invitationTokens.usedAt),
      ),
    );
}

export async function storeToken(
  tx: Tx,
  values: { tokenHash: string; tenantId: string; invitationId: number; expiresAt: Date },
): Promise<void> {
  await tx.insert(invitationTokens).values(values);
}

export async function markSent(tx: Tx, tenantId: string, invitationId: number, expiresAt: Date) {
  await tx
    .update(staffInvitations)
    .set({ sentAt: new Date(), expiresAt, sendCount: sql`${staffInvitations.sendCount} + 1` })
    .where(and(eq(staffInvitations.tenantId, tenantId), eq(staffInvitations.invitationId, invitationId)));
}

export async function setStatus(
  tx: Tx,
  tenantId: string,
  invitationId: number,
  values: Partial<typeof staffInvitations.$inferInsert>,
) {
  await tx
    .update(staffInvitations)
    .set(values)
    .where(and(eq(staffInvitations.tenantId, tenantId), eq(staffInvitations.invitationId, invitationId)));
}

/** The pending invitations of the association, with the inviter's name. */
export async function listPending(tx: Tx, tenantId: string) {
  return tx
    .select({
      invitationId: staffInvitations.invitationId,
      email: staffInvitations.email,
      displayName: staffInvitations.displayName,
      role: staffInvitations.role,
      invitedByName: users.displayName,
      sentAt: staffInvitations.sentAt,
      expiresAt: staffInvitations.expiresAt,
      sendCount: staffInvitations.sendCount,
    })
    .from(staffInvitations)
    .leftJoin(users, eq(users.id, staffInvitations.invitedBy))
    .where(and(eq(staffInvitations.tenantId, tenantId), eq(staffInvitations.status, 'pending')))
    .orderBy(asc(staffInvitations.email));
}

/** A live token (not used, not expired): its association and invitation. Read before any association is known. */
export async function liveToken(database: Database | Tx, tokenHash: string) {
  const q = 'db' in database ? database.db : database;
  const [t] = await q
    .select({ tenantId: invitationTokens.tenantId, invitationId: invitationTokens.invitationId })
    .from(invitationTokens)
    .where(
      and(
        eq(invitationTokens.tokenHash, tokenHash),
        isNull(invitationTokens.usedAt),
        sql`${invitationTokens.expiresAt} > now()`,
      ),
    )
    .limit(1);
  return t;
}

/** Spends one token, once: answers whether this call spent it (a second use, even a parallel one, answers false). */
export async function spendToken(tx: Tx, tokenHash: string): Promise<boolean> {
  const r = await tx
    .update(invitationTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(invitationTokens.tokenHash, tokenHash),
        isNull(invitationTokens.usedAt),
        sql`${invitationTokens.expiresAt} > now()`,
      ),
    )
    .returning({ h: invitationTokens.tokenHash });
  return r.length === 1;
}

export async function tenantName(tx: Tx, tenantId: string): Promise<string | undefined> {
  const [t] = await tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return t?.name;
}

export async function accountWithEmail(tx: Tx, email: string) {
  const [u] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return u;
}

export async function findUserNamed(tx: Tx, value: string) {
  const key = value.toLowerCase();
  const [u] = await tx
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${key} or lower(${users.email}) = ${key}`)
    .orderBy(users.id)
    .limit(1);
  return u;
}

export async function insertUser(
  tx: Tx,
  values: { username: string; email: string; displayName: string; passwordHash: string },
): Promise<number> {
  const [u] = await tx
    .insert(users)
    .values({ ...values, loginType: 'staff', passwordChangedAt: new Date() })
    .returning({ id: users.id });
  if (!u) throw new Error('user insert returned nothing');
  return u.id;
}

export async function isMember(tx: Tx, tenantId: string, userId: number): Promise<boolean> {
  const [m] = await tx
    .select({ u: tenantUsers.userId })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, userId)))
    .limit(1);
  return Boolean(m);
}

export async function addMembership(tx: Tx, tenantId: string, userId: number, role: 'admin' | 'staff') {
  await tx.insert(tenantUsers).values({ tenantId, userId, role });
}

export async function userName(tx: Tx, userId: number): Promise<string | undefined> {
  const [u] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, userId)).limit(1);
  return u?.name;
}
