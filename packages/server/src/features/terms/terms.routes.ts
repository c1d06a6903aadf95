import { LOGIN_TYPES, termsActionBody } from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/context.ts';
import { clearSessionCookie } from '../../platform/session.ts';
import * as terms from './terms.service.ts';

const termsRow = z.object({
  TermsOfUseId: z.number(),
  LoginType: z.enum(LOGIN_TYPES),
  Title: z.string(),
  Description: z.string(),
  PublishedAt: z.string(),
  PublishedBy: z.string().nullable(),
  AcceptedCount: z.number(),
});

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

  app.get('/api/setup/terms', {
    config: { permission: 'terms.manage' },
    schema: { tags: ['terms'], response: { 200: z.array(termsRow) } },
    handler: async (req) => terms.listTerms(app.database, requireAuth(req.auth)),
  });

  app.post('/api/setup/terms', {
    config: { permission: 'terms.manage' },
    schema: {
      tags: ['terms'],
      summary: 'Publish new terms for a login type',
      body: z.object({
        LoginType: z.enum(LOGIN_TYPES),
        Title: z.string().trim().min(1, 'Give the terms a title.').max(200),
        Description: z.string().trim().min(1, 'Write the terms.').max(100_000),
      }),
      response: { 201: termsRow },
    },
    handler: async (req, reply) => {
      reply.code(201);
      return terms.publishTerms(app.database, requireAuth(req.auth), req.body);
    },
  });
};
