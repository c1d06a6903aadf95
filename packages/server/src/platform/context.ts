import type { Database, Fragment, Scope, Tx } from '@guildhall/db';
import { withTenantTx } from '@guildhall/db';
import type { LoginType, Permission, Role, TenantSettings } from '@guildhall/shared';
import type { FastifyRequest } from 'fastify';
import type { Background } from './background.ts';
import type { AppConfig } from './config.ts';
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
  }
  interface FastifyInstance {
    database: Database;
    config: AppConfig;
    mailer: Mailer;
    /** Work that runs after the answer (see background.ts). */
    background: Background;
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

/** The scoped transaction and the caller of a `scoped` route, inside its handler. */
export function scope(request: FastifyRequest): { tx: Tx; auth: AuthContext } {
  const tx = request.scopedTx;
  const auth = request.auth;
  if (!tx || !auth)
    throw new Error(`${request.routeOptions.url} reads scope() but does not declare config.scoped.`);
  return { tx, auth };
}
