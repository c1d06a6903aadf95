import type { Database, Scope, Tx } from '@guildhall/db';
import { withTenantTx } from '@guildhall/db';
import type { LoginType, Permission, Role, TenantSettings } from '@guildhall/shared';
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
     * The session is looked up inside the handler's tenant transaction (`sessionTx`), in the same round trip as
     * `begin`, instead of before the handler: `request.auth` stays null and the handler must call `sessionTx`.
     */
    sessionInTx?: boolean;
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
