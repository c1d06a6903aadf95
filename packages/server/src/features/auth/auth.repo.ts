import {
  type Database,
  loginFailures,
  passwordResetTokens,
  rowsOf,
  type Tx,
  tenants,
  tenantUsers,
  termsAcceptances,
  termsOfUse,
  users,
  withTenantTx,
} from '@guildhall/db';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';

export async function findUserByUsername(database: Database, username: string) {
  const [u] = await database.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return u;
}

export async function findUserByUsernameOrEmail(database: Database, value: string) {
  const key = value.toLowerCase();
  const [u] = await database.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${key} or lower(${users.email}) = ${key}`)
    .orderBy(users.id)
    .limit(1);
  return u;
}

/** Reads a user through the given executor: inside a transaction pass the transaction (PGlite has one connection). */
export async function getUser(executor: Database | Tx, userId: number) {
  const q = 'db' in executor ? executor.db : executor;
  const [u] = await q.select().from(users).where(eq(users.id, userId)).limit(1);
  return u;
}

/** The tenant a user signs in to: their oldest membership (read through the own-memberships policy). */
export async function firstMembership(database: Database, userId: number) {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.user_id', ${String(userId)}, true)`);
    const [m] = await tx
      .select({ tenantId: tenantUsers.tenantId, role: tenantUsers.role })
      .from(tenantUsers)
      .where(eq(tenantUsers.userId, userId))
      .orderBy(tenantUsers.createdAt)
      .limit(1);
    return m;
  });
}

const THROTTLE_WINDOW_MS = 15 * 60_000;
export const THROTTLE_MAX_FAILURES = 10;

/** Failures for one username from one address in the window; the oldest tells when the block lifts. */
export async function recentFailures(database: Database, usernameKey: string, ip: string) {
  const since = new Date(Date.now() - THROTTLE_WINDOW_MS);
  const r = await database.db.execute(
    sql`select count(*)::int as n, min(failed_at) as oldest from login_failures
        where username_key = ${usernameKey} and ip = ${ip} and failed_at > ${since.toISOString()}`,
  );
  const row = rowsOf<{ n: number; oldest: string | Date | null }>(r)[0];
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return {
    count: row?.n ?? 0,
    retryAfterSeconds: oldest
      ? Math.max(1, Math.ceil((oldest.getTime() + THROTTLE_WINDOW_MS - Date.now()) / 1000))
      : 0,
  };
}

export async function recordFailure(database: Database, usernameKey: string, ip: string): Promise<void> {
  await database.db.insert(loginFailures).values({ usernameKey, ip });
}

export async function clearFailures(database: Database, usernameKey: string, ip: string): Promise<void> {
  await database.db
    .delete(loginFailures)
    .where(and(eq(loginFailures.usernameKey, usernameKey), eq(loginFailures.ip, ip)));
}

export async function loadIdentity(tx: Tx, tenantId: string, userId: number) {
  const [row] = await tx
    .select({ user: users, tenant: tenants, membership: tenantUsers })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, userId)))
    .limit(1);
  return row;
}

/** The latest terms of the user's login type, when the user has not accepted them. */
export async function pendingTerms(tx: Tx, tenantId: string, userId: number, loginType: 'staff' | 'member') {
  const [latest] = await tx
    .select()
    .from(termsOfUse)
    .where(and(eq(termsOfUse.tenantId, tenantId), eq(termsOfUse.loginType, loginType)))
    .orderBy(desc(termsOfUse.id))
    .limit(1);
  if (!latest) return [];
  const [accepted] = await tx
    .select({ a: termsAcceptances.accepted })
    .from(termsAcceptances)
    .where(
      and(
        eq(termsAcceptances.tenantId, tenantId),
        eq(termsAcceptances.termsId, latest.id),
        eq(termsAcceptances.userId, userId),
        eq(termsAcceptances.accepted, true),
      ),
    )
    .limit(1);
  return accepted ? [] : [latest];
}

export async function storeResetToken(
  database: Database,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
) {
  await database.db.insert(passwordResetTokens).values({ tokenHash, userId, expiresAt });
}

/** Marks a reset token used, once; answers its user or nothing when unknown, used or expired. */
export async function consumeResetToken(database: Database, tokenHash: string): Promise<number | undefined> {
  const [row] = await database.db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  return row?.userId;
}

export async function updateUser(
  database: Database,
  userId: number,
  values: Partial<typeof users.$inferInsert>,
) {
  await database.db.update(users).set(values).where(eq(users.id, userId));
}

export async function isMemberOf(database: Database, tenantId: string, userId: number): Promise<boolean> {
  return withTenantTx(database.db, { tenantId }, async (tx) => {
    const [m] = await tx
      .select({ u: tenantUsers.userId })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, userId)))
      .limit(1);
    return Boolean(m);
  });
}
