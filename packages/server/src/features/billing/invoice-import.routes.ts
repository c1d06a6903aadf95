/** "Create invoices from file": upload, dry run, commit as a job and its progress (decision 0126). */
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
import { scope } from '../../platform/context.ts';
import { acceptCsvUpload, CSV_UPLOAD_LIMITS } from '../../platform/csv-import.ts';
import * as service from './invoice-import.ts';

const tags = ['billing'];
const staff = { permission: 'backoffice', scoped: true } as const;
const body = z.object({ ImportId: z.uuid(), Mapping: invoiceImportMappingSchema }).strict();

export const invoiceImportRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, { limits: CSV_UPLOAD_LIMITS });

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
    handler: (req, reply) =>
      acceptCsvUpload(app, req, reply, async (_tx, _auth, headers) => ({
        fields: INVOICE_IMPORT_FIELDS.map(({ Id, Name }) => ({ Id, Name })),
        mapping: suggestInvoiceMapping(headers),
      })),
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
      const answer = await service.status(tx, auth, app.storage, req.body.ImportId);
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
      return service.status(tx, auth, app.storage, req.params.id);
    },
  });
};
