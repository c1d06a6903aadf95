import type { Database, Fragment, Scope, Tx } from '@guildhall/db';
import { withTenantTx } from '@guildhall/db';
import type { LoginType, Permission, Role, TenantSettings } from '@guildhall/shared';
import type { FastifyRequest } from 'fastify';
import type { Background } from './background.ts';
import type { AppConfig } from './config.ts';
import { HttpError } from './errors.ts';
import type { Mailer } from './mailer.ts';

/** Who is asking: set from the session cookie on every request. */
export interface AuthContext {
  sessionId: string;
  /** The user the session acts as (the impersonated user while impersonating). */
  userId: number;
  tenantId: string;
  role: Role;
  loginType: LoginType;
  uiVersion: number;
  /** The staff user behind an impersonation, or null. */
  impersonatorUserId: number | null;
  termsPending: boolean;
  promptsPending: boolean;
  /** The tenant's settings as the session lookup read them (absent for jobs acting for a user). */
  tenantSettings?: TenantSettings | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The scoped transaction of a `scoped` route while its handler runs (read it with `scope`). */
    scopedTx: Tx | null;
    /** The caller's own contact, once an `ownRows` route asked for it (`ownContactId`). */
    ownContact?: Promise<number | null>;
  }
  interface FastifyInstance {
    database: Database;
    config: AppConfig;
    mailer: Mailer;
    /** Work that runs after the answer (see background.ts). */
    background: Background;
    /** The contact a sign-in names (a feature module's `callerContact`), for `ownRows` routes; null without one. */
    callerContact: ((tx: Tx, auth: AuthContext) => Promise<number | null>) | null;
  }
  interface FastifyContextConfig {
    /** Required on every API route: who may call it. */
    permission?: Permission;
    /** The route stays open while the terms-of-use gate or a security prompt is pending. */
    allowPending?: boolean;
    /**
     * The request pipeline opens the route's tenant transaction before the handler runs: `begin`, the session
     * lookup and the tenant scope in one round trip, the permission and gates checked on what the lookup found.
     * The handler reads the transaction and the caller with `scope(request)`; it never opens one of its own.
     */
    scoped?: boolean;
    /**
     * A scoped read that may travel in one round trip (decision 0062): given the tenant this instance's hint names,
     * the statements and the answer made of their rows, or null for the usual way (the handler in its scoped
     * transaction). The pipeline answers from it only when the whole hint matches what the lookup found.
     */
    oneTrip?: (request: FastifyRequest, tenantId: string) => OneTripRead<unknown> | null;
    /**
     * Whether a member-area route reads rows of its own caller (their registrations, invoices, memberships): every
     * `member-area` route says so, true or false, or the start fails; a member is refused on any other route that
     * does not say it (decision 0183). A route with `true` is scoped and reads the caller's contact with
     * `ownContactId(request)`, or is `queued`.
     */
    ownRows?: boolean;
    /**
     * An `ownRows` route that is not scoped: it queues its work for a transaction the queue opens (a registration
     * batch, decision 0190), holding no connection while it waits, and reads its caller's contact in that
     * transaction with `ownContactIn(request, tx)`.
     */
    queued?: boolean;
  }
}

export function scopeOf(auth: AuthContext): Scope {
  return { tenantId: auth.tenantId, userId: auth.userId };
}

/** Runs `fn` in a transaction scoped to the caller's tenant. */
export function tenantTx<T>(database: Database, auth: AuthContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return withTenantTx(database.db, scopeOf(auth), fn);
}

/** Signed-in caller or a 401. */
export function requireAuth(auth: AuthContext | null): AuthContext {
  if (!auth) throw new Error('route declared a permission but no session was checked');
  return auth;
}

/** A read planned for a tenant: its statements, and the answer made of their rows for the caller found. */
export interface OneTripRead<T> {
  statements: readonly Fragment[];
  answer(rows: Record<string, unknown>[][], auth: AuthContext): T;
}

/** The message of a member whose sign-in names no contact, on a route that reads the caller's own rows. */
export const NO_OWN_CONTACT = 'Your sign-in is not linked to a contact; ask the association to link it.';

/**
 * The caller's own contact on an `ownRows` route, read once per request in the route's scoped transaction through
 * the feature module that says how a sign-in names a contact; a 403 when it names none.
 */
export async function ownContactId(request: FastifyRequest): Promise<number> {
  const id = await ownContactIdIfAny(request);
  if (id === null) throw new HttpError(403, NO_OWN_CONTACT);
  return id;
}

/**
 * The caller's own contact on an `ownRows` route, or null when the sign-in names none: for the member routes that
 * answer something without one (an event's page, an empty account) rather than a 403.
 */
export async function ownContactIdIfAny(request: FastifyRequest): Promise<number | null> {
  if (!request.routeOptions.config.ownRows)
    throw new Error(`${request.routeOptions.url} reads ownContactId() but does not declare config.ownRows.`);
  const { tx, auth } = scope(request);
  const resolve = request.server.callerContact;
  if (!resolve) throw new Error('No feature module says how a sign-in names its contact (callerContact).');
  request.ownContact ??= resolve(tx, auth);
  return request.ownContact;
}

/**
 * The caller's own contact on a `queued` own-rows route (decision 0190), read in the transaction its work runs in
 * (scoped to the caller's association) through the module that says how a sign-in names a contact; a 403 when it
 * names none.
 */
export async function ownContactIn(request: FastifyRequest, tx: Tx): Promise<number> {
  const config = request.routeOptions.config;
  if (!config.ownRows || !config.queued)
    throw new Error(`${request.routeOptions.url} reads ownContactIn() but does not declare config.queued.`);
  const auth = requireAuth(request.auth);
  const resolve = request.server.callerContact;
  if (!resolve) throw new Error('No feature module says how a sign-in names its contact (callerContact).');
  const id = await resolve(tx, auth);
  if (id === null) throw new HttpError(403, NO_OWN_CONTACT);
  return id;
}

/** The scoped transaction and the caller of a `scoped` route, inside its handler. */
export function scope(request: FastifyRequest): { tx: Tx; auth: AuthContext } {
  const tx = request.scopedTx;
  const auth = request.auth;
  if (!tx || !auth)
    throw new Error(`${request.routeOptions.url} reads scope() but does not declare config.scoped.`);
  return { tx, auth };
}
