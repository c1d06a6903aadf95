/**
 * Communications routes (spec 001 section 7): merge fields and their resolution, the current user's signatures and
 * the signature manager's writes, template actions, and the email template example. Thin: each calls a service.
 */
import {
  checkMergeParams,
  MERGE_FLAGS,
  mergeChipHtml,
  mergeChipLabel,
  mergeFieldByName,
  mergeFieldSchema,
  mergeFieldsFor,
  mergeFieldUnavailable,
  mergeTag,
  serverCallAnswerSchema,
  signatureInputSchema,
  signatureSchema,
  systemMergeFields,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { EXAMPLE_TEMPLATE_BODY, exampleTemplatePage } from './example-template.ts';
import * as signatures from './signatures.service.ts';
import * as templates from './templates.service.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParams = z.object({ id });

export const communicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/communication/mergefields/:flags/:templateType/:entity', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['communications'],
      summary: 'The merge fields a context offers (flags 1: the rich-text editor, 65536: the designer)',
      params: z.object({
        flags: z.coerce
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1)
          .catch(MERGE_FLAGS.RichText),
        templateType: z.string().max(50),
        entity: z.string().max(50),
      }),
      response: { 200: z.array(mergeFieldSchema) },
    },
    handler: async (req) => {
      // A system message (`system:{key}`, decision 0154) offers its own values and the association's.
      if (req.params.entity.startsWith('system:')) {
        const t = app.services.mailTemplates.find((x) => `system:${x.Key}` === req.params.entity);
        return t ? systemMergeFields(t) : [];
      }
      return mergeFieldsFor(req.params.flags || MERGE_FLAGS.RichText, req.params.entity);
    },
  });

  app.post('/api/communication/resolvemergefield/:name', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['communications'],
      summary:
        'A merge field with its parameters: [the Liquid tag, the chip label, the chip HTML the editors insert]',
      params: z.object({ name: z.string().max(100) }),
      body: z.record(z.string(), z.unknown()).nullish(),
      response: { 200: z.array(z.string()) },
    },
    handler: async (req) => {
      const field =
        mergeFieldByName(req.params.name) ??
        app.services.mailTemplates
          .flatMap((t) => systemMergeFields(t))
          .find((f) => f.Name === req.params.name);
      if (!field) throw badRequest(mergeFieldUnavailable(req.params.name));
      const { params, errors } = checkMergeParams(field, req.body ?? {});
      const messages = Object.values(errors);
      if (messages.length > 0)
        throw badRequest(
          messages.join(' '),
          Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [v]])),
        );
      return [mergeTag(field, params), mergeChipLabel(field, params), mergeChipHtml(field, params)];
    },
  });

  app.get('/api/signatures/currentUserSignatures', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], response: { 200: z.array(signatureSchema) } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return signatures.currentUserSignatures(tx, auth);
    },
  });
  app.post('/api/signatures', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], body: signatureInputSchema, response: { 201: signatureSchema } },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      reply.code(201);
      return signatures.createSignature(tx, auth, req.body);
    },
  });
  app.put('/api/signatures/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      params: idParams,
      body: signatureInputSchema,
      response: { 200: signatureSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return signatures.updateSignature(tx, auth, req.params.id, req.body);
    },
  });
  app.post('/api/signatures/:id/default', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: signatureSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return signatures.makeDefault(tx, auth, req.params.id);
    },
  });
  app.delete('/api/signatures/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      params: idParams,
      response: { 200: z.object({ ok: z.literal(true) }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      await signatures.deleteSignature(tx, auth, req.params.id);
      return { ok: true as const };
    },
  });

  app.post('/api/communication/templates/:id/duplicate', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: serverCallAnswerSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const copyId = await templates.duplicateTemplate(tx, auth, req.params.id);
      return { message: 'We made a copy of the template.', Data: { TemplateId: copyId } };
    },
  });
  app.post('/api/communication/templates/:id/archive', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: serverCallAnswerSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const name = await templates.setArchived(tx, auth, req.params.id, true);
      return { message: `"${name}" is archived.`, Data: {} };
    },
  });
  app.post('/api/communication/templates/:id/restore', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: serverCallAnswerSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const name = await templates.setArchived(tx, auth, req.params.id, false);
      return { message: `"${name}" is restored.`, Data: {} };
    },
  });

  app.get('/GZContent/EmailTemplates/template-1.html', {
    config: { permission: 'public' },
    schema: { tags: ['communications'], summary: 'The email template example (a complete responsive email)' },
    handler: async (_req, reply) => {
      reply.header('Cache-Control', 'public, max-age=3600');
      reply.type('text/html; charset=utf-8');
      return exampleTemplatePage(EXAMPLE_TEMPLATE_BODY);
    },
  });
};
