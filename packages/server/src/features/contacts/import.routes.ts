/**
 * CSV import of contacts: upload (multipart, size enforced while streaming), column mapping, dry run, commit as a
 * job, progress. The import is known by its upload's id everywhere.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
import { requireAuth, scope, tenantTx } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
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
/** How long a refused upload's remaining body is read and discarded after the answer, before the socket is cut. */
const LINGER_MS = 2000;

/**
 * Refused before its body was read to the end: answer at once, let Node discard what the client is still sending
 * (never buffering it) for a moment so the client reads the answer instead of a reset, then cut a connection
 * whose body still has not ended (a body that never ends cannot hold the socket).
 */
export function lingeringClose(request: IncomingMessage, response: ServerResponse): void {
  response.once('finish', () => {
    if (request.complete) return;
    setTimeout(() => {
      // (app.inject's simulated socket has no destroy: nothing to cut there)
      const socket = request.socket as Partial<typeof request.socket> | null;
      if (!request.complete && typeof socket?.destroy === 'function') socket.destroy();
    }, LINGER_MS).unref();
  });
}

/** Errors of a malformed multipart body (no boundary, a part cut short, too many parts) are the client's: 4xx. */
export function multipartError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const e = err as { statusCode?: unknown; code?: unknown; syscall?: unknown };
  // Storage failing (a full disk) is ours.
  if (e.syscall !== undefined) return err;
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, service.TOO_LARGE);
  if (e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FIELDS_LIMIT')
    return new HttpError(400, 'Send only the CSV file, in the form field "file".');
  const status =
    typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 400;
  return new HttpError(status, 'The upload is not a valid multipart/form-data body with one CSV file.');
}

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The fields another feature adds to contacts (custom fields, decision 0111), which a column may fill. */
  const contactsExtra = () => boundResource(app.resources, contactsResource.name).extraFields;
  // Multipart only here: one file, bounded while it streams (413 before the rest of the body is read).
  await app.register(fastifyMultipart, {
    limits: { fileSize: service.IMPORT_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024 },
  });

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
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      if (!req.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data.');
      const id = randomUUID();
      const key = service.uploadKey(auth.tenantId, id);
      let received: { label: string; size: number } | undefined;
      try {
        // One part, the file "file": a field or a second file is refused, like an unknown JSON field.
        for await (const part of req.parts()) {
          if (part.type !== 'file' || part.fieldname !== 'file' || received)
            throw new HttpError(400, 'Send only the CSV file, in the form field "file".', {
              [part.fieldname.slice(0, 50) || '_']: ['Unknown field.'],
            });
          const size = await service.receiveUpload(app.storage, key, part.file);
          received = { label: service.fileLabel(part.filename), size };
        }
        if (!received) throw new HttpError(400, 'Choose a CSV file.', { file: ['Choose a CSV file.'] });
      } catch (err) {
        if (received) await app.storage.remove(key);
        lingeringClose(req.raw, reply.raw);
        throw multipartError(err);
      }
      try {
        const csv = await service.readStored(app.storage, key);
        // The custom fields of contacts a column can fill, after the built-in fields (a header naming one fills it).
        const custom = await tenantTx(app.database, auth, async (tx) => {
          await service.storeUpload(tx, auth, { id, key, ...received });
          const settings = await tenantSettingsOf(tx, auth.tenantId);
          return (await contactsExtra()?.importer?.(tx, auth.tenantId, settings))?.fields ?? [];
        });
        const mapping: Record<string, string> = {};
        for (const [k, v] of Object.entries(suggestMapping(csv.headers, custom)))
          if (v !== undefined) mapping[k] = v;
        return {
          ImportId: id,
          FileName: received.label,
          Columns: csv.headers,
          Rows: csv.rows.length,
          Sample: csv.rows.slice(0, 5),
          Fields: [...IMPORT_FIELDS.map(({ Id, Name }) => ({ Id, Name })), ...custom],
          Mapping: mapping,
        };
      } catch (err) {
        await app.storage.remove(key);
        throw err;
      }
    },
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
      // An import running on this instance answers from memory; otherwise its job row (and written progress).
      return (
        service.liveStatus(app.storage, auth, req.params.id) ??
        service.status(tx, auth, app.storage, req.params.id)
      );
    },
  });
};
