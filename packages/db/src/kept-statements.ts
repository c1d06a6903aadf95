/**
 * Statements kept prepared on a connection under a name (the extended protocol's named statements): the server
 * parses and analyses a kept statement's text once per connection, and once its plan cache has chosen the generic
 * plan (after five custom ones, when that plan costs no more than they did), a request binds the values and runs it
 * without planning again. For a statement whose planning costs as much as its run (a list search naming its table
 * five times, each with its list indexes, decision 0197). A kept statement's text must not carry values: they are
 * its parameters, so one text is one shape of the request.
 *
 * One registry per connection (a node-postgres client, the PGlite engine's one session): the names it has parsed,
 * the least recently used closed beyond `KEPT_STATEMENTS`. A call that fails may have stopped before or after a
 * statement's parse: the statements it would have parsed are closed at the next call (closing a name that does not
 * exist is no error) and parsed again under new names.
 */

/** Kept statements per connection at most; the least recently used is closed beyond. */
export const KEPT_STATEMENTS = 64;

/** How a call sends one kept statement: under `name`, parsed first when `parse`. */
export interface KeptUse {
  name: string;
  parse: boolean;
}

export class KeptStatements {
  /** Text to name, least recently used first. */
  private readonly names = new Map<string, string>();
  private closing: string[] = [];
  private next = 0;
  private readonly limit: number;

  constructor(limit = KEPT_STATEMENTS) {
    this.limit = limit;
  }

  /** The name of the text's statement, and whether this call parses it (the first use on this connection). */
  use(text: string): KeptUse {
    const known = this.names.get(text);
    if (known !== undefined) {
      this.names.delete(text);
      this.names.set(text, known);
      return { name: known, parse: false };
    }
    const name = `gh_kept_${this.next++}`;
    this.names.set(text, name);
    if (this.names.size > this.limit) {
      const [oldest, oldName] = this.names.entries().next().value as [string, string];
      this.names.delete(oldest);
      this.closing.push(oldName);
    }
    return { name, parse: true };
  }

  /** The names a call closes before its statements (evicted, or in doubt after a failed call); taken once. */
  takeClosing(): string[] {
    const out = this.closing;
    this.closing = [];
    return out;
  }

  /** A call that parsed these failed: each may or may not exist now; closed at the next call, parsed anew. */
  failed(parsed: readonly string[]): void {
    if (parsed.length === 0) return;
    const doubtful = new Set(parsed);
    for (const [text, name] of this.names) if (doubtful.has(name)) this.names.delete(text);
    this.closing.push(...parsed);
  }

  /** The statements kept now (for tests). */
  get size(): number {
    return this.names.size;
  }
}

const registries = new WeakMap<object, KeptStatements>();

/** The registry of a connection (a node-postgres client, a PGlite engine). */
export function keptStatementsOf(connection: object): KeptStatements {
  let registry = registries.get(connection);
  if (!registry) {
    registry = new KeptStatements();
    registries.set(connection, registry);
  }
  return registry;
}

/**
 * The plan cache's own choice would plan a kept statement five more times on each connection before it compares the
 * generic plan's cost with theirs: a kept statement is bound with `plan_cache_mode` set to the generic plan for it
 * alone (`set_config(…, true)`: the transaction's setting, back to `auto` after it), so only its first use on a
 * connection plans. Its branches are chosen by one-time filters at run time, which a generic plan keeps.
 */
const GENERIC_PLAN = { text: "select set_config('plan_cache_mode', 'force_generic_plan', true)", params: [] };
const OWN_PLANS = { text: "select set_config('plan_cache_mode', 'auto', true)", params: [] };

/**
 * The statements with each kept one between the settings that bind it to its generic plan; `picked` answers the
 * results of the statements given, in order, from the results of those sent.
 */
export function withGenericPlans<S extends { text: string; params: readonly unknown[]; keep?: boolean }>(
  statements: readonly S[],
): { sent: S[]; picked<R>(results: readonly R[]): R[] } {
  if (!statements.some((s) => s.keep)) return { sent: [...statements], picked: (results) => [...results] };
  const sent: S[] = [];
  const at: number[] = [];
  for (const s of statements) {
    if (s.keep) sent.push(GENERIC_PLAN as unknown as S);
    at.push(sent.length);
    sent.push(s);
    if (s.keep) sent.push(OWN_PLANS as unknown as S);
  }
  return {
    sent,
    picked: (results) => [
      ...at.map((i) => results[i] as (typeof results)[number]),
      ...results.slice(sent.length),
    ],
  };
}
