/**
 * Bounces: the inbound address of delivery status notifications (raw mail, as the mail server of the return-path
 * domain receives it at `bounces+…@`), and what staff see of a contact's address (suppressed, bounces) with the way
 * to lift a suppression. Thin: each calls bounces.service.ts.
 */
import { bounceOutcomeSchema, deliverabilitySchema } from '@guildhall/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import * as service from './bounces.service.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A DSN with the returned message may be large; beyond this it is refused. */
const DSN_LIMIT = 2 * 1024 * 1024;

export const bouncesRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(async (inbound) => {
    for (const type of ['message/rfc822', 'text/plain', 'application/octet-stream'])
      inbound.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: DSN_LIMIT }, (_req, body, done) =>
        done(null, body),
      );
    inbound.withTypeProvider<ZodTypeProvider>().post('/api/communication/bounces', {
      config: { permission: 'public' },
      schema: {
        tags: ['communications'],
        summary:
          'A delivery status notification (RFC 3464) as raw mail: a hard bounce suppresses the address, a soft one is counted',
        description:
          'The mail server of the return-path domain pipes each message arriving at a `bounces+{tenant}.{token}@` address here (`Content-Type: message/rfc822`); `to` may give the envelope recipient. The recipient token (128 random bits) is what identifies the message; anything else is answered Matched false and ignored.',
        querystring: z.object({ to: z.string().max(400).optional() }),
        response: { 200: bounceOutcomeSchema },
      },
      handler: async (req) => {
        const raw = req.body as unknown;
        // A JSON or form body is not a mail: the route reads raw mail only.
        if (raw !== undefined && raw !== null && !Buffer.isBuffer(raw))
          throw new HttpError(415, 'Send the notification as raw mail (Content-Type: message/rfc822).');
        if (!raw || raw.length === 0)
          return { Matched: false, Hard: 0, Soft: 0, Message: 'Not a delivery status notification.' };
        const dsn = await service.readDsn(raw, req.query.to);
        return service.recordDsn(app.database, dsn);
      },
    });
  });

  app.get('/api/communication/contacts/:id/deliverability', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: "A contact's address as mailings see it: suppressed or not, its hard and soft bounces",
      params: z.object({ id }),
      response: { 200: deliverabilitySchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.contactDeliverability(tx, auth.tenantId, req.params.id);
    },
  });

  app.delete('/api/communication/contacts/:id/suppression', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: "Lifts the suppression of a contact's address (the mailbox works again)",
      params: z.object({ id }),
      response: { 200: deliverabilitySchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const before = await service.contactDeliverability(tx, auth.tenantId, req.params.id);
      if (!before.Email) throw notFound();
      await service.liftSuppression(tx, auth.tenantId, before.Email);
      return service.contactDeliverability(tx, auth.tenantId, req.params.id);
    },
  });
};
