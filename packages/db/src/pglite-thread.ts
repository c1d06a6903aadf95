/**
 * Embedded PGlite in a worker thread of its own (decision 0085). The engine's WebAssembly runs synchronously and
 * its answers settle promises back to back: in the main thread, a long transaction (an import) left the event loop
 * no turn to read a socket, so every request of every tenant waited. Here each call into the engine is one message
 * to the worker and one back: while the engine works, the main thread serves HTTP.
 *
 * The design of decision 0061 is kept: a statement is one call (the client writes its protocol messages and reads
 * the answer in this thread, `pglite-tx.ts`), and a list page is one call. This object is also what Drizzle's PGlite
 * driver uses as its client (`query`, `exec`, `transaction`), so migrations, seeding and Drizzle's own transactions
 * run through the same calls. Transactions are ordered here: one at a time, as PGlite's own lock orders them.
 */
import { Worker } from 'node:worker_threads';
import { Mutex, types } from '@electric-sql/pglite';
import {
  type Parsers,
  type PgliteEngine,
  type PgliteResult,
  PgliteTxClient,
  type QueryOptions,
  ROLLED_BACK,
} from './pglite-tx.ts';

/** What the worker thread (pglite-thread.worker.js) is started with, and the messages both ways. */
export interface PgliteThreadOptions {
  dataDir?: string | undefined;
  /** A dumped data folder (tar) to start from. */
  loadDataDir?: ArrayBuffer | undefined;
  /** Server settings, `name=value` each (PostgreSQL's `-c`). */
  settings?: readonly string[] | undefined;
  /** The engine's initial WebAssembly memory, in bytes. */
  initialMemory?: number | undefined;
}

export type PgliteThreadRequest =
  | { id: number; op: 'protocol'; message: Uint8Array }
  | { id: number; op: 'copyFrom'; text: string; data: ArrayBuffer }
  | { id: number; op: 'dump' }
  | { id: number; op: 'memory' }
  | { id: number; op: 'close' };

export type PgliteThreadAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; fields: Record<string, unknown> } };

type Request = PgliteThreadRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export interface PgliteThreadStart {
  dataDir?: string | undefined;
  loadDataDir?: Blob | undefined;
  settings?: readonly string[] | undefined;
  initialMemory?: number | undefined;
}

export class PgliteThread implements PgliteEngine {
  readonly parsers: Parsers = { ...(types.parsers as Parsers) };
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly transactions = new Mutex();
  private next = 1;
  private failure: Error | undefined;
  closed = false;

  private constructor(worker: Worker) {
    this.worker = worker;
    worker.on('message', (answer: PgliteThreadAnswer) => this.settle(answer));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`The database thread stopped (exit code ${code}).`)));
  }

  /** Starts the engine in its thread; resolves once it accepts statements. */
  static async start(options: PgliteThreadStart = {}): Promise<PgliteThread> {
    const workerData: PgliteThreadOptions = {
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined,
      settings: options.settings,
      initialMemory: options.initialMemory,
    };
    const worker = new Worker(new URL('./pglite-thread.worker.js', import.meta.url), {
      workerData,
      transferList: workerData.loadDataDir ? [workerData.loadDataDir] : [],
    });
    const thread = new PgliteThread(worker);
    await new Promise((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    thread.idle();
    await thread.initArrayTypes();
    return thread;
  }

  pgliteEngine(): PgliteEngine {
    return this;
  }

  runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.transactions.runExclusive(fn);
  }

  protocol(message: Uint8Array): Promise<Uint8Array> {
    return this.request({ op: 'protocol', message }) as Promise<Uint8Array>;
  }

  /** One statement outside any transaction, as `PGlite.query` (Drizzle's client); `blob` feeds a COPY … FROM '/dev/blob'. */
  query<T = Record<string, unknown>>(
    text: string,
    params: readonly unknown[] = [],
    options?: QueryOptions,
  ): Promise<PgliteResult & { rows: T[] }> {
    return this.transactions.runExclusive(async () => {
      if (options?.blob !== undefined) {
        const data = await (options.blob as Blob).arrayBuffer();
        const affectedRows = (await this.request({ op: 'copyFrom', text, data }, [data])) as number;
        return { rows: [] as T[], fields: [], affectedRows };
      }
      return (await new PgliteTxClient(this).query(text, params, options)) as PgliteResult & { rows: T[] };
    });
  }

  /** Statements as text (the simple protocol), outside any transaction, as `PGlite.exec`. */
  exec(text: string, options?: QueryOptions): Promise<PgliteResult[]> {
    return this.transactions.runExclusive(() => new PgliteTxClient(this).exec(text, options));
  }

  /** A transaction, as `PGlite.transaction` (Drizzle's own transactions, migrations and seeding go through it). */
  transaction<T>(fn: (client: PgliteTxClient) => Promise<T>): Promise<T> {
    return this.transactions.runExclusive(async () => {
      const client = new PgliteTxClient(this);
      await client.exec('begin');
      let result: T;
      try {
        result = await fn(client);
      } catch (error) {
        if (!client.ended) await client.end('rollback');
        throw error;
      }
      if (!client.ended && (await client.end('commit')) !== 'COMMIT') throw new Error(ROLLED_BACK);
      return result;
    });
  }

  /** The data folder as a tar file (tests clone a migrated database from it). */
  async dumpDataDir(_compression?: 'none'): Promise<Blob> {
    const bytes = (await this.transactions.runExclusive(() => this.request({ op: 'dump' }))) as ArrayBuffer;
    return new Blob([bytes]);
  }

  /** The engine's WebAssembly memory, in bytes. */
  async memory(): Promise<{ wasmBytes: number }> {
    return (await this.request({ op: 'memory' })) as { wasmBytes: number };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.transactions.runExclusive(async () => {
      if (!this.failure) await this.request({ op: 'close' }).catch(() => undefined);
      this.closed = true;
    });
    await this.worker.terminate();
  }

  /** Array types' parsers, as PGlite reads them from the catalogue when it starts. */
  private async initArrayTypes(): Promise<void> {
    const { rows } = await this.query<{ oid: number; typarray: number }>(`
      SELECT b.oid, b.typarray
      FROM pg_catalog.pg_type a
      LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
      WHERE a.typcategory = 'A'
      GROUP BY b.oid, b.typarray
      ORDER BY b.oid`);
    for (const r of rows) {
      const element = r.oid;
      this.parsers[r.typarray] = (value: string) =>
        types.arrayParser(value, this.parsers[element] as never, r.typarray);
    }
  }

  private request(request: Request, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('The database is closed.'));
    const id = this.next++;
    const promise = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // The thread keeps the process alive only while it owes an answer.
    if (this.pending.size === 1) this.worker.ref();
    this.worker.postMessage({ ...request, id }, transfer);
    return promise;
  }

  private settle(answer: PgliteThreadAnswer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.idle();
    if (answer.ok) pending.resolve(answer.value);
    else pending.reject(Object.assign(new Error(answer.error.message), answer.error.fields));
  }

  private idle(): void {
    this.worker.unref();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
