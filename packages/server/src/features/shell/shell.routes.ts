import {
  helpTextSchema,
  maintenanceBody,
  maintenanceSchema,
  statusBody,
  statusSchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import * as shell from './shell.service.ts';

const stateName = z.object({
  stateName: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9._-]+$/, 'A screen state name holds letters, digits, dots, dashes and underscores.'),
});

export const shellRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/status', {
    config: { permission: 'authenticated', allowPending: true },
    schema: { tags: ['shell'], summary: 'Status banner', response: { 200: statusSchema } },
    handler: async (req) => shell.getStatus(app.database, requireAuth(req.auth)),
  });
  app.post('/api/status/open', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['shell'],
      summary: 'Records that the user opened the status banner',
      response: { 200: statusSchema },
    },
    handler: async (req) => shell.openStatus(app.database, requireAuth(req.auth)),
  });
  app.put('/api/status', {
    config: { permission: 'status.manage' },
    schema: { tags: ['shell'], body: statusBody, response: { 200: statusSchema } },
    handler: async (req) => shell.setStatus(app.database, requireAuth(req.auth), req.body),
  });
  app.get('/api/status/maintenance', {
    config: { permission: 'authenticated', allowPending: true },
    schema: { tags: ['shell'], response: { 200: maintenanceSchema } },
    handler: async (req) => shell.getMaintenance(app.database, requireAuth(req.auth)),
  });
  app.put('/api/status/maintenance', {
    config: { permission: 'status.manage' },
    schema: { tags: ['shell'], body: maintenanceBody, response: { 200: maintenanceSchema } },
    handler: async (req) => shell.setMaintenance(app.database, requireAuth(req.auth), req.body),
  });
  app.get('/api/help/:stateName', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['shell'],
      summary: 'Help text of a screen',
      params: stateName,
      response: { 200: helpTextSchema },
    },
    handler: async (req) => shell.getHelp(app.database, requireAuth(req.auth), req.params.stateName),
  });
  app.get('/api/help/tooltips/:resource', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['shell'],
      summary: "Tooltips of a resource's fields (spec 000 section 7: GET tooltips)",
      description:
        "Field name to text: the association's help text named `<Resource>.Tooltip.<Field>` (Setup > Help texts) over the tooltip the field declares. Fields without either are left out.",
      params: z.object({ resource: z.string().max(100) }),
      response: { 200: z.record(z.string(), z.string()) },
    },
    handler: async (req) => {
      const tips = await shell.getTooltips(app.database, requireAuth(req.auth), req.params.resource);
      if (!tips) throw notFound();
      return tips;
    },
  });
};
