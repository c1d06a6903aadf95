import {
  beginSignupBody,
  beginSignupResponse,
  completeSignupBody,
  completeSignupResponse,
  signupInvitationResponse,
  validateUsernameParams,
  validateUsernameResponse,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setSessionCookie } from '../../platform/session.ts';
import * as signup from './signup.service.ts';

/** Minimal sign-ups one address may send per minute (each one mails a link). */
export const BEGIN_SIGNUP_PER_MINUTE = 10;
/** Setup forms one address may send per minute (a link's token cannot be guessed; this bounds the work). */
export const COMPLETE_SIGNUP_PER_MINUTE = 60;

export const signupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/Signup/ValidateUsername/:username', {
    config: { permission: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: {
      tags: ['signup'],
      summary:
        'Whether a new account may take a username; for a taken one, where to sign in or reset the password',
      params: validateUsernameParams,
      response: { 200: validateUsernameResponse },
    },
    handler: async (req) => signup.validateUsername(app.services, req.params.username),
  });

  app.post('/api/Signup/BeginSignup', {
    config: { permission: 'public', rateLimit: { max: BEGIN_SIGNUP_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags: ['signup'],
      summary: 'The minimal sign-up: mails a single-use link to the account setup wizard',
      description:
        'Answers Data.success whether or not the address already has an account; a malformed address answers 400.',
      body: beginSignupBody,
      response: { 200: beginSignupResponse },
    },
    handler: async (req) => signup.beginSignup(app.services, req.log, req.body, req.ip),
  });

  app.get('/api/signup/links/:token', {
    config: { permission: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: {
      tags: ['signup'],
      summary: 'Whether a sign-up link can still be used, and the address and name it was sent for',
      params: z.strictObject({ token: z.string().max(256) }),
      response: { 200: signupInvitationResponse },
    },
    handler: async (req) => signup.readInvitation(app.services, req.params.token),
  });

  app.post('/api/Signup/CompleteSignup', {
    config: { permission: 'public', rateLimit: { max: COMPLETE_SIGNUP_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags: ['signup'],
      summary: 'The account setup wizard: makes the association and signs its first administrator in',
      description:
        'One transaction; the same link twice makes one association. Refusals answer 400 with the errors of the fields by their model names.',
      body: completeSignupBody,
      response: { 200: completeSignupResponse },
    },
    handler: async (req, reply) => {
      const done = await signup.completeSignup(app.services, req.body, {
        ip: req.ip,
        userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
      });
      if (done.session) setSessionCookie(req, reply, done.session);
      return done.answer;
    },
  });
};
