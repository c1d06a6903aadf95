/**
 * SQL as text with its values kept apart (a Fragment), rendered to `$n` placeholders and run in a transaction
 * without Drizzle's query builder. The screen layer writes its list statements this way: they run on every list
 * request, where building and mapping through the builder cost more than the statement itself (decision 0060).
 * Values are always parameters; only text the server wrote (identifiers, operators, keywords) is SQL.
 */
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from './client.ts';

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
  return { text: out.join(''), params };
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
