/**
 * The email designer's routes (spec 001 section 7 and decision 0153): the design tags, the custom content tools,
 * a template's or a draft mailing's design loaded and saved, a new designed template, and a preview. Thin.
 */
import {
  DESIGN_CUSTOM_TOOLS,
  designedMessageSchema,
  designSaveSchema,
  designSchema,
  designTagSchema,
  serverCallAnswerSchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import * as designer from './designer.service.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const toolIds = DESIGN_CUSTOM_TOOLS.map((t) => t.Id) as [
  (typeof DESIGN_CUSTOM_TOOLS)[number]['Id'],
  ...(typeof DESIGN_CUSTOM_TOOLS)[number]['Id'][],
];

export const designerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/communication/emaildesigner/designTags', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['communications'],
      summary: 'The merge fields the email designer offers (flags 65536), with their tags and chips',
      response: { 200: z.array(designTagSchema) },
    },
    handler: async () => designer.designTags(),
  });

  app.get('/api/unlayercustomtools/:tool', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary:
        'A custom content tool of the designer: HTML from the association data (new members, events, …)',
      params: z.object({
        tool: z.string().transform((t, ctx) => {
          const found = toolIds.find((id) => id.toLowerCase() === t.toLowerCase());
          if (!found) {
            ctx.addIssue({ code: 'custom', message: `There is no content tool "${t}".` });
            return z.NEVER;
          }
          return found;
        }),
      }),
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      reply.type('text/html; charset=utf-8');
      return designer.customTool(tx, auth, req.params.tool);
    },
  });

  app.get('/api/communication/designer/templates/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: designedMessageSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return designer.loadTemplateDesign(tx, auth, req.params.id);
    },
  });
  app.put('/api/communication/designer/templates/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'Saves a template as designed: the server renders its Html from the DesignJson and keeps both',
      params: idParams,
      body: designSaveSchema,
      response: { 200: designedMessageSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return designer.saveTemplateDesign(tx, auth, req.params.id, req.body.DesignJson, req.body.Subject);
    },
  });
  app.post('/api/communication/designer/newTemplate', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'A new designed template (newsletter) with the default design',
      body: z.object({
        Name: z.string().trim().min(1, 'Name is required.').max(200),
        Subject: z.string().trim().min(1, 'Subject is required.').max(300),
      }),
      response: { 200: serverCallAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const id = await designer.createDesignedTemplate(tx, auth, req.body.Name, req.body.Subject);
      return { message: 'We saved it!', Data: { TemplateId: id } };
    },
  });

  app.get('/api/communication/designer/mailings/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: designedMessageSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return designer.loadMailingDesign(tx, auth, req.params.id);
    },
  });
  app.put('/api/communication/designer/mailings/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      params: idParams,
      body: designSaveSchema,
      response: { 200: designedMessageSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return designer.saveMailingDesign(tx, auth, req.params.id, req.body.DesignJson, req.body.Subject);
    },
  });

  app.post('/api/communication/designer/preview', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['communications'],
      summary: 'An unsaved design rendered as the email HTML (merge fields still as chips)',
      body: z.object({ DesignJson: designSchema, Subject: z.string().max(300).default('') }),
      response: { 200: z.object({ Html: z.string() }) },
    },
    handler: async (req) => ({ Html: await designer.previewDesign(req.body.DesignJson, req.body.Subject) }),
  });
};
