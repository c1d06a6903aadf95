/**
 * System messages in Communications (decision 0154): the list of the product's transactional messages with the
 * association's wording of each, saving a rewording, restoring the default, and a preview with sample values.
 */
import { previewAnswerSchema, systemTemplateInputSchema, systemTemplateSchema } from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import * as service from './system-templates.service.ts';

const keyParams = z.object({ key: z.string().max(100) });

export const systemTemplatesRoutes: FastifyPluginAsyncZod = async (app) => {
  const templates = () => app.services.mailTemplates;

  app.get('/api/communication/system-templates', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: "The product's system messages (password reset, invoice, …) in the association's wording",
      response: { 200: z.array(systemTemplateSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.listSystemTemplates(tx, auth.tenantId, templates());
    },
  });
  app.get('/api/communication/system-templates/:key', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: keyParams, response: { 200: systemTemplateSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.getSystemTemplate(tx, auth.tenantId, templates(), req.params.key);
    },
  });
  app.put('/api/communication/system-templates/:key', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'Rewords a system message for the association (sanitized; only the values it offers)',
      params: keyParams,
      body: systemTemplateInputSchema,
      response: { 200: systemTemplateSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.saveSystemTemplate(
        tx,
        auth.tenantId,
        auth.userId,
        templates(),
        req.params.key,
        req.body,
      );
    },
  });
  app.delete('/api/communication/system-templates/:key', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: "Restores the product's default wording of a system message",
      params: keyParams,
      response: { 200: systemTemplateSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.resetSystemTemplate(tx, auth.tenantId, templates(), req.params.key);
    },
  });
  app.post('/api/communication/system-templates/:key/preview', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'The message with sample values: the saved wording, or the draft sent',
      params: keyParams,
      body: systemTemplateInputSchema.partial().nullish(),
      response: { 200: previewAnswerSchema.pick({ Subject: true, Html: true }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const b = req.body;
      const draft =
        b?.Subject !== undefined && b.BodyHtml !== undefined
          ? { Subject: b.Subject, BodyHtml: b.BodyHtml }
          : null;
      return service.previewSystemTemplate(tx, auth.tenantId, templates(), req.params.key, draft);
    },
  });
};
