/** Dialog templates: the dialog component the web opens for a screen key. Outside /api, in the checked scope. */
import { REPORTING_TEMPLATE_KEY, VIEW_TEMPLATES, viewTemplateSchema } from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../errors.ts';

export const viewTemplatesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/a/ViewTemplates/Index/:key', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['screens'],
      params: z.object({ key: z.string().max(200) }),
      response: { 200: viewTemplateSchema },
    },
    handler: async (req) => {
      const template = Object.hasOwn(VIEW_TEMPLATES, req.params.key)
        ? VIEW_TEMPLATES[req.params.key]
        : undefined;
      if (!template) throw notFound();
      return template;
    },
  });
  app.get('/a/ViewTemplates/Reporting', {
    config: { permission: 'authenticated' },
    schema: { tags: ['screens'], response: { 200: viewTemplateSchema } },
    handler: async () => {
      const template = VIEW_TEMPLATES[REPORTING_TEMPLATE_KEY];
      if (!template) throw notFound();
      return template;
    },
  });
};
