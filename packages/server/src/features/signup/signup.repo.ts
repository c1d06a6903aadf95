import {
  auditLog,
  type Database,
  signupRequests,
  statusMessages,
  type Tx,
  tenants,
  tenantUsers,
  termsAcceptances,
  termsOfUse,
  users,
} from '@guildhall/db';
import type { TenantSettings } from '@guildhall/shared';
import { and, eq, gt, sql } from 'drizzle-orm';

/** A user whose username or email is this value (any case): the name is then not free for a new account. */
export async function findAccountNamed(database: Database, value: string) {
  const key = value.trim().toLowerCase();
  const [u] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${key} or lower(${users.email}) = ${key}`)
    .limit(1);
  return u;
}

/** Sign-up links asked for one address since `since` (a flood of mails to one mailbox is refused silently). */
export async function recentRequestsFor(database: Database, email: string, since: Date): Promise<number> {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(signupRequests)
    .where(
      and(sql`lower(${signupRequests.email}) = ${email.toLowerCase()}`, gt(signupRequests.createdAt, since)),
    );
  return row?.n ?? 0;
}

export async function storeRequest(
  database: Database,
  input: {
    tokenHash: string;
    email: string;
    firstName: string;
    lastName: string;
    trialKey: string | null;
    ip: string;
    expiresAt: Date;
  },
): Promise<void> {
  await database.db.insert(signupRequests).values(input);
}

/** The request of a token, locked for the transaction: parallel completions of one link wait on each other. */
export async function lockRequest(tx: Tx, tokenHash: string) {
  const [r] = await tx
    .select()
    .from(signupRequests)
    .where(eq(signupRequests.tokenHash, tokenHash))
    .for('update')
    .limit(1);
  return r;
}

export async function readRequest(database: Database, tokenHash: string) {
  const [r] = await database.db
    .select()
    .from(signupRequests)
    .where(eq(signupRequests.tokenHash, tokenHash))
    .limit(1);
  return r;
}

export async function markUsed(tx: Tx, tokenHash: string, tenantId: string, userId: number): Promise<void> {
  await tx
    .update(signupRequests)
    .set({ usedAt: new Date(), provisionedTenantId: tenantId, administratorUserId: userId })
    .where(eq(signupRequests.tokenHash, tokenHash));
}

export interface NewAssociation {
  tenantId: string;
  name: string;
  slug: string;
  settings: TenantSettings;
  admin: { username: string; email: string; displayName: string; passwordHash: string };
  termsAcceptedAt: Date;
  welcome: string;
  signupAnswers: unknown;
}

/**
 * Writes what the sign-up feature owns of a new association, in the caller's transaction (scoped to the new tenant):
 * the tenant and its settings, the first administrator and their membership, the default terms of use of staff
 * (accepted by the administrator on the form) and of members, the welcome message on the home page, and the audit
 * entry. Answers the administrator's user id.
 */
export async function insertAssociation(tx: Tx, a: NewAssociation): Promise<number> {
  await tx.insert(tenants).values({ id: a.tenantId, name: a.name, slug: a.slug, settings: a.settings });
  const [user] = await tx
    .insert(users)
    .values({
      username: a.admin.username,
      email: a.admin.email,
      displayName: a.admin.displayName,
      passwordHash: a.admin.passwordHash,
      loginType: 'staff',
      passwordChangedAt: new Date(),
    })
    .returning({ id: users.id });
  if (!user) throw new Error('user insert returned nothing');
  // SET LOCAL, not set_config(): it reaches Citus workers (decision 0071).
  await tx.execute(sql.raw(`set local app.user_id = '${Math.trunc(Number(user.id))}'`));
  await tx.insert(tenantUsers).values({ tenantId: a.tenantId, userId: user.id, role: 'admin' });
  const [staffTerms] = await tx
    .insert(termsOfUse)
    .values({
      tenantId: a.tenantId,
      loginType: 'staff',
      title: 'Terms of use for staff',
      description: STAFF_TERMS,
      publishedBy: user.id,
    })
    .returning({ id: termsOfUse.id });
  if (!staffTerms) throw new Error('terms insert returned nothing');
  await tx.insert(termsAcceptances).values({
    tenantId: a.tenantId,
    termsId: staffTerms.id,
    userId: user.id,
    accepted: true,
    actedAt: a.termsAcceptedAt,
  });
  await tx.insert(termsOfUse).values({
    tenantId: a.tenantId,
    loginType: 'member',
    title: 'Terms of use for members',
    description: MEMBER_TERMS,
    publishedBy: user.id,
  });
  await tx
    .insert(statusMessages)
    .values({ tenantId: a.tenantId, kind: 'status', message: a.welcome, level: 'info' });
  await tx.insert(auditLog).values({
    tenantId: a.tenantId,
    actorUserId: user.id,
    action: 'sign-up',
    entity: 'tenant',
    entityId: a.tenantId,
    after: { name: a.name, administrator: a.admin.username, answers: a.signupAnswers },
  });
  return user.id;
}

export const STAFF_TERMS =
  'You use this back office on behalf of your association. Keep your password to yourself, sign out on shared computers, and handle members’ personal data only for the association’s purposes.';
export const MEMBER_TERMS =
  'By using the member area you agree to keep your password safe and to use the directory and the association’s communications only for the association’s purposes.';
