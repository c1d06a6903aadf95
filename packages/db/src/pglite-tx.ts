/**
 * Transactions on embedded PGlite that cross into the engine as few times as they can (decision 0061).
 *
 * PGlite's own `query` makes six calls into the WebAssembly engine for one statement (parse, describe the
 * statement, bind, describe the portal, execute, sync) and its `transaction` two more for each of `begin` and
 * `commit`; a call costs about as much as a small statement. Here a statement is one call (its protocol messages
 * written together, parameters converted as node-postgres converts them, so a value means the same on both
 * databases), a transaction opens with `begin` and its first statement in one call, and several statements (and
 * the commit) may travel in one call too, as they do in one round trip on PostgreSQL.
 *
 * The transaction holds PGlite's transaction lock for its whole life, as `PGlite.transaction` does: no other query
 * or transaction of the process runs inside it. Each call into the engine also holds the query lock.
 */
import { PGlite, protocol } from '@electric-sql/pglite';
import { type KeptStatements, keptStatementsOf, withGenericPlans } from './kept-statements.ts';
import { prepareValue } from './params.ts';

const wire = protocol.serialize;

/** The error of a transaction whose commit found it aborted (a statement in it failed and its caller went on). */
export const ROLLED_BACK = 'The transaction was rolled back: a statement in it failed.';

export interface PgliteStatement {
  text: string;
  params: readonly unknown[];
  /** Kept prepared in the engine's session under a name (`kept-statements.ts`). */
  keep?: boolean;
}

type Parser = (value: string, typeId: number) => unknown;
export type Parsers = Record<number | string, Parser>;

/**
 * The engine a transaction talks to: PGlite in this thread (tests of this package) or in a worker thread of its
 * own (`PgliteThread`, what the application opens). `protocol` is one call into the engine: the frontend's protocol
 * messages in, the backend's answer out, as bytes. `runExclusiveTransaction` holds the engine for one transaction
 * (or one statement outside a transaction).
 */
export interface PgliteEngine {
  readonly parsers: Parsers;
  runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  protocol(message: Uint8Array): Promise<Uint8Array>;
}

const localEngines = new WeakMap<PGlite, PgliteEngine>();

/** The engine of a PGlite instance that runs in this thread. */
export function localEngine(pglite: PGlite): PgliteEngine {
  let engine = localEngines.get(pglite);
  if (!engine) {
    engine = {
      get parsers() {
        return pglite.parsers as Parsers;
      },
      runExclusiveTransaction: (fn) => pglite._runExclusiveTransaction(fn),
      async protocol(message) {
        const chunks: Uint8Array[] = [];
        await pglite._runExclusiveQuery(() =>
          pglite.execProtocolRawStream(message, {
            syncToFs: false,
            // A chunk is a view of the engine's memory, valid only during the callback.
            onRawData: (chunk: Uint8Array) => {
              chunks.push(chunk.slice());
            },
          }),
        );
        return chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks);
      },
    };
    localEngines.set(pglite, engine);
  }
  return engine;
}

/** Objects that carry an engine of their own (the worker thread's client) say so with this method. */
interface HasEngine {
  pgliteEngine(): PgliteEngine;
}

/** The PGlite engine behind a Drizzle client, or null when the client is not PGlite (a node-postgres pool). */
export function engineOf(client: unknown): PgliteEngine | null {
  if (client instanceof PGlite) return localEngine(client);
  if (client && typeof (client as Partial<HasEngine>).pgliteEngine === 'function')
    return (client as HasEngine).pgliteEngine();
  return null;
}

export interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Parsers;
  blob?: unknown;
}

/** A statement's answer, shaped as PGlite answers it (Drizzle's PGlite driver reads `rows` and `fields`). */
export interface PgliteResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  command?: string;
  affectedRows: number;
  rowCount?: number;
}

const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The extended protocol's messages for one statement: the unnamed statement and portal, or a kept statement's name
 * (parsed first on its first use in the session; `parsed` collects those names).
 */
function extended(
  statement: PgliteStatement,
  out: Uint8Array[],
  kept?: KeptStatements,
  parsed?: string[],
): void {
  const use = statement.keep && kept ? kept.use(statement.text) : { name: '', parse: true };
  if (use.parse) out.push(wire.parse({ text: statement.text, name: use.name }));
  if (use.parse && use.name) parsed?.push(use.name);
  out.push(
    wire.bind({ statement: use.name, values: statement.params.map((v) => prepareValue(v)) }),
    wire.describe({ type: 'P' }),
    wire.execute({}),
  );
}

const { DatabaseError } = protocol.messages;

/** The error fields of an ErrorResponse, by their one-letter codes, as PGlite's own errors carry them. */
const ERROR_FIELDS: Record<string, string> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

function readError(buf: Buffer, at: number, end: number, length: number): Error {
  const fields: Record<string, string> = {};
  while (at < end && buf[at] !== 0) {
    const code = String.fromCharCode(buf[at] as number);
    const stop = buf.indexOf(0, at + 1);
    fields[code] = buf.toString('utf8', at + 1, stop);
    at = stop + 1;
  }
  const error = new DatabaseError(fields.M ?? 'Unknown database error', length, 'error') as unknown as Record<
    string,
    unknown
  >;
  for (const [code, name] of Object.entries(ERROR_FIELDS)) error[name] = fields[code];
  return error as unknown as Error;
}

/**
 * Reads the engine's answer (the backend's protocol messages, as bytes) into one result per completed statement,
 * values through the type parsers; throws the first error the engine answered. PGlite's own reader copies every
 * field into an ArrayBuffer of its own before decoding it (about a fifth of a list request's time, and garbage
 * that brings the next full collection closer); this one decodes each value from the answer in place.
 */
export function readResults(bytes: Uint8Array, parsers: Parsers, options?: QueryOptions): PgliteResult[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const overrides = options?.parsers;
  const asArrays = options?.rowMode === 'array';
  const results: PgliteResult[] = [];
  let failure: Error | undefined;
  let fields: PgliteResult['fields'] = [];
  let names: string[] = [];
  let readers: (Parser | undefined)[] = [];
  let rows: unknown[] = [];
  let at = 0;
  while (at + 5 <= buf.length) {
    const type = buf[at] as number;
    const length = buf.readInt32BE(at + 1);
    const body = at + 5;
    const end = at + 1 + length;
    at = end;
    switch (type) {
      case 0x54: {
        // RowDescription: name, table oid, column number, type oid, type size, type modifier, format.
        const count = buf.readInt16BE(body);
        fields = new Array(count);
        names = new Array(count);
        readers = new Array(count);
        let p = body + 2;
        for (let i = 0; i < count; i++) {
          const stop = buf.indexOf(0, p);
          const name = buf.toString('utf8', p, stop);
          const dataTypeID = buf.readInt32BE(stop + 7);
          fields[i] = { name, dataTypeID };
          names[i] = name;
          readers[i] = overrides?.[dataTypeID] ?? parsers[dataTypeID];
          p = stop + 19;
        }
        break;
      }
      case 0x44: {
        // DataRow: each value's length (-1 for null), then its text.
        const count = buf.readInt16BE(body);
        const row: unknown[] | Record<string, unknown> = asArrays ? new Array(count) : {};
        let p = body + 2;
        for (let i = 0; i < count; i++) {
          const size = buf.readInt32BE(p);
          p += 4;
          let value: unknown = null;
          if (size >= 0) {
            const text = buf.toString('utf8', p, p + size);
            p += size;
            const reader = readers[i];
            value = reader ? reader(text, (fields[i] as { dataTypeID: number }).dataTypeID) : text;
          }
          if (asArrays) (row as unknown[])[i] = value;
          else (row as Record<string, unknown>)[names[i] as string] = value;
        }
        rows.push(row);
        break;
      }
      case 0x43: {
        // CommandComplete: the command's tag, such as "SELECT 50" or "INSERT 0 1".
        const tag = buf.toString('utf8', body, end - 1);
        const words = tag.split(' ');
        const command = words[0] ?? '';
        const n = Number.parseInt(words[words.length - 1] ?? '', 10);
        const result: PgliteResult = {
          rows,
          fields,
          command,
          affectedRows: COUNTED.has(command) && !Number.isNaN(n) ? n : 0,
        };
        if (!Number.isNaN(n)) result.rowCount = n;
        results.push(result);
        rows = [];
        fields = [];
        names = [];
        readers = [];
        break;
      }
      case 0x49:
        // EmptyQueryResponse.
        results.push({ rows: [], fields: [], affectedRows: 0 });
        break;
      case 0x45:
        // ErrorResponse: the engine skips to the sync; the first error is the call's.
        failure ??= readError(buf, body, end, length);
        break;
      default:
        // ParseComplete, BindComplete, NoData, ReadyForQuery, notices: nothing to read.
        break;
    }
  }
  if (failure) throw failure;
  return results;
}

/**
 * The connection of one PGlite transaction, as Drizzle's PGlite session uses a client (`query`, `exec`), plus
 * `pipeline` for several statements in one call. Valid only while its transaction holds the lock.
 */
export class PgliteTxClient {
  /** True once the transaction ended (committed by a pipeline, or rolled back). */
  ended = false;
  private readonly engine: PgliteEngine;

  constructor(engine: PgliteEngine) {
    this.engine = engine;
  }

  private async call(
    parts: readonly Uint8Array[],
    options?: QueryOptions,
    parsed: readonly string[] = [],
  ): Promise<PgliteResult[]> {
    if (this.ended) throw new Error('The transaction has ended.');
    if (options?.blob !== undefined) throw new Error('A transaction of the application does not copy files.');
    try {
      const answer = await this.engine.protocol(concat(parts));
      return readResults(answer, this.engine.parsers, options);
    } catch (error) {
      keptStatementsOf(this.engine).failed(parsed);
      throw error;
    }
  }

  /** One statement with parameters: one call into the engine. */
  async query(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<PgliteResult> {
    const parts: Uint8Array[] = [];
    extended({ text, params }, parts);
    parts.push(wire.sync());
    const [result] = await this.call(parts, options);
    return result ?? { rows: [], fields: [], affectedRows: 0 };
  }

  /** Statements as text without parameters (the simple protocol): one call, one result per statement. */
  exec(text: string, options?: QueryOptions): Promise<PgliteResult[]> {
    return this.call([wire.query(text), wire.sync()], options);
  }

  /** Ends the transaction with `commit` or `rollback`; answers the engine's tag (`ROLLBACK` for an aborted one). */
  async end(how: 'commit' | 'rollback'): Promise<string | undefined> {
    const [ended] = await this.exec(how);
    this.ended = true;
    return ended?.command;
  }

  /**
   * Several statements in one call, each answered with its rows (as objects). With `commit`, the transaction's
   * commit follows them in that call and the transaction ends. An error in any statement fails the whole call;
   * the engine skips what follows it.
   */
  async pipeline(given: readonly PgliteStatement[], options: QueryOptions & { commit?: boolean } = {}) {
    const { sent: statements, picked } = withGenericPlans(given);
    const parts: Uint8Array[] = [];
    const kept = keptStatementsOf(this.engine);
    const parsed: string[] = [];
    // Closed first (closing a name that does not exist is no error); closed again later when the call fails.
    for (const name of kept.takeClosing()) {
      parts.push(wire.close({ type: 'S', name }));
      parsed.push(name);
    }
    for (const s of statements) extended(s, parts, kept, parsed);
    if (options.commit) extended({ text: 'commit', params: [] }, parts);
    parts.push(wire.sync());
    const results = await this.call(parts, options, parsed);
    if (options.commit) {
      this.ended = true;
      if (results[statements.length]?.command !== 'COMMIT') throw new Error(ROLLED_BACK);
    }
    return picked(results.slice(0, statements.length));
  }
}

/**
 * A PGlite transaction whose first statement is `opening` (text made by the server), sent with `begin` in one call.
 * `fn` gets the transaction's client and the opening statement's rows; the transaction commits after it (unless a
 * pipeline committed already) or rolls back when it fails.
 */
export async function pgliteTransaction<T>(
  pglite: PGlite | PgliteEngine,
  opening: string,
  fn: (client: PgliteTxClient, rows: Record<string, unknown>[]) => Promise<T>,
): Promise<T> {
  const engine = pglite instanceof PGlite ? localEngine(pglite) : pglite;
  return engine.runExclusiveTransaction(async () => {
    const client = new PgliteTxClient(engine);
    let result: T;
    try {
      const opened = await client.exec(`begin; ${opening}`);
      result = await fn(client, (opened[opened.length - 1]?.rows ?? []) as Record<string, unknown>[]);
    } catch (error) {
      if (!client.ended) await client.end('rollback');
      throw error;
    }
    if (!client.ended) {
      // A statement failed inside `fn` and `fn` went on: nothing was committed.
      if ((await client.end('commit')) !== 'COMMIT') throw new Error(ROLLED_BACK);
    }
    return result;
  });
}

/**
 * A read in one call into the engine: `begin`, the statements and `commit` together, each statement answered with
 * its rows (as objects). The statements run in order in one transaction, so the first may scope it for the others.
 * A failure in any statement rolls the transaction back and fails the call.
 */
export async function pgliteReadInOneCall(
  pglite: PGlite | PgliteEngine,
  statements: readonly PgliteStatement[],
  options: QueryOptions = {},
): Promise<PgliteResult[]> {
  const engine = pglite instanceof PGlite ? localEngine(pglite) : pglite;
  return engine.runExclusiveTransaction(async () => {
    const client = new PgliteTxClient(engine);
    try {
      const results = await client.pipeline([{ text: 'begin', params: [] }, ...statements], {
        ...options,
        commit: true,
      });
      return results.slice(1);
    } catch (error) {
      if (!client.ended) await client.end('rollback');
      throw error;
    }
  });
}
