import { sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type Db, rowsOf, type Tx } from './client.ts';
import { engineOf, pgliteTransaction, ROLLED_BACK } from './pglite-tx.ts';
import { committedByStatements, JIT_OFF } from './statement.ts';

export interface Scope {
  tenantId: string;
  userId?: number | null | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The statement that scopes a transaction to a tenant (row-level security reads these settings). */
function scopeStatement(scope: Scope): string {
  // Sent as text in the transaction's first round trip: only a well-formed id and an integer are accepted.
  if (!UUID.test(scope.tenantId)) throw new Error('A tenant scope needs a tenant id.');
  const user = scope.userId == null ? '' : String(scope.userId);
  if (user !== '' && !/^\d{1,19}$/.test(user)) throw new Error('A tenant scope needs a numeric user id.');
  // SET LOCAL rather than set_config(): on Citus (with citus.propagate_set_commands = 'local', migration
  // tenant_ids_citus) a SET LOCAL travels with the transaction to the workers, where row-level security reads it.
  return `set local app.tenant_id = '${scope.tenantId}'; set local app.user_id = '${user}'`;
}

/**
 * Runs `fn` in a transaction scoped to one tenant: row-level security then shows and accepts only that tenant's
 * rows. Every read and write of tenant-owned data goes through here.
 */
export async function withTenantTx<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return withOpeningTx(db, scopeStatement(scope), fn);
}

/** What Drizzle's transaction objects are made of, read from the database object they belong to. */
interface DrizzleInternals {
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  session: { schema: ConstructorParameters<typeof NodePgSession>[2]; options: object };
}

/**
 * A transaction whose first statement is `opening` (text made by the server, never by a client), answered with
 * that statement's rows. `begin` and the opening statement travel together: in one round trip on PostgreSQL (a
 * request's cost there is mostly round trips), in one call into the engine on embedded PGlite (decision 0061).
 */
export async function withOpeningTx<T>(
  db: Db,
  opening: string,
  fn: (tx: Tx, rows: Record<string, unknown>[]) => Promise<T>,
): Promise<T> {
  const pool = (db as { $client?: unknown }).$client;
  // Drizzle's own transactions send `begin` alone; these are the same transaction objects over a client of ours.
  const internals = db as unknown as DrizzleInternals;
  const engine = engineOf(pool);
  if (engine) {
    return pgliteTransaction(engine, `${JIT_OFF}; ${opening}`, (client, rows) => {
      const session = new PgliteSession(
        client as unknown as ConstructorParameters<typeof PgliteSession>[0],
        internals.dialect,
        internals.session.schema,
        internals.session.options,
      );
      const tx = new PgliteTransaction(internals.dialect, session, internals.session.schema) as unknown as Tx;
      return fn(tx, rows);
    });
  }
  if (!(pool instanceof pg.Pool)) {
    // Any other client (a single connection): Drizzle's own transaction, the opening as its first statement.
    return db.transaction(async (tx) => {
      await tx.execute(sql.raw(JIT_OFF));
      return fn(tx, rowsOf(await tx.execute(sql.raw(opening))));
    });
  }
  const client = await pool.connect();
  // Released as broken (closed, not reused) when `begin`, `commit` or `rollback` itself failed.
  let broken: Error | undefined;
  try {
    const session = new NodePgSession(
      client,
      internals.dialect,
      internals.session.schema,
      internals.session.options,
    );
    const tx = new NodePgTransaction(internals.dialect, session, internals.session.schema) as unknown as Tx;
    let result: T;
    try {
      const opened = (await client.query(`begin; ${JIT_OFF}; ${opening}`)) as unknown as pg.QueryResult[];
      result = await fn(tx, (opened[opened.length - 1]?.rows ?? []) as Record<string, unknown>[]);
    } catch (error) {
      await client.query('rollback').catch((e: Error) => {
        broken = e;
      });
      throw error;
    }
    // Committed already when the transaction's last statements carried the commit (runFragments).
    if (!committedByStatements(tx)) {
      const ended = await client.query('commit').catch((e: Error) => {
        broken = e;
        throw e;
      });
      // A statement failed inside `fn` and `fn` went on: nothing was committed.
      if (ended.command !== 'COMMIT') throw new Error(ROLLED_BACK);
    }
    return result;
  } finally {
    client.release(broken);
  }
}

/** A transaction with no tenant: identity tables only (tenant-owned tables show no rows). */
export function withoutTenantTx<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}
