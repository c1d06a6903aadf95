import { createHash, randomBytes } from 'node:crypto';
import { type Database, rowsOf, sessions, type Tx, withOpeningTx } from '@guildhall/db';
import { DEFAULT_TENANT_SETTINGS, type LoginType, type Role, type TenantSettings } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './context.ts';

export const SESSION_COOKIE = 'gh_session';

/** 256 random bits; the database keeps only their SHA-256. */
export function newSessionToken(): { token: string; id: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, id: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface LookupRow {
  session_id: string;
  user_id: string | number;
  tenant_id: string;
  impersonator_user_id: string | number | null;
  role: Role;
  login_type: LoginType;
  ui_version: number;
  terms_pending: boolean;
  prompts_pending: boolean;
  tenant_settings: Partial<TenantSettings> | null;
}

/** One round trip: the session, its user and membership, the tenant's settings, and whether a gate is pending. */
export async function lookupSession(database: Database, token: string): Promise<AuthContext | null> {
  if (!plausibleToken(token)) return null;
  const r = await database.db.execute(sql`select * from gh_session_lookup(${hashToken(token)})`);
  return authOf(rowsOf<LookupRow>(r)[0]);
}

function plausibleToken(token: string): boolean {
  return token.length >= 20 && token.length <= 100;
}

/**
 * A tenant transaction opened by the session lookup itself: `begin` and the lookup travel in one round trip, and
 * the lookup scopes the transaction to the session's tenant and user. `fn` gets null when there is no live
 * session (the transaction then sees no tenant's rows).
 */
export function withSessionTx<T>(
  database: Database,
  token: string | undefined,
  fn: (tx: Tx, auth: AuthContext | null) => Promise<T>,
): Promise<T> {
  // The token's SHA-256 in hex: text the server made, safe to send as a literal.
  const hash = token && plausibleToken(token) ? hashToken(token) : '-';
  return withOpeningTx(database.db, `select * from gh_session_lookup('${hash}')`, (tx, rows) =>
    fn(tx, authOf(rows[0] as LookupRow | undefined)),
  );
}

function authOf(row: LookupRow | undefined): AuthContext | null {
  if (!row) return null;
  return {
    sessionId: row.session_id,
    userId: Number(row.user_id),
    tenantId: row.tenant_id,
    role: row.role,
    loginType: row.login_type,
    uiVersion: row.ui_version,
    impersonatorUserId: row.impersonator_user_id == null ? null : Number(row.impersonator_user_id),
    termsPending: row.terms_pending,
    promptsPending: row.prompts_pending,
    tenantSettings: { ...DEFAULT_TENANT_SETTINGS, ...row.tenant_settings },
  };
}

export interface NewSession {
  userId: number;
  tenantId: string;
  impersonatorUserId?: number | null;
  ip: string;
  userAgent: string | undefined;
  ttlMs: number;
}

export async function createSession(database: Database, input: NewSession): Promise<string> {
  const { token, id } = newSessionToken();
  await database.db.insert(sessions).values({
    id,
    userId: input.userId,
    tenantId: input.tenantId,
    impersonatorUserId: input.impersonatorUserId ?? null,
    expiresAt: new Date(Date.now() + input.ttlMs),
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
  });
  return token;
}

export async function revokeSession(database: Database, sessionId: string): Promise<void> {
  await database.db.execute(
    sql`update sessions set revoked_at = now() where id = ${sessionId} and revoked_at is null`,
  );
}

export async function revokeUserSessions(database: Database, userId: number): Promise<void> {
  await database.db.execute(
    sql`update sessions set revoked_at = now() where (user_id = ${userId} or impersonator_user_id = ${userId}) and revoked_at is null`,
  );
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  ttlMs: number,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
