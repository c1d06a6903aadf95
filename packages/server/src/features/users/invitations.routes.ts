import {
  acceptInvitationBody,
  invitationInfoSchema,
  invitationRowSchema,
  inviteBody,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, scope } from '../../platform/context.ts';
import * as invitations from './invitations.service.ts';

const message = z.object({ message: z.string() });
const idParams = z.object({ invitationId: z.coerce.number().int().positive() });

/** Accept forms one address may send per minute (a link's token cannot be guessed; this bounds password checks). */
export const ACCEPT_PER_MINUTE = 20;

export const invitationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/users/invitations', {
    config: { permission: 'users.read', scoped: true },
    schema: {
      tags: ['users'],
      summary: 'The pending invitations (expired links included: Resend renews them)',
      response: { 200: z.array(invitationRowSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return invitations.listInvitations(tx, auth);
    },
  });

  // Not scoped: the invitation is mailed after its transaction commits, never for one that rolls back.
  app.post('/api/users/invitations/invite', {
    config: { permission: 'users.manage' },
    schema: {
      tags: ['users'],
      summary: 'Invite a colleague by email with a role: mails a single-use link that expires',
      body: inviteBody,
      response: { 200: message.extend({ invitationId: z.number().int() }) },
    },
    handler: async (req) => invitations.invite(app.services, requireAuth(req.auth), req.body),
  });

  // Not scoped: the invitation is mailed after its transaction commits, never for one that rolls back.
  app.post('/api/users/invitations/:invitationId/resend', {
    config: { permission: 'users.manage' },
    schema: {
      tags: ['users'],
      summary: 'Send a new link; the previous one stops working',
      params: idParams,
      response: { 200: message },
    },
    handler: async (req) => invitations.resend(app.services, requireAuth(req.auth), req.params.invitationId),
  });

  app.post('/api/users/invitations/:invitationId/revoke', {
    config: { permission: 'users.manage', scoped: true },
    schema: {
      tags: ['users'],
      summary: 'Revoke a pending invitation; its link stops working',
      params: idParams,
      response: { 200: message },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return invitations.revoke(tx, auth, req.params.invitationId);
    },
  });

  app.get('/api/users/invitations/by-token/:token', {
    config: { permission: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: {
      tags: ['users'],
      summary: 'Whether an invitation link works, and the association, address and role it is for',
      params: z.strictObject({ token: z.string().max(256) }),
      response: { 200: invitationInfoSchema },
    },
    handler: async (req) => invitations.readByToken(app.services, req.params.token),
  });

  app.post('/api/users/invitations/accept', {
    config: { permission: 'public', rateLimit: { max: ACCEPT_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags: ['users'],
      summary: 'Accept an invitation: a new account, or the association added to the account signed in with',
      body: acceptInvitationBody,
      response: { 200: message },
    },
    handler: async (req) => invitations.accept(app.services, req.body),
  });
};
