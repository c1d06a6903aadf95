import {
  privacyPolicyActionBody,
  publishTermsBody,
  termsActionBody,
  termsRowSchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/context.ts';
import { clearSessionCookie } from '../../platform/session.ts';
import * as terms from './terms.service.ts';

export const termsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/Setup/TermsofUse/terms/takeaction', {
    config: { permission: 'authenticated', allowPending: true },
    schema: {
      tags: ['terms'],
      summary: 'Accept or decline terms of use; declining signs out',
      body: termsActionBody,
      response: { 200: z.object({ Success: z.boolean(), SignedOut: z.boolean() }) },
    },
    handler: async (req, reply) => {
      const { SignedOut } = await terms.takeAction(app.database, requireAuth(req.auth), req.body);
      if (SignedOut) clearSessionCookie(reply);
      return { Success: true, SignedOut };
    },
  });

  app.post('/api/privacy-policy/acceptance', {
    config: { permission: 'authenticated', allowPending: true },
    schema: {
      tags: ['terms'],
      summary: 'Accept or decline the association’s privacy policy; declining signs out',
      body: privacyPolicyActionBody,
      response: { 200: z.object({ Success: z.boolean(), SignedOut: z.boolean() }) },
    },
    handler: async (req, reply) => {
      const { SignedOut } = await terms.privacyPolicyAction(app.database, requireAuth(req.auth), req.body);
      if (SignedOut) clearSessionCookie(reply);
      return { Success: true, SignedOut };
    },
  });

  // Every version published is the terms resource's list (`/api/Setup/TermsofUse`, the Terms page embeds it): one
  // way. This answers what the list does not: the terms in force per login type, with who published and who accepted.
  app.get('/api/setup/terms/current', {
    config: { permission: 'terms.manage' },
    schema: {
      tags: ['terms'],
      summary: 'The terms in force for each login type, with who published them and how many accepted',
      response: { 200: z.array(termsRowSchema) },
    },
    handler: async (req) => terms.currentTerms(app.database, requireAuth(req.auth)),
  });

  app.post('/api/setup/terms', {
    config: { permission: 'terms.manage' },
    schema: {
      tags: ['terms'],
      summary: 'Publish new terms for a login type',
      body: publishTermsBody,
      response: { 201: termsRowSchema },
    },
    handler: async (req, reply) => {
      reply.code(201);
      return terms.publishTerms(app.database, requireAuth(req.auth), req.body);
    },
  });
};
