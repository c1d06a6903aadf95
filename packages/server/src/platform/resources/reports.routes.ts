/**
 * Reports as data: run a declared report (paging and sorting through the same engine as the lists, state in the
 * Report* response headers), a catalogue with favourites first, and favourites per user.
 */
import { randomUUID } from 'node:crypto';
import { reportFavorites, type Tx } from '@guildhall/db';
import {
  csvLine,
  FILTER_ADVANCED,
  type FilterCriterion,
  hasPermission,
  isReport,
  pageCount,
  REPORT_HEADERS,
  type ReportDeclaration,
  reportCatalogueItemSchema,
  reportRunQuerySchema,
  reportRunResponseSchema,
  skipForPage,
  UTF8_BOM,
} from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthContext, requireAuth, tenantTx } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { planList } from './query.ts';
import { type BoundResource, discover } from './registry.ts';
import * as repo from './resource.repo.ts';
import { toModel } from './resource.service.ts';

const reportParams = z.object({ ReportId: z.string().min(1).max(100) });

export async function discoverReports(resources: readonly BoundResource[]): Promise<ReportDeclaration[]> {
  const reports = await discover('.report.ts', isReport);
  for (const r of reports) {
    if (!resources.some((b) => b.resource.name === r.resource))
      throw new Error(`Report ${r.ReportId} reads unknown resource ${r.resource}`);
  }
  return reports;
}

export function reportsRoutes(
  resources: readonly BoundResource[],
  reports: ReportDeclaration[],
): FastifyPluginAsyncZod {
  const allowed = (auth: AuthContext, report: ReportDeclaration) => {
    const bound = resources.find((b) => b.resource.name === report.resource);
    return bound && hasPermission(auth.role, bound.resource.permissions.read) ? bound : null;
  };
  const find = (auth: AuthContext, id: string) => {
    const report = reports.find((r) => r.ReportId === id);
    const bound = report ? allowed(auth, report) : null;
    if (!report || !bound) throw notFound();
    return { report, bound };
  };
  const favourites = async (tx: Tx, auth: AuthContext) =>
    new Set(
      (
        await tx
          .select({ id: reportFavorites.reportId })
          .from(reportFavorites)
          .where(and(eq(reportFavorites.tenantId, auth.tenantId), eq(reportFavorites.userId, auth.userId)))
      ).map((r) => r.id),
    );

  return async (app) => {
    app.get('/api/reportExecution/catalogue', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['reports'],
        summary: 'The reports the caller may run, favourites first',
        response: { 200: z.array(reportCatalogueItemSchema) },
      },
      handler: async (req) => {
        const auth = requireAuth(req.auth);
        const favs = await tenantTx(app.database, auth, (tx) => favourites(tx, auth));
        return (
          reports
            // A report over a test fixture of the generic layer runs for the tests but is never listed.
            .filter((r) => {
              const bound = allowed(auth, r);
              return bound !== null && !bound.resource.fixture;
            })
            .map((r) => ({
              ReportId: r.ReportId,
              Title: r.Title,
              Description: r.Description,
              Resource: r.resource,
              IsFavorite: favs.has(r.ReportId),
            }))
            .sort((a, b) => Number(b.IsFavorite) - Number(a.IsFavorite) || a.Title.localeCompare(b.Title))
        );
      },
    });

    app.post('/api/reportExecution/run/:ReportId', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['reports'],
        summary:
          'Runs a report page; the state travels in ReportSessionKey, ReportCurrentPage, ReportPageCount, ReportOrderBy, ReportDirection',
        params: reportParams,
        querystring: reportRunQuerySchema,
        body: z.record(z.string(), z.unknown()).optional(),
        response: { 200: z.union([reportRunResponseSchema, z.string()]) },
      },
      handler: async (req, reply) => {
        const auth = requireAuth(req.auth);
        const { report, bound } = find(auth, req.params.ReportId);
        const q = req.query;
        const params = req.body ?? {};
        const criteria: FilterCriterion[] = [...report.criteria];
        for (const p of report.parameters) {
          const value = params[p.name];
          if (value !== undefined && value !== null && value !== '')
            criteria.push({ PropertyName: p.field, Operator: p.operator, Value: value });
        }
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
        );
        const { rows, total } = await tenantTx(app.database, auth, async (tx) => {
          const total = await repo.countRows(tx, bound, auth.tenantId, plan.where);
          const rows = await repo.listRows(tx, bound, auth.tenantId, {
            where: plan.where,
            orderBy: plan.orderBy,
            limit: report.pageSize,
            offset: skipForPage(q.page, report.pageSize),
            fields: [...report.columns],
          });
          return { rows, total };
        });
        const pages = Math.max(1, pageCount(total, report.pageSize));
        const state = {
          ReportSessionKey: q.session ?? randomUUID(),
          ReportCurrentPage: q.page,
          ReportPageCount: pages,
          ReportOrderBy: orderField,
          ReportDirection: direction,
        };
        reply
          .header(REPORT_HEADERS.sessionKey, state.ReportSessionKey)
          .header(REPORT_HEADERS.currentPage, String(state.ReportCurrentPage))
          .header(REPORT_HEADERS.pageCount, String(state.ReportPageCount))
          .header(REPORT_HEADERS.orderBy, state.ReportOrderBy)
          .header(REPORT_HEADERS.direction, state.ReportDirection);
        const models = rows.map((r) => {
          const m = toModel(bound.resource, r);
          return Object.fromEntries(report.columns.map((c) => [c, m[c]]));
        });
        const columns = report.columns.map((c) => ({
          field: c,
          title: bound.resource.fields[c]?.label ?? c,
        }));
        if (q.format === 'csv') {
          // Spreadsheet-safe cells, and the BOM so that Excel reads UTF-8.
          reply.type('text/csv; charset=utf-8');
          const lines = [
            csvLine(columns.map((c) => c.title)),
            ...models.map((m) => csvLine(report.columns.map((c) => (m[c] == null ? '' : String(m[c]))))),
          ];
          return `${UTF8_BOM}${lines.join('\n')}\n`;
        }
        return {
          ReportId: report.ReportId,
          Columns: columns,
          Rows: models,
          ...state,
          TotalRecordAvailable: total,
        };
      },
    });

    const setFavourite =
      (on: boolean) => async (req: { auth: AuthContext | null; params: { ReportId: string } }) => {
        const auth = requireAuth(req.auth);
        const { report } = find(auth, req.params.ReportId);
        await tenantTx(app.database, auth, async (tx) => {
          const where = and(
            eq(reportFavorites.tenantId, auth.tenantId),
            eq(reportFavorites.userId, auth.userId),
            eq(reportFavorites.reportId, report.ReportId),
          );
          if (on)
            await tx
              .insert(reportFavorites)
              .values({ tenantId: auth.tenantId, userId: auth.userId, reportId: report.ReportId })
              .onConflictDoNothing();
          else await tx.delete(reportFavorites).where(where);
        });
        return { ReportId: report.ReportId, IsFavorite: on };
      };
    const favSchema = {
      tags: ['reports'],
      params: reportParams,
      response: { 200: z.object({ ReportId: z.string(), IsFavorite: z.boolean() }) },
    };
    app.post('/api/reportExecution/SetReportAsFavorite/:ReportId', {
      config: { permission: 'backoffice' },
      schema: favSchema,
      handler: setFavourite(true),
    });
    app.post('/api/reportExecution/RemoveReportFromFavorites/:ReportId', {
      config: { permission: 'backoffice' },
      schema: favSchema,
      handler: setFavourite(false),
    });
  };
}
