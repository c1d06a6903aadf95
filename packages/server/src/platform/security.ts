import type { Fragment, Tx } from '@guildhall/db';
import { hasPermission, MESSAGES } from '@guildhall/shared';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from './context.ts';
import { HttpError } from './errors.ts';
import { lookupSession, readWithSession, SESSION_COOKIE, sessionHint, withSessionTx } from './session.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Inside the API scope: every route must declare a permission (or it refuses to register), state changes from
 * another origin are refused, the session is read once per request, and the route's permission is checked.
 */
export function registerApiSecurity(api: FastifyInstance): void {
  api.addHook('onRoute', (route) => {
    if (!route.config?.permission) {
      throw new Error(`Route ${route.method} ${route.url} declares no permission; add config.permission.`);
    }
  });

  api.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method)) {
      const origin = request.headers.origin;
      const site = request.headers['sec-fetch-site'];
      if (site === 'cross-site' || (origin !== undefined && originHost(origin) !== request.headers.host)) {
        throw new HttpError(403, 'Requests from another site are refused.');
      }
    }
    const token = request.cookies[SESSION_COOKIE];
    request.auth =
      token && !request.routeOptions.config.sessionInTx ? await lookupSession(api.database, token) : null;
  });

  api.addHook('preValidation', async (request) => {
    // Nesting deeper than any screen's payload is crafted: refused before a validator or the database recurses.
    if (nestedDeeperThan(request.body, MAX_JSON_DEPTH)) {
      throw new HttpError(400, `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`);
    }
    // PostgreSQL text cannot hold NUL; refuse it at the door with a clear message.
    if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) {
      throw new HttpError(400, 'Text may not contain the NUL character.');
    }
    const config = request.routeOptions.config;
    if (config.sessionInTx && config.permission !== 'public') {
      // Checked by sessionTx once the transaction has looked the session up; without a cookie there is none.
      if (!request.cookies[SESSION_COOKIE]) throw new HttpError(401, MESSAGES.notSignedIn);
      return;
    }
    checkAccess(request.auth, config);
  });
}

/** The route's permission and the sign-in gates, for the caller the session names. */
function checkAccess(auth: AuthContext | null, config: FastifyContextConfig): void {
  const { permission, allowPending } = config;
  if (!permission || permission === 'public') return;
  if (!auth) throw new HttpError(401, MESSAGES.notSignedIn);
  if (!hasPermission(auth.role, permission)) throw new HttpError(403, MESSAGES.forbidden);
  if (!allowPending && !auth.impersonatorUserId && (auth.termsPending || auth.promptsPending)) {
    throw new HttpError(
      403,
      'Finish the steps shown after sign-in first (terms of use or security prompts).',
      undefined,
      {
        code: 'GatePending',
      },
    );
  }
}

/**
 * The handler of a `sessionInTx` route: one tenant transaction opened by the session lookup (one round trip
 * for `begin`, the session and the tenant scope), the route's access checked on what it found, then `fn`.
 */
export function sessionTx<T>(
  request: FastifyRequest,
  fn: (tx: Tx, auth: AuthContext) => Promise<T>,
): Promise<T> {
  const config = request.routeOptions.config;
  if (!config.sessionInTx)
    throw new Error(`${request.routeOptions.url} calls sessionTx without sessionInTx.`);
  return withSessionTx(request.server.database, request.cookies[SESSION_COOKIE], async (tx, auth) => {
    checkAccess(auth, config);
    if (!auth) throw new HttpError(401, MESSAGES.notSignedIn);
    return fn(tx, auth);
  });
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** Levels of objects and arrays a JSON body may nest: a screen's deepest payload (widget layouts) uses a few. */
export const MAX_JSON_DEPTH = 32;

/** Whether a parsed JSON value nests objects and arrays more than `max` levels; without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > MAX_JSON_DEPTH || value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || hasNul(v, depth + 1)) return true;
  return false;
}

/** A read planned for a tenant: its statements, and the answer made of their rows for the caller found. */
export interface OneTripRead<T> {
  statements: readonly Fragment[];
  answer(rows: Record<string, unknown>[][], auth: AuthContext): T;
}

/**
 * The handler of a `sessionInTx` read in one round trip. When this instance has seen the session before and its
 * role may use the route, the read is planned for the session's tenant and sent with `begin`, the session lookup
 * and `commit` together (`readWithSession`); access is then checked on what the lookup found, and the rows are
 * only answered when it passes. Otherwise (a session seen for the first time, a plan that fails, a lookup that
 * finds the session in another tenant) the read takes the usual way: `otherwise` in a session transaction.
 */
export async function sessionRead<T>(
  request: FastifyRequest,
  plan: (tenantId: string) => OneTripRead<T>,
  otherwise: (tx: Tx, auth: AuthContext) => Promise<T>,
): Promise<T> {
  const config = request.routeOptions.config;
  const token = request.cookies[SESSION_COOKIE];
  const hint = sessionHint(request.server.database, token);
  if (!token || !hint || !config.permission || !hasPermission(hint.role, config.permission))
    return sessionTx(request, otherwise);
  let read: OneTripRead<T>;
  try {
    read = plan(hint.tenantId);
  } catch {
    // The usual way answers the same failure, after the session's own checks.
    return sessionTx(request, otherwise);
  }
  const { auth, rows } = await readWithSession(request.server.database, token, read.statements);
  checkAccess(auth, config);
  if (!auth) throw new HttpError(401, MESSAGES.notSignedIn);
  if (auth.tenantId !== hint.tenantId) return sessionTx(request, otherwise);
  return read.answer(rows, auth);
}
