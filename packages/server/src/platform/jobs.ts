/**
 * A PostgreSQL-backed job queue: a job is a row of `jobs` (so it survives a restart and any instance can run it),
 * claimed with FOR UPDATE SKIP LOCKED by gh_claim_job, then run inside its tenant's scope. The in-process worker
 * starts with the app and stops on close.
 */
import { type Database, jobs, rowsOf, type Tx, withTenantTx } from '@guildhall/db';
import { and, eq, sql } from 'drizzle-orm';
import type { BoundResource } from './resources/registry.ts';
import type { Storage } from './storage.ts';

export interface ClaimedJob {
  tenantId: string;
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  userId: number | null;
  attempts: number;
}

export type JobHandler = (database: Database, job: ClaimedJob) => Promise<void>;

export const MAX_JOB_ATTEMPTS = 3;

/** A failure that another attempt cannot fix (bad input): the job fails at once, with this message. */
export class PermanentJobError extends Error {}

/** What a feature's job handler may use, given when the worker starts. */
export interface JobEnvironment {
  storage: Storage;
  resources: readonly BoundResource[];
}
const registeredHandlers = new Map<string, (env: JobEnvironment) => JobHandler>();

/** A feature registers the handler of its job kind at load time; the worker started by the app runs it. */
export function registerJobHandler(kind: string, make: (env: JobEnvironment) => JobHandler): void {
  registeredHandlers.set(kind, make);
}

export function registeredJobHandlers(env: JobEnvironment): Record<string, JobHandler> {
  return Object.fromEntries([...registeredHandlers].map(([kind, make]) => [kind, make(env)]));
}

export async function enqueue(
  tx: Tx,
  job: { tenantId: string; kind: string; payload: Record<string, unknown>; userId: number | null },
): Promise<string> {
  const [row] = await tx.insert(jobs).values(job).returning({ id: jobs.id });
  if (!row) throw new Error('job insert returned nothing');
  return row.id;
}

interface ClaimRow {
  tenant_id: string;
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  user_id: string | number | null;
  attempts: number;
}

async function claim(database: Database, kinds: string[]): Promise<ClaimedJob | null> {
  const r = await database.db.transaction((tx) =>
    tx.execute(sql`select * from gh_claim_job(${`{${kinds.join(',')}}`}::text[])`),
  );
  const row = rowsOf<ClaimRow>(r)[0];
  if (!row) return null;
  return {
    tenantId: row.tenant_id,
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    userId: row.user_id == null ? null : Number(row.user_id),
    attempts: row.attempts,
  };
}

async function finish(
  database: Database,
  job: ClaimedJob,
  error: string | null,
  permanent = false,
): Promise<void> {
  const retry = error !== null && !permanent && job.attempts < MAX_JOB_ATTEMPTS;
  await withTenantTx(database.db, { tenantId: job.tenantId }, (tx) =>
    tx
      .update(jobs)
      .set(
        retry
          ? { status: 'queued', error, runAfter: new Date(Date.now() + 1000 * job.attempts) }
          : { status: error ? 'failed' : 'done', error, finishedAt: new Date() },
      )
      .where(and(eq(jobs.tenantId, job.tenantId), eq(jobs.id, job.id))),
  );
}

export interface Worker {
  /** Look for work now (called after an enqueue, so a job starts without waiting for the next poll). */
  wake(): void;
  /** Runs every job that is due, then resolves (tests). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export function startWorker(
  database: Database,
  handlers: Record<string, JobHandler>,
  options: { pollMs?: number; onError?: (err: unknown) => void } = {},
): Worker {
  const kinds = Object.keys(handlers);
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const runOnce = async (): Promise<boolean> => {
    const job = await claim(database, kinds);
    if (!job) return false;
    let error: string | null = null;
    let permanent = false;
    try {
      const handler = handlers[job.kind];
      if (!handler) throw new Error(`no handler for job ${job.kind}`);
      await handler(database, job);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      permanent = err instanceof PermanentJobError;
      if (!permanent) options.onError?.(err);
    }
    await finish(database, job, error, permanent);
    return true;
  };
  const loop = async () => {
    try {
      while (!stopped && (await runOnce())) {
        // keep going while there is work
      }
    } catch (err) {
      options.onError?.(err);
    }
  };
  const tick = () => {
    if (stopped) return;
    if (!running) {
      running = loop().finally(() => {
        running = null;
      });
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick();
      schedule();
    }, options.pollMs ?? 1000);
    timer.unref();
  };
  schedule();
  return {
    wake: () => setImmediate(tick),
    async drain() {
      tick();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (running) await running;
    },
  };
}
