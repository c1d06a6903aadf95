import type { Tx } from '@guildhall/db';
import { hasPermission, isTrialOver, MESSAGES, TRIAL_ENDED_MESSAGE } from '@guildhall/shared';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
} from 'fastify';
import type { AuthContext, OneTripRead } from './context.ts';
import { HttpError } from './errors.ts';
import {
  hintMatches,
  lookupSession,
  readWithSession,
  SESSION_COOKIE,
  sessionHint,
  withSessionTx,
} from './session.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How the pipeline answered scoped requests (one round trip, or the usual scoped transaction). */
export interface PipelineCounts {
  oneTrip: number;
  usual: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    pipelineCounts: PipelineCounts;
  }
}

/**
 * The request pipeline, inside the API scope. Every route declares what it needs in its config: its permission
 * (or it refuses to register), whether it may run before the sign-in gates (`allowPending`), and whether it works
 * in the caller's tenant transaction (`scoped`, optionally with a `oneTrip` read). The pipeline refuses state
 * changes from another origin, reads the session once, checks the permission and the gates, and for a scoped
 * route opens the transaction around the handler: a handler cannot forget to.
 */
export function registerApiSecurity(api: FastifyInstance, counts: PipelineCounts): void {
  api.decorateRequest('scopedTx', null);
  api.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    if (!config.permission) {
      throw new Error(`Route ${route.method} ${route.url} declares no permission; add config.permission.`);
    }
    if (config.oneTrip && !config.scoped)
      throw new Error(`Route ${route.method} ${route.url} declares oneTrip without scoped.`);
    if (config.permission === 'member-area' && config.ownRows === undefined)
      throw new Error(
        `Route ${route.method} ${route.url} is in the member area: declare config.ownRows (whether it reads its caller's own rows).`,
      );
    if (config.ownRows !== undefined && config.permission !== 'member-area')
      throw new Error(`Route ${route.method} ${route.url} declares ownRows outside the member area.`);
    if (config.queued && (!config.ownRows || config.scoped))
      throw new Error(
        `Route ${route.method} ${route.url} declares queued: only an unscoped route that reads its caller's own rows is.`,
      );
    if (config.ownRows && !config.scoped && !config.queued)
      throw new Error(
        `Route ${route.method} ${route.url} reads its caller's own rows: declare config.scoped too.`,
      );
    if (!config.scoped) return;
    if (config.permission === 'public')
      throw new Error(
        `Route ${route.method} ${route.url} is public: there is no caller to scope a transaction to.`,
      );
    route.handler = scopedHandler(route.handler as RouteHandlerMethod, counts);
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
      token && !request.routeOptions.config.scoped ? await lookupSession(api.database, token) : null;
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
    if (config.scoped) {
      // Checked when the scoped transaction has looked the session up; without a cookie there is none.
      if (!request.cookies[SESSION_COOKIE]) throw new HttpError(401, MESSAGES.notSignedIn);
      return;
    }
    checkAccess(request.auth, config);
    refuseWhenReadOnly(request, request.auth);
  });
}

/**
 * POST routes that change nothing: a list page, a lookup, a duplicate check, a recalculation, a validator, a report
 * run. They stay open when the association is read-only.
 */
const READING_POSTS =
  /(?:Data|Get|Lookup|DuplicateCheck|Recalculate)(?:\/|$)|^\/api\/utils\/|^\/api\/reportExecution\//;

/**
 * An association whose trial has ended is read-only (decision 0161): it can still sign in, read, search, run
 * reports and export, but a change of its data answers 403 `TrialEnded`. A person's own account (permission
 * `authenticated`: their password, their table layouts) and public routes stay open; nothing is deleted.
 */
function refuseWhenReadOnly(request: FastifyRequest, auth: AuthContext | null): void {
  if (!auth || SAFE_METHODS.has(request.method)) return;
  const { permission } = request.routeOptions.config;
  if (!permission || permission === 'public' || permission === 'authenticated') return;
  if (!isTrialOver(auth.tenantSettings?.trialEndsAt, new Date())) return;
  if (READING_POSTS.test(request.routeOptions.url ?? request.url)) return;
  throw new HttpError(403, TRIAL_ENDED_MESSAGE, undefined, { code: 'TrialEnded' });
}

/** The route's permission and the sign-in gates, for the caller the session names. */
function checkAccess(auth: AuthContext | null, config: FastifyContextConfig): void {
  const { permission, allowPending } = config;
  if (!permission || permission === 'public') return;
  if (!auth) throw new HttpError(401, MESSAGES.notSignedIn);
  if (!hasPermission(auth.role, permission)) throw new HttpError(403, MESSAGES.forbidden);
  // A member reaches only their own account's routes and the member area's, each of which says whether it reads
  // the member's own rows: a route that says nothing is not theirs, whatever its permission (decision 0183).
  if (auth.role === 'member' && permission !== 'authenticated' && config.ownRows === undefined)
    throw new HttpError(403, MESSAGES.forbidden);
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

/**
 * The handler of a scoped route, wrapped: its transaction is opened by the session lookup itself (one round trip
 * for `begin`, the session and the tenant scope), the route's access is checked on what that lookup found, and the
 * handler runs with `request.scopedTx` and `request.auth` set. A route with a `oneTrip` read is first offered the
 * one-round-trip way when this instance has a hint of the session (decision 0062).
 */
function scopedHandler(handler: RouteHandlerMethod, counts: PipelineCounts) {
  return async function scoped(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const config = request.routeOptions.config;
    const database = request.server.database;
    const token = request.cookies[SESSION_COOKIE];
    const read = config.oneTrip ? oneTripPlan(request, token) : null;
    if (read && token) {
      const { auth, rows } = await readWithSession(database, token, read.plan.statements);
      checkAccess(auth, config);
      if (!auth) throw new HttpError(401, MESSAGES.notSignedIn);
      // The rows were planned for what the hint said: they answer only when the whole hint held.
      if (hintMatches(read.hint, auth)) {
        counts.oneTrip += 1;
        return read.plan.answer(rows, auth);
      }
    }
    counts.usual += 1;
    return withSessionTx(database, token, async (tx: Tx, auth: AuthContext | null) => {
      checkAccess(auth, config);
      if (!auth) throw new HttpError(401, MESSAGES.notSignedIn);
      refuseWhenReadOnly(request, auth);
      request.auth = auth;
      request.scopedTx = tx;
      try {
        return await handler.call(this, request, reply);
      } finally {
        request.scopedTx = null;
      }
    });
  };
}

/** The one-trip read of a request, when this instance has a hint of its session whose role may use the route. */
function oneTripPlan(request: FastifyRequest, token: string | undefined) {
  const config = request.routeOptions.config;
  const hint = sessionHint(request.server.database, token);
  if (!token || !hint || !config.permission || !hasPermission(hint.role, config.permission)) return null;
  try {
    const plan = config.oneTrip?.(request, hint.tenantId) as OneTripRead<unknown> | null | undefined;
    return plan ? { hint: { ...hint }, plan } : null;
  } catch {
    // The usual way answers the same failure, after the session's own checks.
    return null;
  }
}
