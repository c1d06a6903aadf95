import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';

export interface Scope {
  tenantId: string;
  userId?: number | null | undefined;
}

/**
 * Runs `fn` in a transaction scoped to one tenant: row-level security then shows and accepts only that tenant's
 * rows. Every read and write of tenant-owned data goes through here.
 */
export function withTenantTx<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('app.tenant_id', ${scope.tenantId}, true), set_config('app.user_id', ${
        scope.userId == null ? '' : String(scope.userId)
      }, true)`,
    );
    return fn(tx);
  });
}

/** A transaction with no tenant: identity tables only (tenant-owned tables show no rows). */
export function withoutTenantTx<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}
