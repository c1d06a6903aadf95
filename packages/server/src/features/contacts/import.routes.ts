/**
 * CSV import of contacts: upload (multipart, size enforced while streaming), column mapping, dry run, commit as a
 * job, progress. The import is known by its upload's id everywhere.
 */
import fastifyMultipart from '@fastify/multipart';
import {
  CUSTOM_IMPORT_FIELD,
  contactsResource,
  IMPORT_FIELD_IDS,
  IMPORT_FIELDS,
  type ImportMapping,
  importDryRunSchema,
  importStatusSchema,
  importUploadSchema,
  suggestMapping,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import { acceptCsvUpload, CSV_UPLOAD_LIMITS } from '../../platform/csv-import.ts';
import { boundResource } from '../../platform/resources/registry.ts';
import { tenantSettingsOf } from '../../platform/resources/resource.service.ts';
import * as service from './import.service.ts';

/** The contact fields by id, and custom fields of contacts as lists name them (`cf_12`); nothing else. */
const mappingSchema = z
  .object(
    Object.fromEntries(IMPORT_FIELD_IDS.map((f) => [f, z.string().max(200).optional()])) as Record<
      string,
      z.ZodOptional<z.ZodString>
    >,
  )
  .catchall(z.string().max(200))
  .superRefine((mapping, ctx) => {
    const known: readonly string[] = IMPORT_FIELD_IDS;
    for (const key of Object.keys(mapping))
      if (!known.includes(key) && !CUSTOM_IMPORT_FIELD.test(key))
        ctx.addIssue({ code: 'custom', message: 'Unknown field.', path: [key] });
  });
const importBody = z.object({ ImportId: z.uuid(), Mapping: mappingSchema }).strict();
const commitBody = z
  .object({
    ImportId: z.uuid(),
    Mapping: mappingSchema,
    /** True: one rejected row fails the import and nothing is imported. False (default): the valid rows are. */
    AllOrNothing: z.boolean().optional(),
  })
  .strict();
const idParams = z.object({ id: z.uuid() });
export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The fields another feature adds to contacts (custom fields, decision 0111), which a column may fill. */
  const contactsExtra = () => boundResource(app.resources, contactsResource.name).extraFields;
  // Multipart only here: one file, bounded while it streams (413 before the rest of the body is read).
  await app.register(fastifyMultipart, { limits: CSV_UPLOAD_LIMITS });

  // Not scoped: the file streams to storage first, and no transaction stays open while its bytes arrive.
  app.post('/api/contacts/import/upload', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['contacts'],
      summary: 'Upload a CSV file of contacts (multipart, field "file"): its columns and a suggested mapping',
      response: {
        200: importUploadSchema,
      },
    },
    handler: (req, reply) =>
      acceptCsvUpload(app, req, reply, async (tx, auth, headers) => {
        // The custom fields of contacts a column can fill, after the built-in fields (a header naming one fills it).
        const settings = await tenantSettingsOf(tx, auth.tenantId);
        const custom = (await contactsExtra()?.importer?.(tx, auth.tenantId, settings))?.fields ?? [];
        return {
          fields: [...IMPORT_FIELDS.map(({ Id, Name }) => ({ Id, Name })), ...custom],
          mapping: suggestMapping(headers, custom),
        };
      }),
  });

  app.post('/api/contacts/import/dryRun', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['contacts'],
      summary: 'What the import would create, update (matched by email or account number) or reject, and why',
      body: importBody,
      response: {
        200: importDryRunSchema,
      },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.dryRun(
        tx,
        auth,
        app.storage,
        req.body.ImportId,
        req.body.Mapping as ImportMapping,
        contactsExtra(),
      );
    },
  });

  app.post('/api/contacts/import/commit', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['contacts'],
      summary:
        'Import the file as a job: its valid rows (or, with AllOrNothing, every row or none); follow it with GET /api/contacts/import/{id}',
      body: commitBody,
      response: { 202: importStatusSchema },
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      await service.startCommit(
        tx,
        auth,
        req.body.ImportId,
        req.body.Mapping as ImportMapping,
        req.body.AllOrNothing ? 'allOrNothing' : 'validRows',
      );
      const answer = await service.status(tx, auth, app.storage, req.body.ImportId);
      // The job starts once the pipeline has committed the request's transaction.
      setTimeout(() => app.worker.wake(), 20).unref();
      reply.code(202);
      return answer;
    },
  });

  app.post('/api/contacts/import/rejected', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['contacts'],
      summary:
        'The rows the import leaves out, as a CSV file: the file’s columns, then each row’s line and the reasons',
      body: importBody,
      produces: ['text/csv'],
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      const { fileName, csv } = await service.rejectedCsv(
        tx,
        auth,
        app.storage,
        req.body.ImportId,
        req.body.Mapping as ImportMapping,
        contactsExtra(),
      );
      reply
        .type('text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        );
      return csv;
    },
  });

  app.get('/api/contacts/import/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['contacts'],
      summary: 'An import’s state and progress (rows processed of all), and why it failed',
      params: idParams,
      response: { 200: importStatusSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.status(tx, auth, app.storage, req.params.id);
    },
  });
};
