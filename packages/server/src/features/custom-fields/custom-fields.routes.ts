/**
 * Custom fields routes: the definitions (setup permission to change them), the type change with its dry run, a
 * record's values (staff), and a member's own values (member area: only fields visible to members).
 */
import {
  customFieldSaveBody,
  customFieldSchema,
  customValuesBody,
  recordCustomValuesSchema,
  typeChangeBody,
  typeChangeOutcomeSchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownContactId, scope } from '../../platform/context.ts';
import * as service from './custom-fields.service.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const recordParams = z.object({
  entity: z.string().min(1).max(60),
  recordId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const MEMBER_ENTITY = 'Contact';

export const customFieldsRoutes: FastifyPluginAsyncZod = async (app) => {
  const resources = () => app.services.resources;

  app.get('/api/custom-fields/entities', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['custom-fields'],
      summary: 'The entities whose records take custom fields',
      response: { 200: z.array(z.object({ Entity: z.string(), Title: z.string() })) },
    },
    handler: async () => service.entitiesOf(resources()),
  });

  app.get('/api/custom-fields', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'The custom fields of an entity, in form order, with how many records have a value',
      querystring: z.object({
        entity: z.string().min(1).max(60),
        /** The fields of one scope record (an event's registration questions); without it, those of no scope. */
        scope: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
      }),
      response: { 200: z.array(customFieldSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.listFields(tx, auth, req.query.entity, req.query.scope ?? null);
    },
  });

  app.post('/api/custom-fields', {
    config: { permission: 'settings.manage', scoped: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'Add a custom field',
      body: customFieldSaveBody,
      response: { 201: customFieldSchema },
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      reply.code(201);
      return service.createField(tx, auth, resources(), req.body);
    },
  });

  app.put('/api/custom-fields/:id', {
    config: { permission: 'settings.manage', scoped: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'Change a custom field (its type changes through the type change)',
      params: idParams,
      body: customFieldSaveBody,
      response: { 200: customFieldSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.updateField(tx, auth, req.params.id, req.body, app.services);
    },
  });

  app.delete('/api/custom-fields/:id', {
    config: { permission: 'settings.manage', scoped: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'Delete a custom field (its stored values are kept, no longer shown)',
      params: idParams,
      response: { 200: z.object({ ok: z.literal(true) }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      await service.deleteField(tx, auth, req.params.id, app.services);
      return { ok: true as const };
    },
  });

  app.post('/api/custom-fields/:id/type-change', {
    config: { permission: 'settings.manage', scoped: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'Change a custom field’s type: a dry run, or (Confirm) applied',
      params: idParams,
      body: typeChangeBody,
      response: { 200: typeChangeOutcomeSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.changeType(
        tx,
        auth,
        resources(),
        req.params.id,
        req.body.CustomFieldDataTypeId,
        req.body.Confirm,
        app.services,
      );
    },
  });

  app.get('/api/custom-fields/values/:entity/:recordId', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'A record’s custom fields and values',
      params: recordParams,
      response: { 200: recordCustomValuesSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.recordValues(tx, auth, resources(), req.params.entity, req.params.recordId, 'staff');
    },
  });

  app.put('/api/custom-fields/values/:entity/:recordId', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'Save a record’s custom field values (each checked against its field’s type)',
      params: recordParams,
      body: customValuesBody,
      response: { 200: recordCustomValuesSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const { entity, recordId } = req.params;
      return service.saveRecordValues(
        tx,
        auth,
        resources(),
        entity,
        recordId,
        req.body.Values,
        'staff',
        app.services.search,
      );
    },
  });

  app.get('/api/custom-fields/my-profile', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'The member’s own custom fields that members may see, and which they may edit',
      response: { 200: recordCustomValuesSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const id = await ownContactId(req);
      return service.recordValues(tx, auth, resources(), MEMBER_ENTITY, id, 'member');
    },
  });

  app.put('/api/custom-fields/my-profile', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['custom-fields'],
      summary: 'The member changes the custom fields members may edit on their own record',
      body: customValuesBody,
      response: { 200: recordCustomValuesSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const id = await ownContactId(req);
      return service.saveRecordValues(
        tx,
        auth,
        resources(),
        MEMBER_ENTITY,
        id,
        req.body.Values,
        'member',
        app.services.search,
      );
    },
  });
};
