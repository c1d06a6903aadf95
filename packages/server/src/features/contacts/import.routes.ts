/**
 * CSV import of contacts: upload (multipart, size enforced while streaming), column mapping, dry run, commit as a
 * job, progress. The import is known by its upload's id everywhere.
 */
import fastifyMultipart from '@fastify/multipart';
import { IMPORT_FIELD_IDS, IMPORT_FIELDS, type ImportMapping, suggestMapping } from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, tenantTx } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import { registerJobHandler } from '../../platform/jobs.ts';
import * as service from './import.service.ts';

registerJobHandler(service.IMPORT_JOB, service.importHandler);

const mappingSchema = z
  .object(
    Object.fromEntries(IMPORT_FIELD_IDS.map((f) => [f, z.string().max(200).optional()])) as Record<
      string,
      z.ZodOptional<z.ZodString>
    >,
  )
  .strict();
const importBody = z.object({ ImportId: z.uuid(), Mapping: mappingSchema }).strict();
const idParams = z.object({ id: z.uuid() });
const rowSchema = z.object({
  Row: z.number(),
  Action: z.enum(['create', 'update', 'reject']),
  ContactId: z.number().nullable(),
  Name: z.string(),
  Reasons: z.array(z.string()),
});
const statusSchema = z.object({
  ImportId: z.string(),
  FileName: z.string(),
  Status: z.enum(['uploaded', 'queued', 'running', 'done', 'failed']),
  Total: z.number(),
  Processed: z.number(),
  Created: z.number(),
  Updated: z.number(),
  Error: z.string().nullable(),
});

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  // Multipart only here: one file, bounded while it streams (413 before the rest of the body is read).
  await app.register(fastifyMultipart, {
    limits: { fileSize: service.IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 },
  });

  app.post('/api/contacts/import/upload', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['contacts'],
      summary: 'Upload a CSV file of contacts (multipart, field "file"): its columns and a suggested mapping',
      response: {
        200: z.object({
          ImportId: z.string(),
          FileName: z.string(),
          Columns: z.array(z.string()),
          Rows: z.number(),
          Sample: z.array(z.record(z.string(), z.string())),
          Fields: z.array(z.object({ Id: z.string(), Name: z.string() })),
          Mapping: z.record(z.string(), z.string()),
        }),
      },
    },
    handler: async (req) => {
      const auth = requireAuth(req.auth);
      if (!req.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data.');
      const part = await req.file();
      if (!part) throw new HttpError(400, 'Choose a CSV file.', { file: ['Choose a CSV file.'] });
      const bytes = await part.toBuffer();
      if (bytes.includes(0)) throw new HttpError(400, 'The file is not a text CSV file.');
      const { id, csv } = await tenantTx(app.database, auth, (tx) =>
        service.storeUpload(tx, auth, app.storage, part.filename, bytes),
      );
      const mapping: Record<string, string> = {};
      for (const [k, v] of Object.entries(suggestMapping(csv.headers))) if (v !== undefined) mapping[k] = v;
      return {
        ImportId: id,
        FileName: part.filename,
        Columns: csv.headers,
        Rows: csv.rows.length,
        Sample: csv.rows.slice(0, 5),
        Fields: IMPORT_FIELDS.map(({ Id, Name }) => ({ Id, Name })),
        Mapping: mapping,
      };
    },
  });

  app.post('/api/contacts/import/dryRun', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['contacts'],
      summary: 'What the import would create, update (matched by email or account number) or reject, and why',
      body: importBody,
      response: {
        200: z.object({
          ImportId: z.string(),
          Total: z.number(),
          Create: z.number(),
          Update: z.number(),
          Reject: z.number(),
          Rows: z.array(rowSchema),
          Truncated: z.boolean(),
        }),
      },
    },
    handler: async (req) => {
      const auth = requireAuth(req.auth);
      return tenantTx(app.database, auth, (tx) =>
        service.dryRun(tx, auth, app.storage, req.body.ImportId, req.body.Mapping as ImportMapping),
      );
    },
  });

  app.post('/api/contacts/import/commit', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['contacts'],
      summary: 'Import the file as a job: all rows or none; follow it with GET /api/contacts/import/{id}',
      body: importBody,
      response: { 202: statusSchema },
    },
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      const answer = await tenantTx(app.database, auth, async (tx) => {
        await service.startCommit(tx, auth, req.body.ImportId, req.body.Mapping as ImportMapping);
        return service.status(tx, auth, req.body.ImportId);
      });
      setTimeout(() => app.worker.wake(), 20).unref();
      return reply.code(202).send(answer);
    },
  });

  app.get('/api/contacts/import/:id', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['contacts'],
      summary: 'An import’s state and progress (rows processed of all), and why it failed',
      params: idParams,
      response: { 200: statusSchema },
    },
    handler: async (req) => {
      const auth = requireAuth(req.auth);
      return tenantTx(app.database, auth, (tx) => service.status(tx, auth, req.params.id));
    },
  });
};
