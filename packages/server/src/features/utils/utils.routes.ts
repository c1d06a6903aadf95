import {
  emailValidateBody,
  emailValidateResponse,
  parseNameParams,
  parseNameResponse,
  refundValidateBody,
  refundValidateResponse,
  timezoneOptionSchema,
  timezoneOptions,
  validationResultSchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/context.ts';
import * as utils from './utils.service.ts';

/**
 * Answer of GET /api/Signup/ParseName/{name}: `{Data: {Name: {FirstName, LastName}, Valid, ErrorMessages}}`.
 * Spec 001 section 7 names Data.Name; Valid and ErrorMessages sit beside it so a name that does not parse into a
 * first and a last name answers 200 with Valid false and the field message, and the sign-up form marks the field.
 */
const parseNameAnswer = parseNameResponse.extend({
  Data: parseNameResponse.shape.Data.extend(validationResultSchema.shape),
});

/** Email validations one address may ask for per minute: a person typing, not a list being checked. */
export const EMAIL_VALIDATIONS_PER_MINUTE = 60;

export const utilsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/utils/email/validate', {
    // Public (the minimal sign-up validates the address before anyone has an account) and rate-limited by address.
    config: {
      permission: 'public',
      rateLimit: { max: EMAIL_VALIDATIONS_PER_MINUTE, timeWindow: '1 minute' },
    },
    schema: {
      tags: ['utils'],
      summary: 'Validates an email address: syntax, a real domain, no disposable mailbox',
      description: `Public, at most ${EMAIL_VALIDATIONS_PER_MINUTE} calls a minute from one address (then 429).`,
      body: emailValidateBody,
      response: { 200: emailValidateResponse },
    },
    handler: async (req) => utils.validateEmail(req.body.emailAddress),
  });

  app.get('/api/utils/timezones', {
    config: { permission: 'public' },
    schema: {
      tags: ['utils'],
      summary: 'The timezone options of every timezone select: TimezoneId, DisplayName, OlsonName',
      description:
        'TimezoneId is the IANA (Olson) name. West to east; the offset in DisplayName is the one in force now. Public: sign-up asks for a timezone before there is a session.',
      response: { 200: z.array(timezoneOptionSchema) },
    },
    handler: async () => {
      return timezoneOptions([...Intl.supportedValuesOf('timeZone'), 'UTC'], new Date());
    },
  });

  app.get('/api/Signup/ParseName/:name', {
    config: { permission: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: {
      tags: ['signup'],
      summary:
        'Splits a full name into first and last name; Valid false (still a 200) when either is missing',
      params: parseNameParams,
      response: { 200: parseNameAnswer },
    },
    handler: async (req) => utils.parseName(req.params.name),
  });

  app.post('/api/utils/refund/validate', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['utils'],
      summary:
        'Validates a refund: the payment exists in this association, the amount is positive and at most what is left to refund',
      description:
        'Answers 200 with Data.Valid and ErrorMessages beside Data. An unknown payment, a deleted one and one of another association answer the same "not found" message.',
      body: refundValidateBody,
      response: { 200: refundValidateResponse },
    },
    handler: async (req) => utils.validateRefundRequest(app.database, requireAuth(req.auth), req.body),
  });
};
