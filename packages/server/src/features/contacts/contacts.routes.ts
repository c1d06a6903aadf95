/**
 * Contacts routes beyond the generic layer (which serves /api/contacts/contacts, /entries and /links from the
 * resource declarations): the member directory, a member's own profile, merge and import.
 */

import {
  contactRelationsSchema,
  contactUserLinkBody,
  contactUserLinkSchema,
  directoryContactSchema,
  directoryListQuerySchema,
  directoryListSchema,
  memberProfileAnswerSchema,
  memberProfileSchema,
  mergeBodySchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownContactId, scope } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import * as service from './contacts.service.ts';
import { importRoutes } from './import.routes.ts';

export const contactsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/mic/Contact/DirectoryContact/:id', {
    config: { permission: 'member-area', scoped: true, ownRows: false },
    schema: {
      tags: ['directory'],
      summary: 'A listed contact of the member directory: published fields only',
      params: z.object({ id: z.string().max(20) }),
      response: { 200: directoryContactSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const id = Number(req.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
      return service.directoryContact(tx, auth, app.resources, id);
    },
  });

  app.get('/api/mic/Contact/DirectoryContacts', {
    config: { permission: 'member-area', scoped: true, ownRows: false },
    schema: {
      tags: ['directory'],
      summary: 'The member directory: listed contacts, published fields only',
      querystring: directoryListQuerySchema,
      response: { 200: directoryListSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.directoryList(tx, auth, app.resources, req.query);
    },
  });

  app.get('/api/mic/Contact/MyProfile', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['directory'],
      summary: 'The member’s own contact record',
      response: { 200: memberProfileAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.myProfile(tx, auth, await ownContactId(req));
    },
  });

  app.post('/api/mic/Contact/MyProfile', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['directory'],
      summary: 'A member changes their own profile (contact info and what the directory publishes only)',
      body: memberProfileSchema,
      response: { 200: memberProfileAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.updateMyProfile(tx, auth, app.resources, await ownContactId(req), req.body);
    },
  });

  app.get('/api/contacts/contacts/:id/relations', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['contacts'],
      summary: 'A contact’s related contacts, from either side of each link, by name',
      params: z.object({ id: z.string().max(20) }),
      response: { 200: contactRelationsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const id = Number(req.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
      return service.relations(tx, auth, id);
    },
  });

  app.post('/api/contacts/contacts/merge', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['contacts'],
      summary: 'Merge two duplicate contacts, keeping the history of both',
      body: mergeBodySchema,
      response: {
        200: z.object({
          ContactId: z.number(),
          MergedContactId: z.number(),
          MovedEntries: z.number(),
          MovedLinks: z.number(),
        }),
      },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.merge(tx, auth, app.resources, req.body.KeepContactId, req.body.MergeContactId);
    },
  });

  const contactIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
  app.get('/api/contacts/contacts/:id/user', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['contacts'],
      summary: 'The user (sign-in) a contact is linked to',
      params: contactIdParams,
      response: { 200: contactUserLinkSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.userLinkOf(tx, auth, req.params.id);
    },
  });
  app.put('/api/contacts/contacts/:id/user', {
    config: { permission: 'users.manage', scoped: true },
    schema: {
      tags: ['contacts'],
      summary: 'Links a contact to a user of the association, or unlinks it (UserId null)',
      description: "A user is linked to one contact per association: linking moves the user's link here.",
      params: contactIdParams,
      body: contactUserLinkBody,
      response: { 200: contactUserLinkSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.linkUser(tx, auth, req.params.id, req.body.UserId);
    },
  });
  app.get('/api/contacts/userContact/:id', {
    config: { permission: 'users.read', scoped: true },
    schema: {
      tags: ['contacts'],
      summary: 'The contact a user of the association is linked to (null when none)',
      params: contactIdParams,
      response: { 200: contactUserLinkSchema.nullable() },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.contactOfUser(tx, auth, req.params.id);
    },
  });

  await app.register(importRoutes);
};
