import {
  associationSchema,
  changePasswordBody,
  changeUsernameBody,
  forgotPasswordBody,
  loginBody,
  meSchema,
  resetPasswordBody,
  SECURITY_QUESTIONS,
  securityQuestionBody,
  timeZoneBody,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { clearSessionCookie, setSessionCookie } from '../../platform/session.ts';
import * as auth from './auth.service.ts';

const message = z.object({ message: z.string() });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const client = (req: { ip: string; headers: Record<string, string | string[] | undefined> }) => ({
    ip: req.ip,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
  });

  app.post('/api/auth/login', {
    config: { permission: 'public' },
    schema: { tags: ['auth'], summary: 'Sign in', body: loginBody, response: { 200: meSchema } },
    handler: async (req, reply) => {
      const { session, me } = await auth.login(app.database, app.config, req.body, client(req));
      // A new sign-in replaces any session this browser held; a failed one leaves it as it was.
      if (req.auth) await auth.logout(app.database, req.auth);
      setSessionCookie(req, reply, session);
      return me;
    },
  });

  app.post('/api/auth/logout', {
    config: { permission: 'public' },
    schema: {
      tags: ['auth'],
      summary: 'Sign out (revokes the session)',
      response: { 200: z.object({ ok: z.boolean() }) },
    },
    handler: async (req, reply) => {
      await auth.logout(app.database, req.auth);
      clearSessionCookie(reply);
      return { ok: true };
    },
  });

  app.get('/api/auth/me', {
    config: { permission: 'authenticated', allowPending: true },
    schema: {
      tags: ['auth'],
      summary: 'The signed-in user, tenant, area, flags and pending prompts',
      response: { 200: meSchema },
    },
    handler: async (req) => auth.buildMe(app.database, requireAuth(req.auth)),
  });

  app.put('/api/auth/me/time-zone', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['auth'],
      summary: 'The time zone the signed-in person reads times in (null: each association’s own)',
      body: timeZoneBody,
      response: { 200: meSchema },
    },
    handler: async (req) => auth.setTimeZone(app.database, requireAuth(req.auth), req.body.TimeZone),
  });

  app.get('/api/auth/associations', {
    config: { permission: 'authenticated', allowPending: true },
    schema: {
      tags: ['auth'],
      summary: 'The associations the signed-in person belongs to, the current one marked',
      response: { 200: z.array(associationSchema) },
    },
    handler: async (req) => auth.listAssociations(app.database, requireAuth(req.auth)),
  });

  app.post('/api/auth/associations/:tenantId/switch', {
    config: { permission: 'authenticated', allowPending: true },
    schema: {
      tags: ['auth'],
      summary: 'Changes association without signing in again: a new session scoped to the chosen one',
      params: z.strictObject({ tenantId: z.uuid() }),
      response: { 200: meSchema },
    },
    handler: async (req, reply) => {
      const { session, me } = await auth.switchAssociation(
        app.database,
        app.config,
        requireAuth(req.auth),
        req.params.tenantId,
        client(req),
      );
      setSessionCookie(req, reply, session);
      return me;
    },
  });

  app.get('/api/auth/security-questions', {
    config: { permission: 'authenticated', allowPending: true },
    schema: { tags: ['auth'], response: { 200: z.array(z.object({ Id: z.number(), Text: z.string() })) } },
    handler: async () => [...SECURITY_QUESTIONS],
  });

  app.post('/api/auth/security-question', {
    config: { permission: 'authenticated', allowPending: true },
    schema: { tags: ['auth'], body: securityQuestionBody, response: { 200: meSchema } },
    handler: async (req) => {
      if (!SECURITY_QUESTIONS.some((q) => q.Id === req.body.SecurityQuestionId)) {
        throw badRequest('Choose one of the offered questions.', {
          SecurityQuestionId: ['Choose one of the offered questions.'],
        });
      }
      return auth.setSecurityQuestion(app.database, requireAuth(req.auth), req.body);
    },
  });

  app.post('/api/auth/change-password', {
    config: { permission: 'authenticated', allowPending: true },
    schema: { tags: ['auth'], body: changePasswordBody, response: { 200: meSchema } },
    handler: async (req, reply) => {
      const { session, me } = await auth.changePassword(
        app.database,
        app.config,
        requireAuth(req.auth),
        req.body,
        client(req),
      );
      setSessionCookie(req, reply, session);
      return me;
    },
  });

  app.post('/api/auth/change-username', {
    config: { permission: 'authenticated', allowPending: true },
    schema: { tags: ['auth'], body: changeUsernameBody, response: { 200: meSchema } },
    handler: async (req) => auth.changeUsername(app.database, requireAuth(req.auth), req.body.newUsername),
  });

  app.post('/api/auth/forgot-password', {
    config: { permission: 'public', rateLimit: { max: 5, timeWindow: '1 minute' } },
    schema: { tags: ['auth'], body: forgotPasswordBody, response: { 200: message } },
    handler: async (req) => {
      auth.forgotPassword(app.database, app.config, app.mailer, app.background, req.body.usernameOrEmail);
      return { message: auth.FORGOT_PASSWORD_ANSWER };
    },
  });

  app.post('/api/users/:userId/send-password-reset', {
    config: { permission: 'users.manage' },
    schema: {
      tags: ['users'],
      summary: 'Send a user a link to choose a new password (staff never see the link)',
      params: z.object({ userId: z.coerce.number().int().positive() }),
      response: { 200: message },
    },
    handler: async (req) =>
      auth.sendPasswordReset(app.database, app.config, app.mailer, requireAuth(req.auth), req.params.userId),
  });

  app.post('/api/auth/reset-password', {
    config: { permission: 'public' },
    schema: { tags: ['auth'], body: resetPasswordBody, response: { 200: message } },
    handler: async (req) => {
      await auth.resetPassword(app.database, req.body);
      return { message: 'Your password is changed. Sign in with the new one.' };
    },
  });

  app.post('/api/auth/impersonate/:userId', {
    config: { permission: 'users.impersonate' },
    schema: {
      tags: ['auth'],
      params: z.object({ userId: z.coerce.number().int().positive() }),
      response: { 200: meSchema },
    },
    handler: async (req, reply) => {
      const { session, me } = await auth.startImpersonation(
        app.database,
        app.config,
        requireAuth(req.auth),
        req.params.userId,
        client(req),
      );
      setSessionCookie(req, reply, session);
      return me;
    },
  });

  app.post('/api/auth/impersonate/stop', {
    config: { permission: 'authenticated', allowPending: true },
    schema: { tags: ['auth'], response: { 200: meSchema } },
    handler: async (req, reply) => {
      const { session, me } = await auth.stopImpersonation(
        app.database,
        app.config,
        requireAuth(req.auth),
        client(req),
      );
      setSessionCookie(req, reply, session);
      return me;
    },
  });
};
