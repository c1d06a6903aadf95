/**
 * SQL as text with its values kept apart (a Fragment), rendered to `$n` placeholders and run in a transaction
 * without Drizzle's query builder. The screen layer writes its list statements this way: they run on every list
 * request, where building and mapping through the builder cost more than the statement itself (decision 0060).
 * Values are always parameters; only text the server wrote (identifiers, operators, keywords) is SQL.
 */

import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, rowsOf, type Tx } from './client.ts';
import { type KeptStatements, keptStatementsOf, withGenericPlans } from './kept-statements.ts';
import { prepareValue } from './params.ts';
import { engineOf, PgliteTxClient, pgliteReadInOneCall } from './pglite-tx.ts';

/** Text the server wrote: an identifier, an operator, a keyword. Never a value from a request. */
export class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export class Fragment {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
  constructor(strings: readonly string[], values: readonly unknown[]) {
    this.strings = strings;
    this.values = values;
  }
}

/**
 * A statement kept prepared on its connection under a name (`kept-statements.ts`): parsed once per connection, and
 * planned once its plan cache keeps the generic plan. Its text is one shape of a request; its values are parameters.
 */
export class KeptFragment extends Fragment {}

/** The fragment as a statement kept prepared on the connection that runs it (when run by `runFragments` or `readInOneTrip`). */
export function kept(f: Fragment): KeptFragment {
  return new KeptFragment(f.strings, f.values);
}

/** A fragment: every interpolated value is a parameter, except fragments (inlined) and `Raw` text. */
export function q(strings: TemplateStringsArray, ...values: unknown[]): Fragment {
  return new Fragment(strings, values);
}

export function raw(text: string): Raw {
  return new Raw(text);
}

/** A quoted identifier (`"name"`, quotes doubled). */
export function ident(name: string): Raw {
  return new Raw(`"${name.replaceAll('"', '""')}"`);
}

/** The fragments joined by `separator` (text the server wrote, such as `, `). */
export function joinFragments(parts: readonly Fragment[], separator: string): Fragment {
  if (parts.length === 0) return new Fragment([''], []);
  return new Fragment(['', ...parts.slice(1).map(() => separator), ''], parts);
}

/** Every condition, each in parentheses, joined by `and`; undefined when there is none. */
export function allOf(conditions: readonly (Fragment | null | undefined)[]): Fragment | undefined {
  const present = conditions.filter((c): c is Fragment => c != null);
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  return new Fragment(['(', ...present.slice(1).map(() => ') and ('), ')'], present);
}

export interface Statement {
  text: string;
  params: unknown[];
  /** Kept prepared on the connection under a name (a `KeptFragment`). */
  keep?: boolean;
}

function append(f: Fragment, out: string[], params: unknown[]): void {
  const { strings, values } = f;
  for (let i = 0; i < values.length; i++) {
    out.push(strings[i] as string);
    const v = values[i];
    if (v instanceof Fragment) append(v, out, params);
    else if (v instanceof Raw) out.push(v.text);
    else {
      params.push(v);
      out.push(`$${params.length}`);
    }
  }
  out.push(strings[values.length] as string);
}

export function render(f: Fragment): Statement {
  const out: string[] = [];
  const params: unknown[] = [];
  append(f, out, params);
  return f instanceof KeptFragment
    ? { text: out.join(''), params, keep: true }
    : { text: out.join(''), params };
}

interface PreparingSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: undefined,
    isResponseInArrayMode: boolean,
  ): { execute(): Promise<unknown> };
}

/**
 * Runs a fragment in the transaction and answers its rows as objects keyed by column name, read as Drizzle's
 * `execute` reads them on either driver (dates and timestamps as the database's text).
 */
export async function runFragment<T = Record<string, unknown>>(tx: Tx, f: Fragment): Promise<T[]> {
  const { text, params } = render(f);
  // The transaction's session prepares exactly what `tx.execute` would, from text that is already rendered.
  const session = (tx as unknown as { session: PreparingSession }).session;
  return rowsOf<T>(await session.prepareQuery({ sql: text, params }, undefined, undefined, false).execute());
}

type Row = Record<string, unknown>;

/**
 * The rows of a statement read in a loop of many round trips (a cursor's `fetch`), as `runFragment` answers them.
 * On PostgreSQL it goes through node-postgres's callback form, settled by a promise of our own: awaited in a loop,
 * the promise form of `client.query` (which Drizzle's `execute` uses) kept each batch alive into V8's old space
 * (about 40% of what a million-row cursor read allocated was promoted, against under 1% this way; decision 0191).
 */
export async function runFragmentInLoop<T = Record<string, unknown>>(tx: Tx, f: Fragment): Promise<T[]> {
  const client = (tx as unknown as { session: { client: unknown } }).session.client;
  if (!(client instanceof pg.Client)) return runFragment<T>(tx, f);
  const { text, params } = render(f);
  return new Promise<T[]>((resolve, reject) => {
    client.query(
      { text, values: params, types: rawTypes as never },
      (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result.rows as T[])),
    );
  });
}

/** Drizzle reads these as the database's text (its columns decode them); so do fragments, on either path. */
const TEXT_TYPES = new Set([1082, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const rawTypes = {
  getTypeParser: (oid: number, format?: string) =>
    TEXT_TYPES.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text'),
};

interface ProtocolConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parse(m: { text: string; name: string; types: number[] }): void;
  close(m: { type: 'S'; name: string }): void;
  bind(m: { portal: string; statement: string; values: unknown[]; valueMapper: unknown }): void;
  describe(m: { type: 'P'; name: string }): void;
  execute(m: { portal: string; rows: number }): void;
  sync(): void;
}
interface FieldsMessage {
  fields: unknown[];
}
interface ResultLike {
  rows: Row[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): Row;
  addRow(row: Row): void;
  addCommandComplete(msg: unknown): void;
}

/**
 * Several statements in one round trip (the extended protocol's pipelining: every statement's parse, bind and
 * execute, then one sync, in one write). node-postgres runs a query object that has `submit` (as its cursors do)
 * and hands it the backend's messages; this one collects each statement's rows in order. An error in any statement
 * makes the server skip the rest, and the whole call fails.
 */
class Pipeline {
  callback: ((error: Error | null, rows?: Row[][]) => void) | undefined;
  private readonly results: ResultLike[];
  private current = 0;
  private failure: Error | undefined;
  private settled = false;
  private readonly statements: readonly Statement[];
  private readonly kept: KeptStatements;
  /** The kept statements this pipeline parses (in doubt when it fails). */
  private readonly parsed: string[] = [];

  constructor(statements: readonly Statement[], kept: KeptStatements) {
    this.statements = statements;
    this.kept = kept;
    const Result = (pg as unknown as { Result: new (mode: undefined, types: unknown) => ResultLike }).Result;
    this.results = statements.map(() => new Result(undefined, rawTypes));
  }

  submit(connection: ProtocolConnection): null {
    connection.stream.cork?.();
    try {
      // Closed first (closing a name that does not exist is no error); closed again later when the call fails.
      for (const name of this.kept.takeClosing()) {
        connection.close({ type: 'S', name });
        this.parsed.push(name);
      }
      for (const s of this.statements) {
        const use = s.keep ? this.kept.use(s.text) : { name: '', parse: true };
        if (use.parse) connection.parse({ text: s.text, name: use.name, types: [] });
        if (use.parse && use.name) this.parsed.push(use.name);
        connection.bind({ portal: '', statement: use.name, values: s.params, valueMapper: prepareValue });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  private settle(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    if (error) this.kept.failed(this.parsed);
    this.callback?.(error, error ? undefined : this.results.map((r) => r.rows));
  }

  handleRowDescription(msg: FieldsMessage): void {
    this.results[this.current]?.addFields(msg.fields);
  }

  handleDataRow(msg: FieldsMessage): void {
    const result = this.results[this.current];
    if (!result || this.failure) return;
    try {
      result.addRow(result.parseRow(msg.fields));
    } catch (error) {
      this.failure = error as Error;
    }
  }

  handleCommandComplete(msg: unknown): void {
    this.results[this.current]?.addCommandComplete(msg);
    this.current++;
  }

  handleEmptyQuery(): void {
    this.current++;
  }

  handlePortalSuspended(): void {
    this.settle(new Error('A pipelined statement was suspended.'));
  }

  handleCopyInResponse(): void {
    this.settle(new Error('A pipelined statement cannot copy.'));
  }

  handleError(error: Error): void {
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(this.failure ?? null);
  }
}

const committed = new WeakSet<object>();

/**
 * True once `runFragments(tx, …, { commit: true })` has committed a PostgreSQL transaction (the caller skips its
 * commit). A PGlite transaction's client keeps that itself.
 */
export function committedByStatements(tx: Tx): boolean {
  return committed.has(tx);
}

/** Dates and timestamps as the database's text, as Drizzle's PGlite driver reads them (its columns decode them). */
const PGLITE_TEXT_TYPES = Object.fromEntries([...TEXT_TYPES].map((oid) => [oid, (value: string) => value]));

/**
 * Runs several fragments in the transaction and answers each one's rows, in order. They travel together (the
 * statements do not depend on each other's results): in one round trip on PostgreSQL, in one call into the engine
 * on embedded PGlite. With `commit`, the caller's last statements end the transaction in that same round trip
 * (a read that is the whole of its transaction); nothing may run in the transaction after them.
 */
export async function runFragments(
  tx: Tx,
  fragments: readonly Fragment[],
  options: { commit?: boolean } = {},
): Promise<Row[][]> {
  const client = (tx as unknown as { session: { client: unknown } }).session.client;
  const commit = options.commit === true;
  if (client instanceof PgliteTxClient) {
    const statements = fragments.map(render);
    try {
      // With `commit`, the client itself knows its transaction ended (its transaction then skips the commit).
      const results = await client.pipeline(statements, { commit, parsers: PGLITE_TEXT_TYPES });
      return results.map((r) => r.rows as Row[]);
    } catch (error) {
      throw failed(statements, error);
    }
  }
  const keeps = fragments.some((f) => f instanceof KeptFragment);
  if (!(client instanceof pg.Client) || (fragments.length < 2 && !commit && !keeps)) {
    const out: Row[][] = [];
    // Any other transaction (Drizzle's own) commits when its callback ends, as it always does.
    for (const f of fragments) out.push(await runFragment(tx, f));
    return out;
  }
  const statements = fragments.map(render);
  const rows = await pipelined(
    client,
    commit ? [...statements, { text: 'commit', params: [] }] : statements,
  ).catch((error: unknown) => {
    throw failed(statements, error);
  });
  if (commit) committed.add(tx);
  return rows.slice(0, statements.length);
}

/** The statements pipelined on one connection (one write, one sync), each answered with its rows. */
function pipelined(client: pg.PoolClient | pg.Client, statements: readonly Statement[]): Promise<Row[][]> {
  const { sent, picked } = withGenericPlans(statements);
  const pipeline = new Pipeline(sent, keptStatementsOf(client));
  return new Promise<Row[][]>((resolve, reject) => {
    pipeline.callback = (error, rows) => (error ? reject(error) : resolve(picked(rows ?? [])));
    client.query(pipeline as never);
  });
}

/**
 * JIT off in every transaction opened with a scope (`withTenantTx`, and the session lookup's `withOpeningTx` and
 * `readInOneTrip`): PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, also its branches that
 * never run (a list's run of records without a value, planned as a walk it never reads): a deep page of a list
 * filtered by a custom field took 1.2-2.4 s with JIT against 93-126 ms without at 200,000 contacts (decision 0112);
 * a page sorted by a custom date at $skip 100,000 at a million contacts, 180 ms of which 159 compiling, against 20
 * (decision 0196).
 */
export const JIT_OFF = 'set local jit = off';

/**
 * A read that is a whole transaction of one round trip: `begin`, the fragments and `commit` travel together (in one
 * write on a pooled connection of PostgreSQL, in one call into the engine on embedded PGlite). Answers each
 * fragment's rows, in order. They run in order in one transaction, so the first may scope it for the others (the
 * session lookup sets the tenant the later statements' row-level security reads). A failure in any of them rolls
 * the transaction back and fails the call.
 */
export async function readInOneTrip(db: Db, fragments: readonly Fragment[]): Promise<Row[][]> {
  const statements = fragments.map(render);
  const pool = (db as { $client?: unknown }).$client;
  const engine = engineOf(pool);
  if (engine) {
    try {
      const results = await pgliteReadInOneCall(engine, [{ text: JIT_OFF, params: [] }, ...statements], {
        parsers: PGLITE_TEXT_TYPES,
      });
      return results.slice(1).map((r) => r.rows as Row[]);
    } catch (error) {
      throw failed(statements, error);
    }
  }
  if (!(pool instanceof pg.Pool)) throw new Error('A read in one round trip needs a pool or PGlite.');
  const client = await pool.connect();
  // Released as broken (closed, not reused) when the rollback itself failed.
  let broken: Error | undefined;
  try {
    const rows = await pipelined(client, [
      { text: 'begin', params: [] },
      { text: JIT_OFF, params: [] },
      ...statements,
      { text: 'commit', params: [] },
    ]);
    return rows.slice(2, 2 + statements.length);
  } catch (error) {
    // The server skipped what followed the failed statement; its transaction is aborted until rolled back.
    await client.query('rollback').catch((e: Error) => {
      broken = e;
    });
    throw failed(statements, error);
  } finally {
    client.release(broken);
  }
}

/** Failed as Drizzle fails a query: the statements in the message, the database's error (and code) as cause. */
function failed(statements: readonly Statement[], error: unknown): Error {
  return new Error(`Failed query: ${statements.map((s) => s.text).join('; ')}`, { cause: error });
}

/** The fragment as Drizzle SQL, for statements Drizzle runs (a cursor, a builder's where). */
export function toDrizzle(f: Fragment): SQL {
  const chunks: SQL[] = [];
  const { strings, values } = f;
  for (let i = 0; i < values.length; i++) {
    chunks.push(sql.raw(strings[i] as string));
    const v = values[i];
    if (v instanceof Fragment) chunks.push(toDrizzle(v));
    else if (v instanceof Raw) chunks.push(sql.raw(v.text));
    else chunks.push(sql`${sql.param(v)}`);
  }
  chunks.push(sql.raw(strings[values.length] as string));
  return sql.join(chunks);
}
