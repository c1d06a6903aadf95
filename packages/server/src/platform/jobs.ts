/**
 * A PostgreSQL-backed job queue: a job is a row of `jobs` (so it survives a restart and any instance can run it),
 * claimed with FOR UPDATE SKIP LOCKED by gh_claim_job, then run inside its tenant's scope. The in-process worker
 * is started by the composition root (services.ts) and stops when the app closes.
 *
 * While a job runs on PostgreSQL, its instance refreshes the row's `locked_at` (a heartbeat) and may write its
 * progress there, each in a short statement of its own beside the job's work: every instance can read them, and
 * a running job not heard of for JOB_LEASE_MS (its instance stopped) is claimed again. Embedded PGlite has one
 * connection, held by a job's transaction while it runs, so nothing is written beside it there; one process owns
 * a PGlite database, so its worker takes back every job left running when it starts.
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
  /**
   * Aborted when the worker is asked to stop (the process is shutting down). A long job may end early at a point
   * where it can resume, after queueing what is left of it; `stop()` waits for it either way.
   */
  stopping?: AbortSignal;
}

export type JobHandler = (database: Database, job: ClaimedJob) => Promise<void>;

export const MAX_JOB_ATTEMPTS = 3;
/** How often a running job's instance says it is alive (PostgreSQL). */
export const JOB_HEARTBEAT_MS = 15_000;
/** A running job whose instance has not said so for this long is claimed again by another (or the next) one. */
export const JOB_LEASE_MS = 120_000;

/** A failure that another attempt cannot fix (bad input): the job fails at once, with this message. */
export class PermanentJobError extends Error {}

/**
 * What a job handler may use: the part of the app's services (services.ts) it needs. A feature declares its
 * handlers in its module (`jobs`); the composition root makes them with the services and starts the worker.
 */
export interface JobEnvironment {
  storage: Storage;
  resources: readonly BoundResource[];
}

export async function enqueue(
  tx: Tx,
  job: {
    tenantId: string;
    kind: string;
    payload: Record<string, unknown>;
    userId: number | null;
    runAfter?: Date;
  },
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

async function claim(database: Database, kinds: string[], staleAfterMs: number): Promise<ClaimedJob | null> {
  const stale = `${Math.max(0, Math.round(staleAfterMs))} milliseconds`;
  const r = await database.db.transaction((tx) =>
    tx.execute(
      sql`select * from gh_claim_job(${`{${kinds.join(',')}}`}::text[], ${stale}::interval, ${MAX_JOB_ATTEMPTS}::int)`,
    ),
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

/** How long `drain(tenantId)` waits at most for the association's jobs another instance runs. */
const DRAIN_WAIT_MS = 30_000;

/** How many of an association's jobs of these kinds are due now and not finished (queued or running anywhere). */
async function pendingJobs(database: Database, tenantId: string, kinds: string[]): Promise<number> {
  if (kinds.length === 0) return 0;
  const r = await withTenantTx(database.db, { tenantId }, (tx) =>
    tx.execute(
      sql`select count(*)::int as n from jobs where tenant_id = ${tenantId} and status in ('queued', 'running')
            and run_after <= now() and kind = any(${`{${kinds.join(',')}}`}::text[])`,
    ),
  );
  return Number(rowsOf<{ n: number }>(r)[0]?.n ?? 0);
}

/** Whether statements beside a running job's own transaction can run (PostgreSQL's pool) or would wait (PGlite). */
function canWriteBeside(database: Database): boolean {
  return database.kind === 'postgres';
}

/**
 * One short write about a running job, beside its work and never awaited by it (so it can never wait on the job's
 * own connection): at most one in flight, later ones dropped while it runs. `settle()` waits for the last one.
 */
function besideWriter(database: Database, job: Pick<ClaimedJob, 'tenantId' | 'id'>) {
  let inFlight: Promise<void> | null = null;
  return {
    busy: () => inFlight !== null,
    write(set: Partial<typeof jobs.$inferInsert>): void {
      if (inFlight || !canWriteBeside(database)) return;
      inFlight = withTenantTx(database.db, { tenantId: job.tenantId }, async (tx) => {
        await tx
          .update(jobs)
          .set({ ...set, lockedAt: sql`now()` })
          .where(and(eq(jobs.tenantId, job.tenantId), eq(jobs.id, job.id), eq(jobs.status, 'running')));
      })
        .catch(() => undefined)
        .finally(() => {
          inFlight = null;
        });
    },
    async settle(): Promise<void> {
      while (inFlight) await inFlight;
    },
  };
}

export interface JobProgress {
  /** Rows (or any unit) done of all; written for other instances at most every `everyRows` or `everyMs`. */
  report(done: number, total: number): void;
  /** Waits for a write in flight (call after the job's own transaction has ended). */
  settle(): Promise<void>;
}

/**
 * Progress of a running job in its row, for every instance to read: a short statement of its own, outside the
 * job's transaction, throttled. On PGlite it writes nothing (it would wait for the job's own connection); keep
 * progress in memory there, where one process serves every request anyway.
 */
export function jobProgress(
  database: Database,
  job: Pick<ClaimedJob, 'tenantId' | 'id'>,
  options: { everyRows?: number; everyMs?: number } = {},
): JobProgress {
  const everyRows = options.everyRows ?? 500;
  const everyMs = options.everyMs ?? 1000;
  const writer = besideWriter(database, job);
  let writtenDone = -1;
  let writtenAt = 0;
  return {
    report(done, total) {
      const now = Date.now();
      if (writer.busy() || (done - writtenDone < everyRows && now - writtenAt < everyMs)) return;
      writtenDone = done;
      writtenAt = now;
      writer.write({ progressDone: done, progressTotal: total });
    },
    settle: () => writer.settle(),
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
  /**
   * Runs every job that is due, then resolves (tests). With an association's id it also waits while a job of that
   * association due now is still queued or running anywhere: on a database shared by several instances another one
   * may have claimed it (bounded by `DRAIN_WAIT_MS`).
   */
  drain(tenantId?: string): Promise<void>;
  stop(): Promise<void>;
}

export function startWorker(
  database: Database,
  handlers: Record<string, JobHandler>,
  options: { pollMs?: number; heartbeatMs?: number; leaseMs?: number; onError?: (err: unknown) => void } = {},
): Worker {
  const kinds = Object.keys(handlers);
  let stopped = false;
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  // One process owns a PGlite database: a job left running there was stopped with its process, take it back now.
  const leaseMs = options.leaseMs ?? JOB_LEASE_MS;
  let staleAfterMs = canWriteBeside(database) ? leaseMs : 0;
  const runOnce = async (): Promise<boolean> => {
    const job = await claim(database, kinds, staleAfterMs);
    staleAfterMs = leaseMs;
    if (!job) return false;
    let error: string | null = null;
    let permanent = false;
    const heartbeat = besideWriter(database, job);
    const beat = setInterval(() => heartbeat.write({}), options.heartbeatMs ?? JOB_HEARTBEAT_MS);
    beat.unref();
    try {
      const handler = handlers[job.kind];
      if (!handler) throw new Error(`no handler for job ${job.kind}`);
      await handler(database, { ...job, stopping: stopping.signal });
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      permanent = err instanceof PermanentJobError;
      if (!permanent) options.onError?.(err);
    } finally {
      clearInterval(beat);
      await heartbeat.settle();
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
    async drain(tenantId?: string) {
      // A pass already running may have looked for due jobs before the caller's last write committed: wait for it,
      // then make a pass of our own, so every job due when drain() was called has run when it resolves.
      const pass = async () => {
        while (running) await running;
        tick();
        while (running) await running;
      };
      await pass();
      if (!tenantId) return;
      const until = Date.now() + DRAIN_WAIT_MS;
      while (Date.now() < until && (await pendingJobs(database, tenantId, kinds)) > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await pass();
      }
    },
    async stop() {
      stopped = true;
      stopping.abort();
      if (timer) clearTimeout(timer);
      while (running) await running;
    },
  };
}

/** The hour of the association's day from which its daily jobs are queued (decision 0181). */
export const DAILY_JOB_HOUR = 7;
/** How often an instance checks whether a daily job is due somewhere. */
export const DAILY_CHECK_MS = 10 * 60_000;

/**
 * Queues the daily job kinds that are due (once per association and day of its own calendar, from `hour` there) and
 * answers how many were queued. Safe to call from every instance at any time: gh_queue_daily claims each run once.
 */
export async function queueDaily(
  database: Database,
  kinds: readonly string[],
  now: Date = new Date(),
  hour = DAILY_JOB_HOUR,
): Promise<number> {
  if (kinds.length === 0) return 0;
  const r = await database.db.execute(
    sql`select gh_queue_daily(array[${sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    )}]::text[], ${hour}::integer, ${now.toISOString()}::timestamptz) as n`,
  );
  return Number(rowsOf<{ n: number | string }>(r)[0]?.n ?? 0);
}

/** Checks for due daily jobs at start and every DAILY_CHECK_MS, waking the worker when it queued some. */
export function startDaily(
  database: Database,
  kinds: readonly string[],
  wake: () => void,
  onError: (err: unknown) => void,
): { stop(): void } {
  if (kinds.length === 0) return { stop() {} };
  const check = () =>
    void queueDaily(database, kinds)
      .then((n) => {
        if (n > 0) wake();
      })
      .catch(onError);
  const first = setTimeout(check, 1000);
  first.unref();
  const timer = setInterval(check, DAILY_CHECK_MS);
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
