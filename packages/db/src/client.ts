/**
 * Opens the database: embedded PGlite in a data folder by default, real PostgreSQL through a node-postgres pool
 * when a URL is given. The same migrations serve both. Application queries run as `guildhall_app`, a role that
 * owns no table and lacks BYPASSRLS; migrations and bulk loads run as the connecting (owner) role.
 */
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PgliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbKind = 'pglite' | 'postgres';

export const APP_ROLE = 'guildhall_app';
export const MIGRATIONS_FOLDER = new URL('./migrations', import.meta.url).pathname;

export interface DatabaseOptions {
  /** postgres://… — real PostgreSQL. Without it, embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; omitted means in memory. */
  dataDir?: string | undefined;
  /** PGlite: start from a dumped data folder (tests clone a migrated database this way). */
  loadDataDir?: Blob | File | undefined;
  /** node-postgres pool size for the application role. */
  poolSize?: number | undefined;
}

export interface Database {
  kind: DbKind;
  /** Drizzle over the application role: every query is subject to row-level security. */
  db: Db;
  /** Runs the migrations as the owner role (idempotent). */
  migrate(): Promise<void>;
  /** Runs one owner-level statement (migrations, seeding, benchmarks). Not for request handling. */
  ownerExec(statement: string): Promise<void>;
  /** Owner-level Drizzle (seeding and bulk loading only). */
  ownerDb: Db;
  /** The embedded engine, in its worker thread (dumps for test cloning, bulk loads). */
  pglite?: PgliteThread;
  /** The pool of the application role, when on PostgreSQL. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openPglite(options);
}

/**
 * Server settings of the embedded engine (decision 0086). PGlite keeps PostgreSQL's 128 MB of shared buffers
 * inside its WebAssembly memory, which never shrinks: an idle server at 100,000 contacts held 551 MiB resident.
 * With 16 MB the table and index pages beyond them are read through the data folder's files (the operating
 * system's cache, not the process's), and the same server idles at about 405 MiB (392-424 MiB with the engine's entry as plain JavaScript, over runs on this loaded machine).
 */
export const PGLITE_SETTINGS: readonly string[] = ['shared_buffers=16MB'];

async function openPglite(options: DatabaseOptions): Promise<Database> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PgliteThread.start({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    settings: PGLITE_SETTINGS,
  });
  const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
  // PGlite has one connection: the owner phase (migrate, seed) happens before the first app query switches role.
  let role: 'owner' | 'app' = 'owner';
  const asOwner = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (role === 'app') await client.exec('RESET ROLE');
    try {
      return await fn();
    } finally {
      if (role === 'app') await client.exec(`SET ROLE ${APP_ROLE}`);
    }
  };
  const database: Database = {
    kind: 'pglite',
    db,
    ownerDb: db,
    pglite: client,
    async migrate() {
      await asOwner(() =>
        migratePglite(drizzlePglite({ client: client as never, schema }), {
          migrationsFolder: MIGRATIONS_FOLDER,
        }),
      );
    },
    async ownerExec(statement) {
      await asOwner(() => client.exec(statement).then(() => undefined));
    },
    async close() {
      await client.close();
    },
  };
  // Switch lazily: the first use of database.db after open() is as the application role.
  await client.exec(`SET ROLE ${APP_ROLE}`).then(
    () => {
      role = 'app';
    },
    () => {
      // The role does not exist before the first migration; migrate() creates it, then we switch.
      const migrateFirst = database.migrate;
      database.migrate = async () => {
        await migrateFirst();
        await client.exec(`SET ROLE ${APP_ROLE}`);
        role = 'app';
      };
    },
  );
  return database;
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const ownerPool = new pg.Pool({ connectionString: url, max: 2 });
  // The role is a startup setting of every connection: no statement is queued ahead of the first query (a failed
  // SET ROLE used to leave the connection as the owner), a missing role fails the connection, and RESET ROLE
  // returns to the application role.
  const appPool = new pg.Pool({ connectionString: url, max: poolSize, options: `-c role=${APP_ROLE}` });
  // A connection that dies (server restart, killed backend) fails its query or transaction; it must not take the
  // process with it. node-postgres raises the error on the client (checked out) or on the pool (idle), and an
  // 'error' event nobody listens to is thrown.
  for (const pool of [appPool, ownerPool]) {
    pool.on('error', () => undefined);
    pool.on('connect', (c) => c.on('error', () => undefined));
  }
  const ownerDb = drizzlePg({ client: ownerPool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db: drizzlePg({ client: appPool, schema }) as unknown as Db,
    ownerDb,
    pool: appPool,
    async migrate() {
      const c = await ownerPool.connect();
      try {
        // One migrator at a time across instances.
        await c.query('SELECT pg_advisory_lock(727274)');
        await migratePg(drizzlePg({ client: c, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await c.query('SELECT pg_advisory_unlock(727274)').catch(() => undefined);
        c.release();
      }
    },
    async ownerExec(statement) {
      await ownerPool.query(statement);
    },
    async close() {
      await Promise.all([appPool.end(), ownerPool.end()]);
    },
  };
}

/** Checks that the connection answers as the application role (used at start-up and in tests). */
export async function currentRole(db: Db): Promise<string> {
  const r = await db.execute(sql`select current_user`);
  return rowsOf<{ current_user: string }>(r)[0]?.current_user ?? '';
}

/** Drizzle's execute() answers `{rows}` on both drivers. */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as { rows?: T[] } | T[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}
