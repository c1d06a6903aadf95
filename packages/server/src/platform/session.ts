import { createHash, randomBytes } from 'node:crypto';
import {
  type Database,
  type Fragment,
  q,
  readInOneTrip,
  rowsOf,
  sessions,
  type Tx,
  withOpeningTx,
} from '@guildhall/db';
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
  expires_at: string | Date | null;
  terms_pending: boolean;
  prompts_pending: boolean;
  tenant_settings: Partial<TenantSettings> | null;
}

/**
 * How long this instance answers a session from what its last lookup found, without the database (decision 0184).
 * What another instance changes (a sign-out there, a deactivation there, a role or setting changed) shows here within
 * this bound; what this instance changes shows at once (the functions below forget the sessions they end).
 */
export const SESSION_CACHE_MS = 1000;

interface CachedSession {
  auth: AuthContext;
  /** Until when it may answer (never past the session's own end). */
  until: number;
}

/** The sessions this instance looked up lately, and the lookups on their way; per database, bounded. */
interface SessionCache {
  sessions: Map<string, CachedSession>;
  lookups: Map<string, { generation: number; answer: Promise<AuthContext | null> }>;
  /** Counts what was forgotten: a lookup that began before something was forgotten answers, but is not kept. */
  generation: number;
  /** Users whose sessions are not kept for a while after one of them was ended here (until when, by user). */
  unsettled: Map<number, number>;
  /** Associations whose sessions are not kept for a while after their settings changed here (until when). */
  unsettledTenants: Map<string, number>;
}
const MAX_CACHED_SESSIONS = 10_000;
const cacheByDatabase = new WeakMap<Database, SessionCache>();

function cacheOf(database: Database): SessionCache {
  let cache = cacheByDatabase.get(database);
  if (!cache) {
    cache = {
      sessions: new Map(),
      lookups: new Map(),
      generation: 0,
      unsettled: new Map(),
      unsettledTenants: new Map(),
    };
    cacheByDatabase.set(database, cache);
  }
  return cache;
}

/** Which sessions to forget: one by id, every session of a user (in one association, or all), or of an association. */
export type ForgottenSessions =
  | { sessionId: string }
  | { userId: number; tenantId?: string }
  | { tenantId: string };

/**
 * Forgets sessions this instance knows (the cache of the request's database): by id, every session of a user (in
 * one association, or all), or every session of an association (its settings changed: the lookup carries them).
 * Whatever ends or changes a session here calls it once the change is written, so that the next request of that
 * session here is looked up again (a lookup already on its way answers its own request but is not kept). A change
 * written in a transaction that commits later says `settling`: for the next `SESSION_CACHE_MS` no lookup of that
 * user (or of that association) is kept, since one that runs before the commit still finds the session as it was.
 */
export function forgetSessions(
  database: Database,
  which: ForgottenSessions,
  options: { settling?: boolean } = {},
): void {
  const cache = cacheOf(database);
  cache.generation++;
  const now = Date.now();
  const wholeTenant = !('sessionId' in which) && !('userId' in which);
  const hit = (id: string, auth: AuthContext): boolean => {
    if ('sessionId' in which) return id === which.sessionId;
    if ('userId' in which)
      return (
        (auth.userId === which.userId || auth.impersonatorUserId === which.userId) &&
        (which.tenantId === undefined || auth.tenantId === which.tenantId)
      );
    return auth.tenantId === which.tenantId;
  };
  for (const [id, { auth }] of cache.sessions) {
    if (!hit(id, auth)) continue;
    cache.sessions.delete(id);
    if (options.settling && !wholeTenant) cache.unsettled.set(auth.userId, now + SESSION_CACHE_MS);
  }
  if (options.settling) {
    if ('userId' in which) cache.unsettled.set(which.userId, now + SESSION_CACHE_MS);
    else if (wholeTenant) cache.unsettledTenants.set(which.tenantId, now + SESSION_CACHE_MS);
  }
  for (const [userId, until] of cache.unsettled) if (until <= now) cache.unsettled.delete(userId);
  for (const [tenantId, until] of cache.unsettledTenants)
    if (until <= now) cache.unsettledTenants.delete(tenantId);
}

/**
 * The session a cookie names, with its user and membership, the tenant's settings and whether a gate is pending.
 * One round trip; or none, when this instance looked the same session up less than `SESSION_CACHE_MS` ago and found
 * it live with no gate pending (decision 0184). Requests of one session that arrive together share one lookup.
 */
export async function lookupSession(database: Database, token: string): Promise<AuthContext | null> {
  if (!plausibleToken(token)) return null;
  const hash = hashToken(token);
  const cache = cacheOf(database);
  const now = Date.now();
  const cached = cache.sessions.get(hash);
  if (cached) {
    if (cached.until > now) return { ...cached.auth };
    cache.sessions.delete(hash);
  }
  const running = cache.lookups.get(hash);
  if (running && running.generation === cache.generation) {
    const auth = await running.answer;
    return auth && { ...auth };
  }
  const generation = cache.generation;
  const answer = (async () => {
    const r = await database.db.execute(sql`select * from gh_session_lookup(${hash})`);
    const row = rowsOf<LookupRow>(r)[0];
    const auth = remember(database, authOf(row));
    const at = Date.now();
    if (
      auth &&
      row &&
      cache.generation === generation &&
      !auth.termsPending &&
      !auth.promptsPending &&
      !(
        (cache.unsettledTenants.get(auth.tenantId) ?? 0) > at ||
        (cache.unsettled.get(auth.userId) ?? 0) > at ||
        (cache.unsettled.get(auth.impersonatorUserId ?? -1) ?? 0) > at
      )
    ) {
      const ends = row.expires_at ? new Date(row.expires_at).getTime() : at;
      cache.sessions.delete(hash);
      cache.sessions.set(hash, { auth, until: Math.min(at + SESSION_CACHE_MS, ends) });
      if (cache.sessions.size > MAX_CACHED_SESSIONS)
        cache.sessions.delete(cache.sessions.keys().next().value as string);
    }
    return auth;
  })();
  cache.lookups.set(hash, { generation, answer });
  try {
    const auth = await answer;
    return auth && { ...auth };
  } finally {
    if (cache.lookups.get(hash)?.answer === answer) cache.lookups.delete(hash);
  }
}

/**
 * What this instance last learnt of a session: its tenant and role, by the session's id (the token's hash). A hint
 * for planning a read before the lookup has answered (`readWithSession`), never a decision: the lookup that travels
 * with the read decides, and a session whose hint is missing or stale takes the usual way. Kept per database,
 * bounded; the oldest hint goes first. Another instance has hints of its own, or none.
 */
export interface SessionHint {
  tenantId: string;
  role: Role;
  userId: number;
  /** The sign-in gates (terms of use, security prompts) pending when the session was last looked up. */
  termsPending: boolean;
  promptsPending: boolean;
}

/** Whether a lookup found what the hint said: tenant, user, role and gates, all of them. */
export function hintMatches(hint: SessionHint, auth: AuthContext): boolean {
  return (
    hint.tenantId === auth.tenantId &&
    hint.userId === auth.userId &&
    hint.role === auth.role &&
    hint.termsPending === auth.termsPending &&
    hint.promptsPending === auth.promptsPending
  );
}
const MAX_HINTS = 10_000;
const hintsByDatabase = new WeakMap<Database, Map<string, SessionHint>>();

function hintsOf(database: Database): Map<string, SessionHint> {
  let hints = hintsByDatabase.get(database);
  if (!hints) {
    hints = new Map();
    hintsByDatabase.set(database, hints);
  }
  return hints;
}

function remember(database: Database, auth: AuthContext | null): AuthContext | null {
  if (!auth) return auth;
  const hints = hintsOf(database);
  hints.delete(auth.sessionId);
  hints.set(auth.sessionId, {
    tenantId: auth.tenantId,
    role: auth.role,
    userId: auth.userId,
    termsPending: auth.termsPending,
    promptsPending: auth.promptsPending,
  });
  if (hints.size > MAX_HINTS) hints.delete(hints.keys().next().value as string);
  return auth;
}

/** The hint of the session a cookie names, if this instance has seen it. */
export function sessionHint(database: Database, token: string | undefined): SessionHint | undefined {
  return token && plausibleToken(token) ? hintsOf(database).get(hashToken(token)) : undefined;
}

/**
 * A read of one round trip: `begin`, the session lookup, `statements` and `commit` travel together. The lookup
 * scopes the transaction before the statements run, so row-level security shows them the session's tenant only,
 * and none when the session is gone. Answers what the lookup found (null: no live session) and the statements'
 * rows; the caller checks access on that before it uses a row.
 */
export async function readWithSession(
  database: Database,
  token: string,
  statements: readonly Fragment[],
): Promise<{ auth: AuthContext | null; rows: Record<string, unknown>[][] }> {
  const hash = plausibleToken(token) ? hashToken(token) : '-';
  const [lookup, ...rows] = await readInOneTrip(database.db, [
    q`select * from gh_session_lookup(${hash})`,
    ...statements,
  ]);
  const auth = remember(database, authOf(lookup?.[0] as LookupRow | undefined));
  if (!auth) hintsOf(database).delete(hash);
  return { auth, rows };
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
    fn(tx, remember(database, authOf(rows[0] as LookupRow | undefined))),
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
  /** The session may not outlive this (an impersonation, the staff session it came from). */
  notAfter?: Date | undefined;
}

/** A new session: the token for the cookie, and when the session ends (the cookie ends with it). */
export interface SessionTicket {
  token: string;
  expiresAt: Date;
}

export async function createSession(database: Database, input: NewSession): Promise<SessionTicket> {
  const { token, id } = newSessionToken();
  const ttlEnd = Date.now() + input.ttlMs;
  const expiresAt = new Date(input.notAfter ? Math.min(ttlEnd, input.notAfter.getTime()) : ttlEnd);
  await database.db.insert(sessions).values({
    id,
    userId: input.userId,
    tenantId: input.tenantId,
    impersonatorUserId: input.impersonatorUserId ?? null,
    expiresAt,
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
  });
  return { token, expiresAt };
}

/** When a live session ends (undefined when it has ended or is unknown). */
export async function sessionExpiry(database: Database, sessionId: string): Promise<Date | undefined> {
  const r = await database.db.execute(
    sql`select expires_at from sessions where id = ${sessionId} and revoked_at is null and expires_at > now()`,
  );
  const at = rowsOf<{ expires_at: string | Date }>(r)[0]?.expires_at;
  return at ? new Date(at) : undefined;
}

export async function revokeSession(database: Database, sessionId: string): Promise<void> {
  hintsOf(database).delete(sessionId);
  forgetSessions(database, { sessionId });
  await database.db.execute(
    sql`update sessions set revoked_at = now() where id = ${sessionId} and revoked_at is null`,
  );
  // Again once the end is written: a lookup that ran beside the update is not kept either.
  forgetSessions(database, { sessionId });
}

export async function revokeUserSessions(database: Database, userId: number): Promise<void> {
  const hints = hintsOf(database);
  for (const [id, hint] of hints) if (hint.userId === userId) hints.delete(id);
  forgetSessions(database, { userId });
  await database.db.execute(
    sql`update sessions set revoked_at = now() where (user_id = ${userId} or impersonator_user_id = ${userId}) and revoked_at is null`,
  );
  forgetSessions(database, { userId });
}

/**
 * Ends a person's sessions in one association only (deactivated there): their own, and those where they work as
 * someone else or someone works as them. Their sessions in other associations go on.
 */
export async function revokeUserSessionsIn(
  database: Database,
  tenantId: string,
  userId: number,
  /** The transaction that ends them with the change that causes it (a deactivation), or the database alone. */
  executor: Pick<Database['db'], 'execute'> = database.db,
): Promise<number> {
  const hints = hintsOf(database);
  for (const [id, hint] of hints) if (hint.userId === userId && hint.tenantId === tenantId) hints.delete(id);
  forgetSessions(database, { userId, tenantId });
  const r = await executor.execute(
    sql`update sessions set revoked_at = now()
         where tenant_id = ${tenantId} and (user_id = ${userId} or impersonator_user_id = ${userId})
           and revoked_at is null
        returning id`,
  );
  const ended = rowsOf<{ id: string }>(r);
  for (const { id } of ended) hints.delete(id);
  // The transaction may commit a moment later: no lookup of this user is kept for a while (forgetSessions).
  forgetSessions(database, { userId, tenantId }, { settling: executor !== database.db });
  return ended.length;
}

/** The session cookie ends when its session does, never later. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: SessionTicket): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: session.expiresAt,
    maxAge: Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
