/**
 * Derives and registers the routes of every discovered resource (thin: parse, call the service, answer):
 *   POST /api/{feature}/{subfeature}/{view}Data, GET and POST /api/{feature}/{subfeature}   the list
 *   POST …/{view}Get {id}, POST …/{view}Save (model plus ForceSave, Answer)                 the record
 *   DELETE and PUT /api/{feature}/{subfeature}/:id (?ForceSave)                            delete and void
 *   POST …/{view}InlineEdit/:id (a JSON string), POST …/{view}Recalculate                  inline edit, watched fields
 *   POST …/{view}SaveDraft, POST …/{view}DuplicateCheck, GET …/{view}Lookup?search=        where the resource asks
 *   POST …/{view}Bulk {Action: delete | change, Ids, Changes}                               selected rows at once
 */
import {
  bulkRequestSchema,
  bulkResponseSchema,
  DEFAULT_TENANT_SETTINGS,
  duplicateCheckResponseSchema,
  getRequestSchema,
  type LookupOption,
  listQueryOf,
  listQuerySchema,
  listRequestSchema,
  listResponseSchema,
  lookupOptionSchema,
  type Model,
  parseJsonObject,
  saveResponseSchema,
  tenantSettingsResource,
} from '@guildhall/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type OneTripRead, scope } from '../context.ts';
import { HttpError } from '../errors.ts';
import { forgetSessions } from '../session.ts';
import { namesExtraFields } from './extra-fields.ts';
import type { BoundResource } from './registry.ts';
import * as service from './resource.service.ts';

const modelBody = z.record(z.string(), z.unknown());
const idParams = z.object({ id: z.string().max(200) });
const forceQuery = z.object({ ForceSave: z.enum(['true', 'false']).optional() });
/** Delete and void name the version the user saw (`?Version=`): a record changed since answers 409, as a save does. */
const removeQuery = forceQuery.extend({ Version: z.coerce.number().int().min(0).optional() });

function answerSave(reply: FastifyReply, outcome: service.SaveOutcome) {
  for (const [name, value] of Object.entries(outcome.events)) reply.header(`evt_${name}`, value);
  const { events: _e, ...answer } = outcome;
  return answer;
}

export function resourceRoutes(
  bound: BoundResource,
  startExport: service.ExportStarter,
): FastifyPluginAsyncZod {
  const { resource } = bound;
  const base = `/api/${resource.feature}/${resource.subfeature}`;
  // Every route of the engine is scoped: the pipeline opens its tenant transaction with the session lookup (one
  // round trip for `begin`, the session and the scope) and checks the session before the handler runs.
  const read = { permission: resource.permissions.read, scoped: true };
  const write = { permission: resource.permissions.write ?? resource.permissions.read, scoped: true };
  const tags = [resource.name];
  /**
   * A write is done (not yet committed): the session lookup carries the association's settings, so a write to them
   * forgets the association's sessions in this instance's cache of the request's database, and keeps none of them
   * until the write has surely committed (decision 0184). Any other resource: nothing.
   */
  const written =
    resource.name === tenantSettingsResource.name
      ? <T>(req: FastifyRequest, answer: T): T => {
          forgetSessions(req.server.database, { tenantId: scope(req).auth.tenantId }, { settling: true });
          return answer;
        }
      : <T>(_req: FastifyRequest, answer: T): T => answer;
  type ListRequest = FastifyRequest & { query: z.infer<typeof listQuerySchema> };
  const listOf = (req: ListRequest) => {
    // The route's schema has parsed the body already (it is optional: a GET has none).
    const body = (req.body ?? {}) as z.infer<typeof listRequestSchema>;
    const window = listQueryOf(req.query);
    if ('error' in window) throw new HttpError(400, window.error);
    return { query: window.query, body };
  };
  // A page whose size the request names is one round trip (the session lookup, the total, the rows and the commit
  // together) once this instance knows the session; an export writes, and takes the usual way.
  const listConfig = {
    ...read,
    oneTrip: (req: FastifyRequest, tenantId: string): OneTripRead<unknown> | null => {
      const { query, body } = listOf(req as ListRequest);
      const top = query.$top;
      // A request naming a custom field reads the definitions first: not one round trip.
      if (top === undefined || service.isExportRequest(query) || namesExtraFields(bound, query, body))
        return null;
      const page = service.listPage(bound, tenantId, query, body, top);
      return {
        statements: page.statements,
        answer: (rows, auth) => page.answer(rows, auth.tenantSettings ?? DEFAULT_TENANT_SETTINGS),
      };
    },
  };
  return async (app) => {
    if (!resource.singleRecord) {
      const listHandler = async (req: ListRequest) => {
        const { query, body } = listOf(req);
        // An export writes (a file row and a job): a state change that only POST may ask for, which the
        // cross-origin check covers. A GET reads, and `$top=999999999` on a GET starts nothing.
        if (req.method === 'GET' && service.isExportRequest(query))
          throw new HttpError(405, 'An export starts with POST; GET only reads a page.');
        const { tx, auth } = scope(req);
        return service.list(tx, auth, bound, query, body, startExport, { endsTransaction: true });
      };
      // A list answer is made by the engine from declared fields only (toModel), so checking it against its schema
      // again on the way out adds nothing but time on the hottest route: it is written as JSON directly.
      const listJson = () => (data: unknown) => JSON.stringify(data);
      const listSchema = {
        tags,
        querystring: listQuerySchema,
        headers: z.object({ 'variable-consistency': z.string().max(50).optional() }),
        response: { 200: listResponseSchema },
      };
      app.post(`${base}/${resource.view}Data`, {
        config: listConfig,
        serializerCompiler: listJson,
        schema: { ...listSchema, summary: `${resource.title}: list`, body: listRequestSchema.optional() },
        handler: listHandler,
      });
      app.get(base, {
        config: listConfig,
        serializerCompiler: listJson,
        schema: { ...listSchema, summary: `${resource.title}: list` },
        handler: listHandler,
      });
      app.post(base, {
        config: listConfig,
        serializerCompiler: listJson,
        schema: {
          ...listSchema,
          summary: `${resource.title}: list with a filter`,
          body: listRequestSchema.optional(),
        },
        handler: listHandler,
      });
      app.get(`${base}/${resource.view}Lookup`, {
        config: read,
        schema: {
          tags,
          summary: `${resource.title}: typeahead`,
          // `id`: the one option of a record already chosen (its name for a form or a record's details).
          querystring: z.object({
            search: z.string().max(200).optional(),
            id: z.string().max(200).optional(),
          }),
          response: { 200: z.array(lookupOptionSchema) },
        },
        handler: async (req) => {
          const display = resource.search[0] ?? resource.key;
          const { tx, auth } = scope(req);
          const option = (r: Model): LookupOption => ({
            Id: r[resource.key] as LookupOption['Id'],
            Name: String(r[display] ?? ''),
            ExtraData: resource.lookupExtra?.length
              ? Object.fromEntries(resource.lookupExtra.map((f) => [f, r[f] ?? null]))
              : null,
          });
          if (req.query.id !== undefined) {
            // The record as its Get reads it (same permission, same association); none when it is not there.
            if (service.parseKey(resource, req.query.id) === null) return [];
            try {
              return [option(await service.get(tx, auth, bound, req.query.id))];
            } catch (e) {
              if (e instanceof HttpError && e.status === 404) return [];
              throw e;
            }
          }
          const answer = await service.list(
            tx,
            auth,
            bound,
            { $skip: 0, $top: 20, $orderby: resource.sortable.includes(display) ? display : undefined },
            { SearchText: req.query.search ?? '' },
            startExport,
            { endsTransaction: true },
          );
          return answer.Results.map(option);
        },
      });
    }

    app.post(`${base}/${resource.view}Get`, {
      config: read,
      schema: {
        tags,
        summary: `${resource.title}: one record`,
        body: resource.singleRecord ? getRequestSchema.partial().optional() : getRequestSchema,
        response: { 200: modelBody },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        return service.get(tx, auth, bound, req.body?.id);
      },
    });

    const c = resource.capabilities;
    if (resource.permissions.write && (c.create || c.update)) {
      app.post(`${base}/${resource.view}Save`, {
        config: write,
        schema: {
          tags,
          summary: `${resource.title}: save`,
          body: modelBody,
          response: { 200: saveResponseSchema },
        },
        handler: async (req, reply) => {
          const { tx, auth } = scope(req);
          return written(req, answerSave(reply, await service.save(tx, auth, bound, req.body)));
        },
      });
    }
    if (resource.permissions.write && c.draft) {
      app.post(`${base}/${resource.view}SaveDraft`, {
        config: write,
        schema: {
          tags,
          summary: `${resource.title}: save a draft (required fields may be empty)`,
          body: modelBody,
          response: { 200: saveResponseSchema },
        },
        handler: async (req, reply) => {
          const { tx, auth } = scope(req);
          return written(req, answerSave(reply, await service.save(tx, auth, bound, req.body, true)));
        },
      });
    }
    if (c.duplicateCheck && resource.uniqueFields?.length) {
      app.post(`${base}/${resource.view}DuplicateCheck`, {
        config: read,
        schema: {
          tags,
          summary: `${resource.title}: duplicate check`,
          body: modelBody,
          response: { 200: duplicateCheckResponseSchema },
        },
        handler: async (req) => {
          const { tx, auth } = scope(req);
          const fields = await service.duplicates(tx, auth, bound, req.body);
          return { IsDuplicate: fields.length > 0, Fields: fields };
        },
      });
    }
    if (resource.recalculate) {
      app.post(`${base}/${resource.view}Recalculate`, {
        config: read,
        schema: {
          tags,
          summary: `${resource.title}: recalculate after a watched field changed`,
          body: modelBody,
          response: { 200: modelBody },
        },
        handler: async (req) => {
          const { tx, auth } = scope(req);
          const settings = await service.settingsFor(tx, auth);
          return service.recalculate(bound, req.body, settings);
        },
      });
    }
    if (resource.permissions.write && c.inlineEdit) {
      app.post(`${base}/${resource.view}InlineEdit/:id`, {
        config: write,
        schema: {
          tags,
          summary: `${resource.title}: inline edit (body: a JSON string of the changed fields)`,
          params: idParams,
          body: z.union([z.string().max(100_000), modelBody]),
          response: { 200: saveResponseSchema },
        },
        handler: async (req, reply) => {
          const changes: Model = typeof req.body === 'string' ? parseJsonObject(req.body) : req.body;
          const { tx, auth } = scope(req);
          return written(
            req,
            answerSave(reply, await service.inlineEdit(tx, auth, bound, req.params.id, changes)),
          );
        },
      });
    }
    if (resource.permissions.write && resource.softDelete) {
      const removeRoute = (kind: 'delete' | 'void') => ({
        config: write,
        schema: {
          tags,
          summary: `${resource.title}: ${kind} (marks IsDeleted)`,
          params: idParams,
          querystring: removeQuery,
          response: { 200: z.object({ Success: z.boolean() }) },
        },
        handler: async (req: FastifyRequest & { params: { id: string }; query: { Version?: number } }) => {
          const { tx, auth } = scope(req);
          return written(req, await service.remove(tx, auth, bound, req.params.id, kind, req.query.Version));
        },
      });
      if (c.delete) app.delete(`${base}/:id`, removeRoute('delete'));
      if (c.void) app.put(`${base}/:id`, removeRoute('void'));
    }
    const bulkDelete = Boolean(resource.permissions.write && resource.softDelete && c.delete);
    const bulkChange = Boolean(resource.permissions.write && c.inlineEdit);
    if (bulkDelete || bulkChange) {
      app.post(`${base}/${resource.view}Bulk`, {
        config: write,
        schema: {
          tags,
          summary: `${resource.title}: delete selected records, or set the same fields on each`,
          body: bulkRequestSchema,
          response: { 200: bulkResponseSchema },
        },
        handler: async (req) => {
          const body = req.body;
          if (body.Action === 'delete' && !bulkDelete)
            throw new HttpError(400, `${resource.title} cannot be deleted from the list.`);
          if (body.Action === 'change' && !bulkChange)
            throw new HttpError(400, `${resource.title} cannot be changed from the list.`);
          const { tx, auth } = scope(req);
          return written(req, await service.bulk(tx, auth, bound, body));
        },
      });
    }
  };
}
