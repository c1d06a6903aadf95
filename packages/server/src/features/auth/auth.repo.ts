import { createHash } from 'node:crypto';
import {
  type Database,
  loginFailures,
  passwordResetTokens,
  privacyAcceptances,
  rowsOf,
  type Tx,
  tenants,
  tenantUsers,
  termsAcceptances,
  termsOfUse,
  users,
  withTenantTx,
} from '@guildhall/db';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { forgetSessions } from '../../platform/session.ts';

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

/**
 * The tenant a user signs in to: the one they used last (`preferred`) while they are still active in it, else their
 * oldest active membership (read through the own-memberships policy). None when they are deactivated everywhere.
 */
export async function firstMembership(database: Database, userId: number, preferred?: string | null) {
  return database.db.transaction(async (tx) => {
    // SET LOCAL, not set_config(): it reaches Citus workers (decision 0071).
    await tx.execute(sql.raw(`set local app.user_id = '${Math.trunc(Number(userId))}'`));
    const [m] = await tx
      .select({ tenantId: tenantUsers.tenantId, role: tenantUsers.role })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.userId, userId), eq(tenantUsers.isActive, true)))
      .orderBy(
        sql`(${tenantUsers.tenantId} = ${preferred ?? null}::uuid) desc nulls last`,
        tenantUsers.createdAt,
      )
      .limit(1);
    return m;
  });
}

export const THROTTLE_WINDOW_MS = 15 * 60_000;
/** Failed sign-ins for one username from one address before that address is refused for the username. */
export const THROTTLE_MAX_FAILURES = 10;
/**
 * Failed sign-ins for one username from all addresses together before the username is refused from every address
 * it has not signed in from (decision 0080): spreading guesses over addresses buys no more of them.
 */
export const THROTTLE_MAX_ACCOUNT_FAILURES = 30;
/** An address the user signed in from this recently is theirs: a lockout aimed at the account spares it. */
const FAMILIAR_ADDRESS_DAYS = 30;

export interface Attempt {
  id: number;
  /** Set when the attempt is refused: seconds until the oldest failure that blocks it leaves the window. */
  retryAfterSeconds: number | null;
}

/**
 * Records a sign-in attempt before the password is checked, then counts the attempts of its username (from its
 * address and from all addresses) with it included. Recording first makes the limit hold under parallel attempts:
 * whichever of them counts last sees them all, so no more than the limit are ever let through to a check.
 */
export async function beginAttempt(database: Database, usernameKey: string, ip: string): Promise<Attempt> {
  const [row] = await database.db
    .insert(loginFailures)
    .values({ usernameKey, ip })
    .returning({ id: loginFailures.id });
  if (!row) throw new Error('login_failures insert returned nothing');
  const since = new Date(Date.now() - THROTTLE_WINDOW_MS).toISOString();
  const familiarSince = new Date(Date.now() - FAMILIAR_ADDRESS_DAYS * 86_400_000).toISOString();
  const r = await database.db.execute(
    sql`select count(*) filter (where f.ip = ${ip})::int as pair,
               count(*)::int as account,
               min(f.failed_at) filter (where f.ip = ${ip}) as pair_oldest,
               min(f.failed_at) as account_oldest,
               exists (select 1 from sessions s join users u on u.id = s.user_id
                        where lower(u.username) = ${usernameKey} and s.ip = ${ip}
                          and s.impersonator_user_id is null and s.created_at > ${familiarSince}) as familiar
          from login_failures f
         where f.username_key = ${usernameKey} and f.failed_at > ${since}`,
  );
  const c = rowsOf<{
    pair: number;
    account: number;
    pair_oldest: string | Date | null;
    account_oldest: string | Date | null;
    familiar: boolean;
  }>(r)[0];
  const retryAfter = (oldest: string | Date | null) =>
    oldest
      ? Math.max(1, Math.ceil((new Date(oldest).getTime() + THROTTLE_WINDOW_MS - Date.now()) / 1000))
      : 1;
  // Counts include this attempt: the limit is reached when the failures before it reach it.
  if (c && c.pair > THROTTLE_MAX_FAILURES)
    return { id: row.id, retryAfterSeconds: retryAfter(c.pair_oldest) };
  if (c && c.account > THROTTLE_MAX_ACCOUNT_FAILURES && !c.familiar)
    return { id: row.id, retryAfterSeconds: retryAfter(c.account_oldest) };
  return { id: row.id, retryAfterSeconds: null };
}

/** Forgets one attempt (refused before its check, or stopped by our own failure): it guessed nothing. */
export async function dropAttempt(database: Database, id: number): Promise<void> {
  await database.db.delete(loginFailures).where(eq(loginFailures.id, id));
}

/** A successful sign-in clears the failures of its username from its address (this attempt's included). */
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

/**
 * The privacy policy this user has yet to accept, or null: the association has none, or they accepted this text.
 * The version is a digest of the text, so a changed policy is asked again.
 */
export async function pendingPrivacyPolicy(
  tx: Tx,
  tenantId: string,
  userId: number,
  settings: Record<string, unknown>,
): Promise<{ Text: string; Url: string | null; Version: string } | null> {
  const text = typeof settings.privacyPolicy === 'string' ? settings.privacyPolicy.trim() : '';
  if (!text) return null;
  const version = privacyPolicyVersion(text);
  const [accepted] = await tx
    .select({ at: privacyAcceptances.acceptedAt })
    .from(privacyAcceptances)
    .where(
      and(
        eq(privacyAcceptances.tenantId, tenantId),
        eq(privacyAcceptances.userId, userId),
        eq(privacyAcceptances.policyVersion, version),
      ),
    )
    .limit(1);
  if (accepted) return null;
  const url =
    typeof settings.privacyPolicyUrl === 'string' && settings.privacyPolicyUrl
      ? settings.privacyPolicyUrl
      : null;
  return { Text: text, Url: url, Version: version };
}

/** The version of a privacy policy text: the first 16 bytes of its SHA-256, in hex. */
export function privacyPolicyVersion(text: string): string {
  return createHash('sha256').update(text.trim()).digest('hex').slice(0, 32);
}

/** Reset links one user may be sent in the window; more asks are answered the same and send nothing. */
export const RESET_MAX_PER_WINDOW = 3;
const RESET_WINDOW_MS = 15 * 60_000;

/**
 * Stores a reset token unless the user has been sent RESET_MAX_PER_WINDOW in the window; answers whether it was
 * stored. The user's lock makes the count and the insert one step for parallel asks.
 */
export async function storeResetToken(
  database: Database,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<boolean> {
  const since = new Date(Date.now() - RESET_WINDOW_MS).toISOString();
  return database.db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('password_reset'), hashtext(${String(userId)}))`,
    );
    const r = await tx.execute(
      sql`select count(*)::int as n from password_reset_tokens where user_id = ${userId} and created_at > ${since}`,
    );
    if ((rowsOf<{ n: number }>(r)[0]?.n ?? 0) >= RESET_MAX_PER_WINDOW) return false;
    await tx.insert(passwordResetTokens).values({ tokenHash, userId, expiresAt });
    return true;
  });
}

/**
 * Uses a reset token, once: it and every other outstanding token of its user die together, in one statement, so a
 * second link of the same user (or the same link sent twice at once) can never set a password after the first.
 * Answers the token's user, or nothing when it is unknown, used or expired.
 */
export async function consumeResetToken(database: Database, tokenHash: string): Promise<number | undefined> {
  const r = await database.db.execute(
    sql`update password_reset_tokens set used_at = now()
         where used_at is null
           and user_id = (select user_id from password_reset_tokens
                           where token_hash = ${tokenHash} and used_at is null and expires_at > now())
        returning user_id, token_hash`,
  );
  const row = rowsOf<{ user_id: string | number; token_hash: string }>(r).find(
    (t) => t.token_hash === tokenHash,
  );
  return row ? Number(row.user_id) : undefined;
}

/** Every outstanding reset token of a user dies (the password changed by other means). */
export async function revokeResetTokens(database: Database, userId: number): Promise<void> {
  await database.db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

/** Another user whose username or email is `value` (case-insensitive): a username may be neither. */
export async function findOtherUserNamed(database: Database, value: string, userId: number) {
  const key = value.toLowerCase();
  const [u] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(
      sql`(lower(${users.username}) = ${key} or lower(${users.email}) = ${key}) and ${users.id} <> ${userId}`,
    )
    .limit(1);
  return u;
}

export async function updateUser(
  database: Database,
  userId: number,
  values: Partial<typeof users.$inferInsert>,
) {
  await database.db.update(users).set(values).where(eq(users.id, userId));
  // What the session lookup reads of the user (their gates, time zone, interface) shows on their next request here.
  forgetSessions(database, { userId });
}

/** Whether a user belongs to the association and is active there; null when they do not belong to it. */
export async function membershipState(
  database: Database,
  tenantId: string,
  userId: number,
): Promise<{ isActive: boolean } | null> {
  return withTenantTx(database.db, { tenantId }, async (tx) => {
    const [m] = await tx
      .select({ isActive: tenantUsers.isActive })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, userId)))
      .limit(1);
    return m ?? null;
  });
}

/** The person's memberships with the associations' names (gh_my_associations, scoped to the caller). */
export async function myAssociations(database: Database, tenantId: string, userId: number) {
  return withTenantTx(database.db, { tenantId, userId }, async (tx) =>
    rowsOf<{ tenant_id: string; name: string; role: string }>(
      await tx.execute(sql`select tenant_id, name, role from gh_my_associations()`),
    ),
  );
}
