/**
 * The guard every query passes before it runs, shipped or written by an association (decision 0170). The SQL is
 * parsed by PostgreSQL's own parser (libpg-query) and its tree walked:
 *
 * - one statement, a SELECT: no SELECT INTO, no locking clause, no data-modifying statement anywhere (a CTE's
 *   INSERT/UPDATE/DELETE/MERGE, …);
 * - every function called is on an allow-list. A read-only transaction alone is not enough: `set_config(
 *   'app.tenant_id', …)` inside a SELECT would switch the tenant that row-level security reads, and functions
 *   such as `current_setting`, `pg_read_file`, `query_to_xml` or `dblink` read what a query must not;
 * - every relation is a query view (`gh_query.<view>`, or unqualified and then resolved in `gh_query` only) or a
 *   CTE in scope where it is named. Nothing else, so no table, catalog (`pg_stats` shows other tenants' most
 *   common values) or `information_schema` view;
 * - no cast to a `reg*` type (catalog lookups), no operator from a schema other than pg_catalog, no parameter
 *   number beyond the ones the query declares.
 */

import { parseSql } from './query-parser.ts';

/** The schema of the views made for querying; the migration creates them with security_invoker. */
export const QUERY_SCHEMA = 'gh_query';
/** The views of QUERY_SCHEMA (kept in step with the migration; a test compares the two). */
export const QUERY_VIEWS = [
  'contacts',
  'contact_entries',
  'contact_links',
  'memberships',
  'membership_types',
  'custom_fields',
  'custom_field_values',
  'invoices',
  'events',
  'event_details',
  'event_attendees',
] as const;

/**
 * Functions a query may call: plain computations on values, aggregates and window functions. Nothing that reads
 * or writes the server's state, settings, files, catalogs or other sessions.
 */
export const ALLOWED_FUNCTIONS = new Set([
  // text
  'lower',
  'upper',
  'initcap',
  'length',
  'char_length',
  'character_length',
  'octet_length',
  'btrim',
  'ltrim',
  'rtrim',
  'trim',
  'substring',
  'substr',
  'left',
  'right',
  'replace',
  'split_part',
  'concat',
  'concat_ws',
  'position',
  'strpos',
  'lpad',
  'rpad',
  'reverse',
  'repeat',
  'starts_with',
  'regexp_replace',
  'regexp_match',
  'regexp_like',
  'translate',
  'format',
  'md5',
  'unaccent',
  'to_char',
  'to_number',
  'to_date',
  'to_timestamp',
  'overlay',
  'normalize',
  'ascii',
  'chr',
  'quote_literal',
  // numbers
  'abs',
  'ceil',
  'ceiling',
  'floor',
  'round',
  'trunc',
  'sign',
  'mod',
  'power',
  'sqrt',
  'greatest',
  'least',
  'width_bucket',
  'div',
  // dates and times
  'now',
  'current_date',
  'date_trunc',
  'date_part',
  'extract',
  'age',
  'make_date',
  'make_interval',
  'make_timestamp',
  'make_timestamptz',
  'date_bin',
  'justify_days',
  'justify_interval',
  'timezone',
  'isfinite',
  'statement_timestamp',
  'transaction_timestamp',
  'generate_series',
  // aggregates and windows
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'string_agg',
  'array_agg',
  'bool_and',
  'bool_or',
  'every',
  'percentile_cont',
  'percentile_disc',
  'mode',
  'stddev',
  'stddev_pop',
  'stddev_samp',
  'variance',
  'row_number',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'nth_value',
  // arrays and json
  'array_length',
  'cardinality',
  'array_to_string',
  'string_to_array',
  'unnest',
  'array_position',
  'jsonb_build_object',
  'jsonb_agg',
  'jsonb_object_agg',
  'json_build_object',
  'json_agg',
  'to_jsonb',
  'jsonb_array_length',
  'jsonb_typeof',
  // null handling written as functions
  'coalesce',
  'nullif',
]);

const REG_TYPE = /^reg[a-z]*$/;

export class QueryRefused extends Error {}

type Node = Record<string, unknown>;

function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((n) => {
    const s = (n as { String?: { sval?: string; str?: string } }).String;
    return (s?.sval ?? s?.str ?? '').toLowerCase();
  });
}

interface Scope {
  ctes: Set<string>;
  parent: Scope | null;
}

function inScope(scope: Scope | null, name: string): boolean {
  for (let s = scope; s; s = s.parent) if (s.ctes.has(name)) return true;
  return false;
}

function checkFunction(call: Node): void {
  const parts = names(call.funcname);
  const name = parts[parts.length - 1] ?? '';
  const schema = parts.length > 1 ? parts[0] : null;
  if ((schema !== null && schema !== 'pg_catalog') || parts.length > 2 || !ALLOWED_FUNCTIONS.has(name)) {
    throw new QueryRefused(`The function ${parts.join('.')} is not allowed in a query.`);
  }
}

/**
 * Walks every node under `value`. A SELECT with a WITH clause opens a scope: a CTE sees the CTEs named before it
 * (all of them in WITH RECURSIVE), the statement's body sees them all.
 */
function walk(value: unknown, scope: Scope | null, paramCount: number): void {
  if (Array.isArray(value)) {
    for (const v of value) walk(v, scope, paramCount);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, inner] of Object.entries(value as Node)) {
    if (key.endsWith('Stmt') && key !== 'SelectStmt')
      throw new QueryRefused('Only a SELECT may run: the query holds another kind of statement.');
    const node = inner as Node;
    switch (key) {
      case 'SelectStmt':
        walkSelect(node, scope, paramCount);
        continue;
      case 'IntoClause':
        throw new QueryRefused('SELECT INTO is not allowed: a query only reads.');
      case 'LockingClause':
        throw new QueryRefused('FOR UPDATE and FOR SHARE are not allowed: a query only reads.');
      case 'FuncCall':
        checkFunction(node);
        break;
      case 'RangeVar': {
        const schema = typeof node.schemaname === 'string' ? node.schemaname.toLowerCase() : null;
        const relation = String(node.relname ?? '').toLowerCase();
        if (node.catalogname) throw new QueryRefused(`The relation ${relation} is not a query view.`);
        const view = (QUERY_VIEWS as readonly string[]).includes(relation);
        const ok = schema === null ? inScope(scope, relation) || view : schema === QUERY_SCHEMA && view;
        if (!ok) {
          throw new QueryRefused(
            `${schema ? `${schema}.` : ''}${relation} is not a query view; a query reads ${QUERY_VIEWS.map((v) => `${QUERY_SCHEMA}.${v}`).join(', ')}.`,
          );
        }
        break;
      }
      case 'RangeTableSample':
        throw new QueryRefused('TABLESAMPLE is not allowed in a query.');
      // A cast's type is written inline (`typeName`), a type in a list as a TypeName node.
      case 'typeName':
      case 'TypeName': {
        const parts = names(node.names);
        const name = parts[parts.length - 1] ?? '';
        if (REG_TYPE.test(name) || (parts.length > 1 && parts[0] !== 'pg_catalog'))
          throw new QueryRefused(`The type ${parts.join('.')} is not allowed in a query.`);
        break;
      }
      case 'A_Expr': {
        const parts = names(node.name);
        if (parts.length > 1 && parts[0] !== 'pg_catalog')
          throw new QueryRefused(`The operator ${parts.join('.')} is not allowed in a query.`);
        break;
      }
      case 'ParamRef': {
        const n = Number(node.number ?? 0);
        if (!Number.isInteger(n) || n < 1 || n > paramCount)
          throw new QueryRefused('Parameters are written :name; a query may not use numbered parameters.');
        break;
      }
      default:
        break;
    }
    walk(inner, scope, paramCount);
  }
}

function walkSelect(select: Node, scope: Scope | null, paramCount: number): void {
  if (select.intoClause) throw new QueryRefused('SELECT INTO is not allowed: a query only reads.');
  if (Array.isArray(select.lockingClause) && select.lockingClause.length > 0)
    throw new QueryRefused('FOR UPDATE and FOR SHARE are not allowed: a query only reads.');
  let inner = scope;
  const withClause = select.withClause as { ctes?: unknown[]; recursive?: boolean } | undefined;
  if (withClause?.ctes?.length) {
    const ctes = withClause.ctes.map((c) => (c as { CommonTableExpr: Node }).CommonTableExpr);
    const all = new Set(ctes.map((c) => String(c.ctename).toLowerCase()));
    for (const name of all)
      if (name.startsWith('pg_')) throw new QueryRefused(`A CTE may not be named ${name}.`);
    const seen = new Set<string>();
    const clauseScope: Scope = { ctes: withClause.recursive ? all : seen, parent: scope };
    for (const cte of ctes) {
      const { ctename, ...rest } = cte;
      walk(rest, clauseScope, paramCount);
      seen.add(String(ctename).toLowerCase());
    }
    inner = { ctes: all, parent: scope };
  }
  // The sides of a UNION, INTERSECT or EXCEPT are SELECTs of their own (without the node's type around them).
  const { withClause: _with, larg, rarg, ...body } = select;
  for (const side of [larg, rarg]) if (side) walkSelect(side as Node, inner, paramCount);
  walk(body, inner, paramCount);
}

/**
 * Parses the query (placeholders already numbered `$1`…) and throws QueryRefused with a message for the user when
 * it is not a single, plain SELECT over the query views. A syntax error is refused with the parser's message.
 */
export async function guardQuery(sql: string, paramCount: number): Promise<void> {
  let tree: { stmts?: { stmt?: Node }[] };
  // The parser (PostgreSQL's own, in WebAssembly) starts with the first query, not at start (decision 0086), in a
  // process of its own (query-parser.ts), for the start-up check's thread too: in the server's process, V8's
  // optimizing compiler took about 600 MB for tens of seconds after every start on the grammar function that the
  // check's parses had made hot (decision 0191).
  try {
    tree = (await parseSql(sql)) as typeof tree;
  } catch (error) {
    throw new QueryRefused(`The query does not parse: ${(error as Error).message}`);
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) throw new QueryRefused('A query is exactly one statement.');
  const stmt = statements[0]?.stmt ?? {};
  if (!('SelectStmt' in stmt)) throw new QueryRefused('Only a SELECT may run.');
  walk(stmt, null, paramCount);
}
