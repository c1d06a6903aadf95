/**
 * The developer query tool (spec 001 sections 2, 4, 7 and 8; decision 0170): the catalogue of named queries (the
 * shipped `*.query.ts` declarations and the association's saved ones), a run as an HTML page of results and a
 * download as CSV streamed through a cursor. Every query passes the guard, runs read-only as the application role
 * under row-level security with the limits of QueryLimits, and every run is in the audit log with its parameters.
 */
import type { Database, Tx } from '@guildhall/db';
import {
  bindQueryParameters,
  csvLine,
  DEFAULT_TIMEZONE,
  inferredParameters,
  QUERY_PAGE_SIZE,
  type QueryCatalogueItem,
  type QueryDeclaration,
  type QueryParameter,
  type QueryValue,
  splitPlaceholders,
  UTF8_BOM,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import { type AuthContext, tenantTx } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import { checkSql } from './query-check.ts';
import { QueryRefused } from './query-guard.ts';
import * as repo from './query-tool.repo.ts';

const zoneOf = (auth: AuthContext) => auth.tenantSettings?.defaultTimezone ?? DEFAULT_TIMEZONE;

/** The name of an association's saved query in the tool's list and forms: `my.<QueryId>`. */
const SAVED_PREFIX = 'my.';

interface Runnable {
  name: string;
  title: string;
  sql: string;
  parameters: readonly QueryParameter[];
}

export { checkSql } from './query-check.ts';

const refused = (error: unknown): never => {
  if (error instanceof QueryRefused) throw new HttpError(400, error.message, { Sql: [error.message] });
  throw error;
};

function savedToRunnable(row: repo.SavedQueryRow): Runnable & { description: string; group: string } {
  return {
    name: `${SAVED_PREFIX}${row.queryId}`,
    title: row.title,
    description: row.description ?? '',
    group: row.groupName,
    sql: row.sql,
    parameters: inferredParameters(row.sql),
  };
}

export class QueryTool {
  private readonly database: Database;
  private readonly queries: readonly QueryDeclaration[];
  private readonly limits: repo.QueryLimits;
  constructor(
    database: Database,
    queries: readonly QueryDeclaration[],
    limits: repo.QueryLimits = repo.DEFAULT_QUERY_LIMITS,
  ) {
    this.database = database;
    this.queries = queries;
    this.limits = limits;
  }

  /** The list the tool shows: shipped queries by group, then the association's, with select options read. */
  async catalogue(auth: AuthContext): Promise<QueryCatalogueItem[]> {
    return tenantTx(this.database, auth, async (tx) => {
      const saved = await repo.listSavedQueries(tx, auth.tenantId);
      await repo.enterQueryMode(tx, this.limits, zoneOf(auth));
      const items: QueryCatalogueItem[] = [];
      const shipped = [...this.queries].sort(
        (a, b) => a.group.localeCompare(b.group) || a.title.localeCompare(b.title),
      );
      for (const query of shipped) {
        items.push({
          name: query.name,
          title: query.title,
          description: query.description,
          group: query.group,
          origin: 'shipped',
          sql: query.sql,
          parameters: await this.parametersOf(tx, query.parameters),
        });
      }
      for (const row of saved) {
        const r = savedToRunnable(row);
        items.push({
          name: r.name,
          title: r.title,
          description: r.description,
          group: r.group,
          origin: 'association',
          sql: r.sql,
          parameters: await this.parametersOf(tx, r.parameters),
        });
      }
      return items;
    });
  }

  private async parametersOf(tx: Tx, parameters: readonly QueryParameter[]) {
    const out = [];
    for (const p of parameters) {
      out.push({
        name: p.name,
        label: p.label,
        type: p.type,
        required: p.required ?? false,
        default: p.default ?? null,
        options: p.lookup ? await this.lookupOptions(tx, p.lookup) : [...(p.options ?? [])],
      });
    }
    return out;
  }

  private async lookupOptions(tx: Tx, lookup: string) {
    const rows = await repo.queryPage(tx, repo.queryFragment([lookup], []), 1000, 0);
    return rows
      .slice(0, 1000)
      .map((r) => ({ Key: String(r.key ?? ''), Value: String(r.value ?? r.key ?? '') }));
  }

  private async find(auth: AuthContext, name: string): Promise<Runnable> {
    const shipped = this.queries.find((q) => q.name === name);
    if (shipped) return shipped;
    if (name.startsWith(SAVED_PREFIX)) {
      const rows = await tenantTx(this.database, auth, (tx) => repo.listSavedQueries(tx, auth.tenantId));
      const row = rows.find((r) => `${SAVED_PREFIX}${r.queryId}` === name);
      if (row) return savedToRunnable(row);
    }
    throw new HttpError(404, 'There is no query of that name.');
  }

  /**
   * Everything a run needs before the transaction: the query, its guard passed, its parameters bound and checked.
   * A lookup select's value is checked against the lookup's keys inside the run's transaction.
   */
  private async prepare(auth: AuthContext, form: Record<string, unknown>) {
    const query = await this.find(auth, String(form.QueryName ?? ''));
    await checkSql(query.sql).catch(refused);
    const lookups = query.parameters.filter((p) => p.lookup);
    let allowed: Record<string, string[]> = {};
    if (lookups.length) {
      allowed = await tenantTx(this.database, auth, async (tx) => {
        await repo.enterQueryMode(tx, this.limits, zoneOf(auth));
        const out: Record<string, string[]> = {};
        for (const p of lookups)
          out[p.name] = (await this.lookupOptions(tx, p.lookup ?? '')).map((o) => o.Key);
        return out;
      });
    }
    const bound = bindQueryParameters(query.parameters, form, new Date(), zoneOf(auth), allowed);
    if (Object.keys(bound.errors).length) {
      const first = Object.values(bound.errors)[0]?.[0] ?? 'The parameters are not valid.';
      throw new HttpError(400, first, bound.errors);
    }
    const split = splitPlaceholders(query.sql);
    const fragment = repo.queryFragment(
      split.strings,
      split.names.map((n) => bound.values[n] ?? null),
    );
    return { query, fragment, values: bound.values };
  }

  /** Audit row first (the transaction can write until it enters query mode), then the cost ceiling. */
  private async begin(
    tx: Tx,
    auth: AuthContext,
    action: 'query-run' | 'query-download',
    query: Runnable,
    values: Record<string, QueryValue>,
    fragment: ReturnType<typeof repo.queryFragment>,
  ) {
    await audit(tx, auth, {
      action,
      entity: 'query',
      entityId: query.name,
      after: { Query: query.title, ...values },
    });
    await repo.enterQueryMode(tx, this.limits, zoneOf(auth));
    // Planning already finds some errors of the query (a bad column, a constant division by zero): 400 too.
    const cost = await repo.estimatedCost(tx, fragment).catch(databaseError);
    if (cost > this.limits.costCeiling) {
      throw new HttpError(
        400,
        `The query is too costly to run here (estimated cost ${Math.round(cost).toLocaleString('en-US')}, at most ${this.limits.costCeiling.toLocaleString('en-US')}): narrow it with a condition or a parameter.`,
      );
    }
  }

  /** One page of results as an HTML fragment (spec 000 section 2: the result of POST /a/dev/QuerytoolRun is HTML). */
  async runHtml(auth: AuthContext, form: Record<string, unknown>): Promise<string> {
    const { query, fragment, values } = await this.prepare(auth, form);
    const page = Math.max(1, Number(form.Page ?? 1) || 1);
    const rows = await tenantTx(this.database, auth, async (tx) => {
      await this.begin(tx, auth, 'query-run', query, values, fragment);
      return repo.queryPage(tx, fragment, QUERY_PAGE_SIZE, (page - 1) * QUERY_PAGE_SIZE).catch(databaseError);
    });
    return resultsHtml(query.title, rows, page);
  }

  /**
   * The whole result as CSV, written to `write` batch by batch inside the run's transaction (a cursor: the rows are
   * never all in memory). Answers the file name and whether PGlite's row cap cut it.
   */
  async download(
    auth: AuthContext,
    form: Record<string, unknown>,
    start: (fileName: string) => void,
    write: (chunk: string) => Promise<void>,
  ): Promise<{ rows: number; capped: boolean }> {
    const { query, fragment, values } = await this.prepare(auth, form);
    const cap = repo.rowCap(this.database.kind, this.limits);
    return tenantTx(this.database, auth, async (tx) => {
      await this.begin(tx, auth, 'query-download', query, values, fragment);
      // The columns first: planning finds some errors of the query before anything is sent (400 with its text).
      const columns = await repo.queryColumns(tx, fragment).catch(databaseError);
      let started = false;
      const begin = async () => {
        started = true;
        start(
          `${query.name.replaceAll(/[^A-Za-z0-9._-]/g, '_')}-${new Date().toISOString().slice(0, 10)}.csv`,
        );
        await write(`${UTF8_BOM}${csvLine(columns)}\n`);
      };
      let rows = 0;
      try {
        for await (const lines of repo.queryCsvLines(tx, fragment, columns.length, cap + 1)) {
          // The answer starts with the first batch, so an error of the query's first rows is still a 400 with its text.
          if (!started) await begin();
          const kept = rows + lines.length > cap ? lines.slice(0, cap - rows) : lines;
          rows += kept.length;
          if (kept.length) await write(`${kept.join('\n')}\n`);
          if (rows >= cap) break;
        }
      } catch (error) {
        if (!started) databaseError(error);
        throw error;
      }
      if (!started) await begin();
      return { rows, capped: rows >= cap };
    });
  }
}

/** A database error of the query (a bad column, a timeout, a division by zero) is the caller's: 400 with its text. */
function databaseError(error: unknown): never {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? 'The query failed.';
  if (code === '57014') throw new HttpError(400, 'The query took too long and was stopped.');
  if (code && /^(22|42|2B|0A|25)/.test(code)) throw new HttpError(400, `The query failed: ${message}`);
  throw error;
}

function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The results panel: a table of one page, with where it is and whether more follow (data-next-page). */
export function resultsHtml(title: string, rows: Record<string, unknown>[], page: number): string {
  const more = rows.length > QUERY_PAGE_SIZE;
  const shown = rows.slice(0, QUERY_PAGE_SIZE);
  const first = (page - 1) * QUERY_PAGE_SIZE + 1;
  const columns = Object.keys(shown[0] ?? {});
  const summary =
    shown.length === 0
      ? page === 1
        ? 'No rows.'
        : 'No more rows.'
      : `Rows ${first.toLocaleString('en-US')}–${(first + shown.length - 1).toLocaleString('en-US')}${more ? ', more follow' : ''}.`;
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const body = shown
    .map((r) => `<tr>${columns.map((c) => `<td>${escapeHtml(cellText(r[c]) ?? '')}</td>`).join('')}</tr>`)
    .join('');
  return `<section class="query-results" data-page="${page}" data-rows="${shown.length}"${more ? ` data-next-page="${page + 1}"` : ''}><p class="query-results-summary"><strong>${escapeHtml(title)}</strong> · ${summary}</p>${columns.length ? `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>` : ''}</section>`;
}
