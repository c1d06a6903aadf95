/**
 * Reports as data: run a declared or saved report (paging and sorting through the same engine as the lists, state
 * in the Report* response headers; a grouped report answers its groups, subtotals and grand total), a catalogue
 * with favourites first, favourites and dashboard pins per user, and the reports staff build over any list
 * (issue 20): saved per tenant, private to their owner or shared with the staff, previewed before saving.
 */
import { randomUUID } from 'node:crypto';
import {
  reportFavorites,
  reportPins,
  reportSchedules,
  savedReports,
  type Tx,
  userDirectory,
} from '@guildhall/db';
import {
  aggregateKey,
  aggregateTitle,
  bindReportParameters,
  csvLine,
  DEFAULT_TENANT_SETTINGS,
  FILTER_ADVANCED,
  type FilterCriterion,
  groupedCsvRows,
  hasPermission,
  isReport,
  measuresOf,
  orderGroupRows,
  pageCount,
  REPORT_HEADERS,
  type ReportDeclaration,
  type ReportDefinition,
  type ReportGroupingResult,
  reportCatalogueEntrySchema,
  reportDefinitionProblems,
  reportDefinitionSchema,
  reportExtraFieldsSchema,
  reportPinInputSchema,
  reportRunAnswerSchema,
  reportRunQuerySchema,
  type SavedReport,
  savedReportId,
  savedReportInputSchema,
  savedReportNumber,
  savedReportSchema,
  skipForPage,
  UTF8_BOM,
} from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, auditedAnswer } from '../audit.ts';
import { type AuthContext, scope } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { type ExtraFields, extraFieldsOf, NO_EXTRA_FIELDS } from './extra-fields.ts';
import { planList } from './query.ts';
import { type BoundResource, discover } from './registry.ts';
import { runGrouped } from './report-grouping.ts';
import * as repo from './resource.repo.ts';
import { toModel } from './resource.service.ts';

const reportParams = z.object({ ReportId: z.string().min(1).max(100) });
const savedParams = z.object({ id: z.coerce.number().int().min(1) });
/** Rows a report's CSV holds at most (a whole list goes through the list's export job). */
export const REPORT_CSV_MAX_ROWS = 100_000;
const SAVED_PAGE_SIZE = 25;

/**
 * A report as the engine runs it: declared in shared, or saved by a user. Either way its parameters are its
 * definition's, bound by one rule (`bindReportParameters`).
 */
interface Runnable {
  ReportId: string;
  Title: string;
  Description: string;
  resource: string;
  columns: readonly string[];
  criteria: readonly FilterCriterion[];
  defaultSort: { field: string; direction: 'asc' | 'desc' };
  pageSize: number;
  definition: ReportDefinition;
  saved: { SavedReportId: number; IsShared: boolean; IsOwner: boolean; OwnerName: string } | null;
}

function definitionOf(report: ReportDeclaration): ReportDefinition {
  return reportDefinitionSchema.parse({
    resource: report.resource,
    columns: [...report.columns],
    criteria: [...report.criteria],
    sort: report.defaultSort,
    parameters: report.parameters.map((p) => ({ ...p, required: p.required ?? false })),
    groupBy: [...(report.groupBy ?? [])],
    aggregates: [...(report.aggregates ?? [])],
    chart: report.chart ?? null,
  });
}

export async function discoverReports(resources: readonly BoundResource[]): Promise<ReportDeclaration[]> {
  const reports = await discover('.report', isReport);
  for (const r of reports) {
    const bound = resources.find((b) => b.resource.name === r.resource);
    if (!bound) throw new Error(`Report ${r.ReportId} reads unknown resource ${r.resource}`);
    const problems = reportDefinitionProblems(bound.resource, definitionOf(r));
    if (problems.length > 0) throw new Error(`Report ${r.ReportId}: ${problems.join(' ')}`);
  }
  return reports;
}

function fromDeclaration(report: ReportDeclaration): Runnable {
  return {
    ReportId: report.ReportId,
    Title: report.Title,
    Description: report.Description,
    resource: report.resource,
    columns: report.columns,
    criteria: report.criteria,
    defaultSort: report.defaultSort,
    pageSize: report.pageSize,
    definition: definitionOf(report),
    saved: null,
  };
}

/** A definition as a report: its columns (the list's shown columns when none are picked), its sort or the list's. */
function fromDefinition(
  bound: BoundResource,
  d: ReportDefinition,
  head: Pick<Runnable, 'ReportId' | 'Title' | 'Description' | 'saved'>,
): Runnable {
  const { resource } = bound;
  const columns =
    d.columns.length > 0 ? d.columns : resource.columns.filter((c) => !c.defaultHide).map((c) => c.field);
  return {
    ...head,
    resource: resource.name,
    columns,
    criteria: d.criteria,
    defaultSort: d.sort ?? resource.defaultSort,
    pageSize: SAVED_PAGE_SIZE,
    definition: d,
  };
}

/**
 * The fields a report over the resource may name: its declared ones and, as columns, filters and sorts, the extra
 * fields a feature adds for the tenant (custom fields, decision 0112). Extra fields are not grouped or totalled.
 */
function withExtraFields(bound: BoundResource, extra: ExtraFields) {
  const { resource } = bound;
  if (extra.size === 0) return resource;
  const fields = { ...resource.fields };
  for (const [name, f] of extra) fields[name] = f.declaration;
  return {
    ...resource,
    fields,
    filterable: [...resource.filterable, ...[...extra.values()].filter((f) => f.filter).map((f) => f.field)],
    sortable: [...resource.sortable, ...[...extra.values()].filter((f) => f.sortRuns).map((f) => f.field)],
  };
}

function checkDefinition(
  bound: BoundResource,
  d: ReportDefinition,
  extra: ExtraFields = NO_EXTRA_FIELDS,
): void {
  const problems = reportDefinitionProblems(withExtraFields(bound, extra), d);
  for (const g of d.groupBy)
    if (extra.has(g.field) && !bound.resource.fields[g.field])
      problems.push(`The report cannot be grouped by ${extra.get(g.field)?.declaration.label ?? g.field}.`);
  for (const a of d.aggregates)
    if (a.field && extra.has(a.field) && !bound.resource.fields[a.field])
      problems.push(`A total of ${extra.get(a.field)?.declaration.label ?? a.field} is not offered.`);
  if (problems.length > 0) throw new HttpError(400, problems.join(' '), { Definition: problems });
}

type SavedRow = typeof savedReports.$inferSelect & { ownerName: string | null };

async function readSaved(tx: Tx, auth: AuthContext, id?: number): Promise<SavedRow[]> {
  // Row-level security already hides another user's private reports; the explicit tenant keeps the plan local.
  const rows = await tx
    .select({
      row: savedReports,
      ownerName: userDirectory.displayName,
    })
    .from(savedReports)
    .leftJoin(
      userDirectory,
      and(
        eq(userDirectory.tenantId, savedReports.tenantId),
        eq(userDirectory.userId, savedReports.ownerUserId),
      ),
    )
    .where(
      id === undefined
        ? eq(savedReports.tenantId, auth.tenantId)
        : and(eq(savedReports.tenantId, auth.tenantId), eq(savedReports.savedReportId, id)),
    )
    .orderBy(savedReports.title);
  return rows.map((r) => ({ ...r.row, ownerName: r.ownerName }));
}

function savedOf(row: SavedRow, auth: AuthContext): SavedReport {
  const id = Number(row.savedReportId);
  return {
    SavedReportId: id,
    ReportId: savedReportId(id),
    Title: row.title,
    Description: row.description,
    IsShared: row.isShared,
    IsOwner: Number(row.ownerUserId) === auth.userId,
    OwnerName: row.ownerName ?? 'A former user',
    Definition: reportDefinitionSchema.parse(row.definition),
    UpdatedAt: new Date(row.updatedAt as unknown as string).toISOString(),
  };
}

/** Runs a report: a page of its rows, or its groups; CSV: every row (up to the cap), or the grouped table. */
export async function runReport(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  report: Runnable,
  bound: BoundResource,
  q: z.infer<typeof reportRunQuerySchema>,
  params: Record<string, unknown>,
  /** The tenant's extra fields of the resource (custom fields): columns, filters and sorts of saved reports. */
  extra: ExtraFields = NO_EXTRA_FIELDS,
) {
  const criteria: FilterCriterion[] = [...report.criteria];
  const timeZone = auth.tenantSettings?.defaultTimezone ?? DEFAULT_TENANT_SETTINGS.defaultTimezone;
  criteria.push(...parameterCriteria(report, bound, params, timeZone, extra));
  const orderField = q.orderby ?? report.defaultSort.field;
  const direction = q.direction ?? (q.orderby ? 'asc' : report.defaultSort.direction);
  if (!report.columns.includes(orderField) && orderField !== report.defaultSort.field) {
    throw new HttpError(400, `The report cannot be sorted by ${orderField}.`, {
      orderby: [`${orderField} is not a column of the report.`],
    });
  }
  const plan = planList(
    bound,
    { Id: FILTER_ADVANCED, Criteria: criteria },
    `${orderField} ${direction}`,
    undefined,
    extra,
  );
  const d = report.definition;
  let grouping: ReportGroupingResult | null = null;
  let rows: Record<string, unknown>[] = [];
  let total = 0;
  if (d.groupBy.length > 0) {
    const answer = await runGrouped(tx, bound, resources, auth.tenantId, plan.where, d, timeZone);
    grouping = { ...answer.result, Rows: orderGroupRows(answer.result.Rows, d.groupOrder) };
    total = answer.total;
  } else {
    const csv = q.format === 'csv';
    total = csv ? 0 : await repo.countRows(tx, bound, auth.tenantId, plan.where);
    rows = await repo.listRows(tx, bound, auth.tenantId, {
      where: plan.where,
      orderBy: plan.orderBy,
      limit: csv ? REPORT_CSV_MAX_ROWS : report.pageSize,
      offset: csv ? 0 : skipForPage(q.page, report.pageSize),
      runs: plan.runs,
      fields: [...report.columns],
      extra,
    });
  }
  const pages = grouping ? 1 : Math.max(1, pageCount(total, report.pageSize));
  const state = {
    ReportSessionKey: q.session ?? randomUUID(),
    ReportCurrentPage: grouping ? 1 : q.page,
    ReportPageCount: pages,
    ReportOrderBy: orderField,
    ReportDirection: direction,
  };
  const columns = report.columns.map((c) => ({
    field: c,
    title: bound.resource.fields[c]?.label ?? extra.get(c)?.declaration.label ?? c,
  }));
  const models = rows.map((r) => {
    const m = toModel(bound.resource, r);
    return Object.fromEntries(
      report.columns.map((c) => [c, bound.resource.fields[c] ? m[c] : (r[c] ?? null)]),
    );
  });
  return { state, columns, models, total, grouping };
}

/**
 * The criteria a report's parameters add for a run's values (declared or saved, its definition's parameters); a
 * value missing or wrong answers 400 naming each parameter.
 */
export function parameterCriteria(
  report: Pick<Runnable, 'definition'>,
  bound: BoundResource,
  values: Record<string, unknown>,
  timeZone: string,
  extra: ExtraFields = NO_EXTRA_FIELDS,
): FilterCriterion[] {
  const parameters = report.definition.parameters;
  if (parameters.length === 0) return [];
  const fields = { ...bound.resource.fields };
  for (const [name, f] of extra) if (!fields[name]) fields[name] = f.declaration;
  const { criteria, errors } = bindReportParameters(parameters, fields, values, new Date(), timeZone);
  const messages = Object.values(errors).flat();
  if (messages.length > 0) throw new HttpError(400, messages.join(' '), errors);
  return criteria;
}

/** A saved report may name custom fields; one deleted since is left out of its columns and filters. */
async function withKnownFields(tx: Tx, auth: AuthContext, found: Runnable, bound: BoundResource) {
  const extra = await extraFieldsOf(tx, auth.tenantId, bound);
  const known = (f: string) => Boolean(bound.resource.fields[f]) || extra.has(f);
  const report = {
    ...found,
    columns: found.columns.filter(known),
    criteria: found.criteria.filter((c) => known(c.PropertyName)),
    defaultSort: known(found.defaultSort.field) ? found.defaultSort : bound.resource.defaultSort,
  };
  return { report, extra };
}

/**
 * A saved report's CSV as `auth` may run it (the report's own CSV: the grouped table, or every row up to the cap),
 * with its title and number of data rows; null when the report is gone or hidden from `auth` (a private report of
 * another user, a list the role may not read).
 */
export async function savedReportCsv(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  savedId: number,
  /** The parameter values the run takes (a schedule's). */
  params: Record<string, unknown> = {},
): Promise<{ title: string; csv: string; rows: number } | null> {
  const [row] = await readSaved(tx, auth, savedId);
  if (!row) return null;
  const saved = savedOf(row, auth);
  const bound = resources.find((b) => b.resource.name === saved.Definition.resource);
  if (!bound || !hasPermission(auth.role, bound.resource.permissions.read)) return null;
  const { report, extra } = await withKnownFields(
    tx,
    auth,
    fromDefinition(bound, saved.Definition, { ...saved, saved }),
    bound,
  );
  const a = await runReport(
    tx,
    auth,
    resources,
    report,
    bound,
    reportRunQuerySchema.parse({ format: 'csv' }),
    params,
    extra,
  );
  const rows = a.grouping ? a.grouping.Rows.length : a.models.length;
  return { title: saved.Title, csv: reportCsv(report, a), rows };
}

/** Answers 400 when a saved report would not run with these parameter values (a schedule's, before it is kept). */
export async function checkSavedReportParameters(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  savedId: number,
  params: Record<string, unknown>,
): Promise<void> {
  const [row] = await readSaved(tx, auth, savedId);
  if (!row) throw notFound();
  const saved = savedOf(row, auth);
  const bound = resources.find((b) => b.resource.name === saved.Definition.resource);
  if (!bound) throw notFound();
  const extra = await extraFieldsOf(tx, auth.tenantId, bound);
  const timeZone = auth.tenantSettings?.defaultTimezone ?? DEFAULT_TENANT_SETTINGS.defaultTimezone;
  parameterCriteria({ definition: saved.Definition }, bound, params, timeZone, extra);
}

/** A report's answer as CSV: spreadsheet-safe cells, and the BOM so that Excel reads UTF-8. */
export function reportCsv(report: Pick<Runnable, 'columns'>, a: ReportAnswer): string {
  const lines = a.grouping
    ? groupedCsvRows(a.grouping).map((cells) => csvLine(cells))
    : [
        csvLine(a.columns.map((c) => c.title)),
        ...a.models.map((m) => csvLine(report.columns.map((c) => (m[c] == null ? '' : String(m[c]))))),
      ];
  return `${UTF8_BOM}${lines.join('\n')}\n`;
}
export type ReportAnswer = Awaited<ReturnType<typeof runReport>>;

export function reportsRoutes(
  resources: readonly BoundResource[],
  reports: ReportDeclaration[],
): FastifyPluginAsyncZod {
  const readable = (auth: AuthContext, resourceName: string) => {
    const bound = resources.find((b) => b.resource.name === resourceName);
    return bound && hasPermission(auth.role, bound.resource.permissions.read) ? bound : null;
  };
  /** A report the caller may run: declared over a resource they may read, or saved and visible to them. */
  const find = async (tx: Tx, auth: AuthContext, id: string) => {
    const number = savedReportNumber(id);
    if (number !== null) {
      const [row] = await readSaved(tx, auth, number);
      const saved = row ? savedOf(row, auth) : null;
      const bound = saved ? readable(auth, saved.Definition.resource) : null;
      if (!saved || !bound) throw notFound();
      return { report: fromDefinition(bound, saved.Definition, { ...saved, saved }), bound };
    }
    const declared = reports.find((r) => r.ReportId === id);
    const bound = declared ? readable(auth, declared.resource) : null;
    if (!declared || !bound) throw notFound();
    return { report: fromDeclaration(declared), bound };
  };
  const idsOf = async (tx: Tx, auth: AuthContext, table: typeof reportFavorites | typeof reportPins) =>
    new Set(
      (
        await tx
          .select({ id: table.reportId })
          .from(table)
          .where(and(eq(table.tenantId, auth.tenantId), eq(table.userId, auth.userId)))
      ).map((r) => r.id),
    );

  const run = (
    tx: Tx,
    auth: AuthContext,
    report: Runnable,
    bound: BoundResource,
    q: z.infer<typeof reportRunQuerySchema>,
    params: Record<string, unknown>,
    extra: ExtraFields = NO_EXTRA_FIELDS,
  ) => runReport(tx, auth, resources, report, bound, q, params, extra);

  /** The caller's pins with what each shows and the parameter values it runs with. */
  const pinsOf = async (tx: Tx, auth: AuthContext) =>
    new Map(
      (
        await tx
          .select()
          .from(reportPins)
          .where(and(eq(reportPins.tenantId, auth.tenantId), eq(reportPins.userId, auth.userId)))
      ).map((p) => [
        p.reportId,
        { Display: p.display, Measure: p.measure ?? null, Parameters: p.parameters ?? {} },
      ]),
    );

  type Answer = Awaited<ReturnType<typeof run>>;
  const answer = (
    reply: { header: (k: string, v: string) => unknown; type: (t: string) => unknown },
    report: Runnable,
    q: z.infer<typeof reportRunQuerySchema>,
    a: Answer,
  ) => {
    const { state } = a;
    reply.header(REPORT_HEADERS.sessionKey, state.ReportSessionKey);
    reply.header(REPORT_HEADERS.currentPage, String(state.ReportCurrentPage));
    reply.header(REPORT_HEADERS.pageCount, String(state.ReportPageCount));
    reply.header(REPORT_HEADERS.orderBy, state.ReportOrderBy);
    reply.header(REPORT_HEADERS.direction, state.ReportDirection);
    if (q.format === 'csv') {
      reply.type('text/csv; charset=utf-8');
      return reportCsv(report, a);
    }
    const flat = a.grouping ? groupedTable(a.grouping) : null;
    return {
      ReportId: report.ReportId,
      Columns: flat ? flat.columns : a.columns,
      Rows: flat ? flat.rows : a.models,
      ...state,
      TotalRecordAvailable: a.total,
      Grouping: a.grouping,
    };
  };

  return async (app) => {
    app.get('/api/reportExecution/catalogue', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: 'The reports the caller may run (shipped and saved), favourites first',
        response: { 200: z.array(reportCatalogueEntrySchema) },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const favs = await idsOf(tx, auth, reportFavorites);
        const pins = await pinsOf(tx, auth);
        const saved = (await readSaved(tx, auth)).map((r) => savedOf(r, auth));
        const entries = [
          // A report over a test fixture of the generic layer runs for the tests but is never listed.
          ...reports.flatMap((r) => {
            const bound = readable(auth, r.resource);
            return bound && !bound.resource.fixture ? [{ r: fromDeclaration(r), bound }] : [];
          }),
          ...saved.flatMap((s) => {
            const bound = readable(auth, s.Definition.resource);
            return bound ? [{ r: fromDefinition(bound, s.Definition, { ...s, saved: s }), bound }] : [];
          }),
        ];
        return entries
          .map(({ r, bound }) => ({
            ReportId: r.ReportId,
            Title: r.Title,
            Description: r.Description,
            Resource: r.resource,
            ResourceTitle: bound.resource.title,
            IsFavorite: favs.has(r.ReportId),
            IsPinned: pins.has(r.ReportId),
            Pin: pins.get(r.ReportId) ?? null,
            Parameters: r.definition.parameters,
            Measures: measuresOf(r.definition).map((m) => ({
              Key: aggregateKey(m),
              Title: aggregateTitle(bound.resource, m),
            })),
            Grouped: r.definition.groupBy.length > 0,
            Chart: r.definition.chart?.type ?? null,
            Saved: r.saved,
          }))
          .sort((a, b) => Number(b.IsFavorite) - Number(a.IsFavorite) || a.Title.localeCompare(b.Title));
      },
    });

    app.post('/api/reportExecution/run/:ReportId', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary:
          'Runs a report page (or its groups); the state travels in ReportSessionKey, ReportCurrentPage, ReportPageCount, ReportOrderBy, ReportDirection',
        params: reportParams,
        querystring: reportRunQuerySchema,
        body: z.record(z.string(), z.unknown()).optional(),
        response: { 200: z.union([reportRunAnswerSchema, z.string()]) },
      },
      handler: async (req, reply) => {
        const { tx, auth } = scope(req);
        const found = await find(tx, auth, req.params.ReportId);
        const { bound } = found;
        if (!found.report.saved)
          return answer(
            reply,
            found.report,
            req.query,
            await run(tx, auth, found.report, bound, req.query, req.body ?? {}),
          );
        const { report, extra } = await withKnownFields(tx, auth, found.report, bound);
        return answer(
          reply,
          report,
          req.query,
          await run(tx, auth, report, bound, req.query, req.body ?? {}, extra),
        );
      },
    });

    app.get('/api/reports/fields/:resource', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary:
          'The fields the association adds to a list (custom fields) that a report may show, filter and sort by',
        params: z.object({ resource: z.string().min(1).max(100) }),
        response: { 200: reportExtraFieldsSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const bound = readable(auth, req.params.resource);
        if (!bound || bound.resource.fixture) throw notFound();
        const extra = await extraFieldsOf(tx, auth.tenantId, bound);
        const fields = [...extra.values()];
        return {
          Fields: Object.fromEntries(
            fields.map((f) => [f.field, f.declaration as typeof f.declaration & Record<string, unknown>]),
          ),
          Filterable: fields.filter((f) => f.filter).map((f) => f.field),
          Sortable: fields.filter((f) => f.sortRuns).map((f) => f.field),
        };
      },
    });

    app.post('/api/reports/preview', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: 'Runs a report definition before it is saved (the builder shows it as it is made)',
        querystring: reportRunQuerySchema,
        body: reportDefinitionSchema,
        response: { 200: z.union([reportRunAnswerSchema, z.string()]) },
      },
      handler: async (req, reply) => {
        const { tx, auth } = scope(req);
        const bound = readable(auth, req.body.resource);
        if (!bound || bound.resource.fixture) throw notFound();
        // The preview runs without the report's parameters (they are asked when it runs).
        const report = fromDefinition(
          bound,
          { ...req.body, parameters: [] },
          {
            ReportId: 'preview',
            Title: 'Preview',
            Description: '',
            saved: null,
          },
        );
        const extra = await extraFieldsOf(tx, auth.tenantId, bound);
        checkDefinition(bound, req.body, extra);
        return answer(reply, report, req.query, await run(tx, auth, report, bound, req.query, {}, extra));
      },
    });

    app.get('/api/reports/saved/:id', {
      config: { permission: 'backoffice', scoped: true },
      schema: { tags: ['reports'], params: savedParams, response: { 200: savedReportSchema } },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const [row] = await readSaved(tx, auth, req.params.id);
        if (!row || !readable(auth, row.resource)) throw notFound();
        return savedOf(row, auth);
      },
    });

    const write = async (
      tx: Tx,
      auth: AuthContext,
      input: z.infer<typeof savedReportInputSchema>,
      id?: number,
    ) => {
      const bound = readable(auth, input.Definition.resource);
      if (!bound || bound.resource.fixture) throw notFound();
      checkDefinition(bound, input.Definition, await extraFieldsOf(tx, auth.tenantId, bound));
      const values = {
        title: input.Title,
        description: input.Description,
        isShared: input.IsShared,
        resource: input.Definition.resource,
        definition: input.Definition as unknown as Record<string, unknown>,
      };
      let before: SavedReport | null = null;
      let savedId: number;
      if (id === undefined) {
        const [row] = await tx
          .insert(savedReports)
          .values({ ...values, tenantId: auth.tenantId, ownerUserId: auth.userId })
          .returning({ id: savedReports.savedReportId });
        savedId = Number(row?.id);
      } else {
        const [current] = await readSaved(tx, auth, id);
        if (!current) throw notFound();
        before = savedOf(current, auth);
        if (!before.IsOwner) throw new HttpError(403, 'Only the owner of a report may change it.');
        await tx
          .update(savedReports)
          .set({ ...values, updatedAt: sql`now()` })
          .where(and(eq(savedReports.tenantId, auth.tenantId), eq(savedReports.savedReportId, id)));
        savedId = id;
      }
      const [row] = await readSaved(tx, auth, savedId);
      return auditedAnswer(tx, auth, 'savedReports', savedId, before, row ? savedOf(row, auth) : null);
    };

    app.post('/api/reports/saved', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: 'Saves a report built over a list (private, or shared with the staff)',
        body: savedReportInputSchema,
        response: { 200: savedReportSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        return write(tx, auth, req.body);
      },
    });

    app.put('/api/reports/saved/:id', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: 'Changes a saved report (its owner only)',
        params: savedParams,
        body: savedReportInputSchema,
        response: { 200: savedReportSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        return write(tx, auth, req.body, req.params.id);
      },
    });

    app.delete('/api/reports/saved/:id', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: 'Deletes a saved report (its owner only)',
        params: savedParams,
        response: { 200: z.object({ SavedReportId: z.number().int() }) },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const id = req.params.id;
        const [current] = await readSaved(tx, auth, id);
        if (!current) throw notFound();
        const before = savedOf(current, auth);
        if (!before.IsOwner) throw new HttpError(403, 'Only the owner of a report may delete it.');
        await tx
          .delete(savedReports)
          .where(and(eq(savedReports.tenantId, auth.tenantId), eq(savedReports.savedReportId, id)));
        // Its mail schedules go with it.
        await tx
          .delete(reportSchedules)
          .where(and(eq(reportSchedules.tenantId, auth.tenantId), eq(reportSchedules.savedReportId, id)));
        await audit(tx, auth, { action: 'delete', entity: 'savedReports', entityId: id, before });
        return { SavedReportId: id };
      },
    });

    const setFlag =
      (table: typeof reportFavorites | typeof reportPins, on: boolean) =>
      async (req: FastifyRequest<{ Params: { ReportId: string } }>) => {
        const { tx, auth } = scope(req);
        const { report } = await find(tx, auth, req.params.ReportId);
        const where = and(
          eq(table.tenantId, auth.tenantId),
          eq(table.userId, auth.userId),
          eq(table.reportId, report.ReportId),
        );
        if (on)
          await tx
            .insert(table)
            .values({ tenantId: auth.tenantId, userId: auth.userId, reportId: report.ReportId })
            .onConflictDoNothing();
        else await tx.delete(table).where(where);
        return report.ReportId;
      };
    const favSchema = {
      tags: ['reports'],
      params: reportParams,
      response: { 200: z.object({ ReportId: z.string(), IsFavorite: z.boolean() }) },
    };
    app.post('/api/reportExecution/SetReportAsFavorite/:ReportId', {
      config: { permission: 'backoffice', scoped: true },
      schema: favSchema,
      handler: async (req) => ({ ReportId: await setFlag(reportFavorites, true)(req), IsFavorite: true }),
    });
    app.post('/api/reportExecution/RemoveReportFromFavorites/:ReportId', {
      config: { permission: 'backoffice', scoped: true },
      schema: favSchema,
      handler: async (req) => ({ ReportId: await setFlag(reportFavorites, false)(req), IsFavorite: false }),
    });
    const pinSchema = {
      tags: ['reports'],
      params: reportParams,
      response: { 200: z.object({ ReportId: z.string(), IsPinned: z.boolean() }) },
    };
    app.post('/api/reports/pins/:ReportId', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        ...pinSchema,
        summary:
          "Pins a report to the caller's dashboard: its chart, groups or count, or one total as a figure; with the parameter values it runs with (pinning again changes them)",
        body: reportPinInputSchema.optional(),
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const input = reportPinInputSchema.parse(req.body ?? {});
        const { report, bound } = await find(tx, auth, req.params.ReportId);
        if (input.Display === 'figure') {
          const keys = measuresOf(report.definition).map(aggregateKey);
          const measure = input.Measure ?? 'count';
          if (!keys.includes(measure) && !(measure === 'count' && report.definition.groupBy.length === 0))
            throw new HttpError(400, 'The figure shows a total the report does not have.', {
              Measure: [`${measure} is not a total of this report.`],
            });
        }
        // The values must run (a required parameter given, each value of its kind).
        const timeZone = auth.tenantSettings?.defaultTimezone ?? DEFAULT_TENANT_SETTINGS.defaultTimezone;
        const extra = report.saved ? await extraFieldsOf(tx, auth.tenantId, bound) : NO_EXTRA_FIELDS;
        parameterCriteria(report, bound, input.Parameters, timeZone, extra);
        const values = {
          display: input.Display,
          measure: input.Display === 'figure' ? (input.Measure ?? 'count') : null,
          parameters: input.Parameters,
        };
        await tx
          .insert(reportPins)
          .values({ tenantId: auth.tenantId, userId: auth.userId, reportId: report.ReportId, ...values })
          .onConflictDoUpdate({
            target: [reportPins.tenantId, reportPins.userId, reportPins.reportId],
            set: values,
          });
        return { ReportId: report.ReportId, IsPinned: true };
      },
    });
    app.delete('/api/reports/pins/:ReportId', {
      config: { permission: 'backoffice', scoped: true },
      schema: { ...pinSchema, summary: "Takes a report off the caller's dashboard" },
      handler: async (req) => ({ ReportId: await setFlag(reportPins, false)(req), IsPinned: false }),
    });
  };
}

/** A grouped answer as plain columns and rows (the report's Columns and Rows): levels' labels, then measures. */
function groupedTable(g: ReportGroupingResult) {
  const columns = [
    ...g.Levels.map((l, i) => ({ field: `Level${i + 1}`, title: l.title })),
    ...g.Measures.map((m) => ({ field: m.key, title: m.title })),
  ];
  const rows = g.Rows.map((r) => ({
    ...Object.fromEntries(
      g.Levels.map((_, i) => [`Level${i + 1}`, r.Level === 0 && i === 0 ? 'Total' : (r.Labels[i] ?? '')]),
    ),
    ...r.Values,
  }));
  return { columns, rows };
}
