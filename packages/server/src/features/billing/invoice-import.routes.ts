/** "Create invoices from file": upload, dry run, commit as a job and its progress (decision 0126). */
import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import {
  INVOICE_IMPORT_FIELDS,
  type InvoiceImportMapping,
  invoiceImportDryRunSchema,
  invoiceImportMappingSchema,
  invoiceImportStatusSchema,
  invoiceImportUploadSchema,
  suggestInvoiceMapping,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, scope, tenantTx } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import {
  fileLabel,
  IMPORT_MAX_BYTES,
  lingeringClose,
  multipartError,
  readUpload,
  receiveUpload,
  storeUpload,
  uploadKey,
} from '../contacts/contacts.module.ts';
import * as service from './invoice-import.ts';

const tags = ['billing'];
const staff = { permission: 'backoffice', scoped: true } as const;
const body = z.object({ ImportId: z.uuid(), Mapping: invoiceImportMappingSchema }).strict();

export const invoiceImportRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, {
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024 },
  });

  // The upload alone is not scoped: a scoped transaction would hold a database connection (the embedded database's
  // only one) for as long as the client takes to send the file; the upload's row is written in a short one after.
  app.post('/api/billing/invoices/import/upload', {
    config: { permission: 'backoffice' },
    schema: {
      tags,
      summary:
        'Upload a CSV file of invoice lines (multipart, field "file"): its columns and a suggested mapping',
      response: { 200: invoiceImportUploadSchema },
    },
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      if (!req.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data.');
      const id = randomUUID();
      const key = uploadKey(auth.tenantId, id);
      let received: { label: string; size: number } | undefined;
      try {
        for await (const part of req.parts()) {
          if (part.type !== 'file' || part.fieldname !== 'file' || received)
            throw new HttpError(400, 'Send only the CSV file, in the form field "file".', {
              [part.fieldname.slice(0, 50) || '_']: ['Unknown field.'],
            });
          const size = await receiveUpload(app.storage, key, part.file);
          received = { label: fileLabel(part.filename), size };
        }
        if (!received) throw new HttpError(400, 'Choose a CSV file.', { file: ['Choose a CSV file.'] });
      } catch (err) {
        if (received) await app.storage.remove(key);
        lingeringClose(req.raw, reply.raw);
        throw multipartError(err);
      }
      try {
        const upload = { id, key, ...received };
        const csv = await readUpload(app.storage, {
          id,
          fileName: received.label,
          storageKey: key,
          jobId: null,
        });
        await tenantTx(app.database, auth, (tx) => storeUpload(tx, auth, upload));
        const mapping: Record<string, string> = {};
        for (const [k, v] of Object.entries(suggestInvoiceMapping(csv.headers))) if (v) mapping[k] = v;
        return {
          ImportId: id,
          FileName: received.label,
          Columns: csv.headers,
          Rows: csv.rows.length,
          Sample: csv.rows.slice(0, 5),
          Fields: INVOICE_IMPORT_FIELDS.map(({ Id, Name }) => ({ Id, Name })),
          Mapping: mapping,
        };
      } catch (err) {
        await app.storage.remove(key);
        throw err;
      }
    },
  });

  app.post('/api/billing/invoices/import/dryRun', {
    config: staff,
    schema: {
      tags,
      summary: 'The invoices the file would create and the rows it refuses, with why; nothing is written',
      body,
      response: { 200: invoiceImportDryRunSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.dryRun(
        tx,
        auth,
        app.storage,
        req.body.ImportId,
        req.body.Mapping as InvoiceImportMapping,
      );
    },
  });

  app.post('/api/billing/invoices/import/commit', {
    config: staff,
    schema: {
      tags,
      summary: 'Create the file’s invoices as a job; follow it with GET /api/billing/invoices/import/{id}',
      body,
      response: { 202: invoiceImportStatusSchema },
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      await service.startCommit(tx, auth, req.body.ImportId, req.body.Mapping as InvoiceImportMapping);
      const answer = await service.status(tx, auth, req.body.ImportId);
      // The job is committed with the request's transaction, before the answer goes: wake the worker then.
      reply.raw.once('finish', () => app.worker.wake());
      reply.code(202);
      return answer;
    },
  });

  app.get('/api/billing/invoices/import/:id', {
    config: staff,
    schema: {
      tags,
      summary: 'An invoice import’s state, progress (invoices created of all) and refused rows',
      params: z.object({ id: z.uuid() }),
      response: { 200: invoiceImportStatusSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.status(tx, auth, req.params.id);
    },
  });
};
