/**
 * Mailings: drafts, preview as a recipient, test send, send now or later, cancel, the per-recipient log, a
 * contact's communication history, and the recipient's own pages: one-click unsubscribe (RFC 8058) and email
 * preferences. Thin: each calls mailings.service.ts.
 */
import {
  audienceCountSchema,
  audienceOptionsSchema,
  mailingAudienceSchema,
  mailingInputSchema,
  mailingSchema,
  mailingSummarySchema,
  ONE_CLICK_BODY,
  previewAnswerSchema,
  previewSchema,
  recipientLogSchema,
  sendMailingSchema,
  validateEmailAddress,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import * as service from './mailings.service.ts';
import { escapeHtml } from './render.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParams = z.object({ id });
const tokenParams = z.object({ tenantId: z.string().max(64), token: z.string().max(64) });

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,Arial,sans-serif;background:#f1f3f5;margin:0;padding:40px 16px;color:#212529}main{max-width:520px;margin:0 auto;background:#fff;border-radius:8px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.1)}h1{font-size:22px;margin-top:0}button{font:inherit;padding:10px 18px;border-radius:6px;border:0;background:#1c7ed6;color:#fff;cursor:pointer}button.secondary{background:#e9ecef;color:#212529}</style></head><body><main>${body}</main></body></html>`;
}

export const mailingsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(async (scoped) => {
    const forms = scoped.withTypeProvider<ZodTypeProvider>();
    // The preferences page posts a plain HTML form; one-click unsubscribe posts `List-Unsubscribe=One-Click`.
    scoped.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    forms.post('/api/communication/unsubscribe/:tenantId/:token', {
      config: { permission: 'public' },
      schema: {
        tags: ['communications'],
        summary: 'One-click unsubscribe (RFC 8058): the List-Unsubscribe address of every mailing',
        params: tokenParams,
      },
      handler: async (req, reply) => {
        const ok = await service.setSubscribed(app.database, req.params.tenantId, req.params.token, false);
        if (!ok) return reply.code(404).send({ message: 'This link is not valid.' });
        const body = (req.body ?? {}) as Record<string, string>;
        if (body['List-Unsubscribe'] === ONE_CLICK_BODY.split('=')[1]) return { ok: true };
        reply.type('text/html; charset=utf-8');
        return page(
          'Unsubscribed',
          '<h1>You are unsubscribed</h1><p>You will receive no more mailings from us.</p>',
        );
      },
    });

    forms.get('/api/communication/unsubscribe/:tenantId/:token', {
      config: { permission: 'public' },
      schema: {
        tags: ['communications'],
        summary: 'The unsubscribe address opened in a browser',
        params: tokenParams,
      },
      handler: async (req, reply) => {
        reply.redirect(`/email/preferences/${req.params.tenantId}/${req.params.token}`, 303);
      },
    });

    forms.get('/email/preferences/:tenantId/:token', {
      config: { permission: 'public' },
      schema: {
        tags: ['communications'],
        summary: "A recipient's email preferences page",
        params: tokenParams,
      },
      handler: async (req, reply) => {
        const p = await service.preferences(app.database, req.params.tenantId, req.params.token);
        reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store');
        if (!p) return reply.code(404).send(page('Not found', '<h1>This link is not valid</h1>'));
        const action = `/email/preferences/${escapeHtml(req.params.tenantId)}/${escapeHtml(req.params.token)}`;
        return page(
          'Email preferences',
          `<h1>Email preferences</h1><p>Mailings from <strong>${escapeHtml(p.Association)}</strong> to <strong>${escapeHtml(p.Email)}</strong>.</p>
<p id="state">${p.Subscribed ? 'You receive our mailings.' : 'You are unsubscribed: you receive no mailings from us.'}</p>
<form method="post" action="${action}"><input type="hidden" name="subscribed" value="${p.Subscribed ? 'false' : 'true'}">
<button type="submit" class="${p.Subscribed ? 'secondary' : ''}">${p.Subscribed ? 'Unsubscribe from all mailings' : 'Subscribe again'}</button></form>
<p style="font-size:13px;color:#868e96;margin-top:24px">Messages about your own membership, payments and registrations are still sent.</p>`,
        );
      },
    });

    forms.post('/email/preferences/:tenantId/:token', {
      config: { permission: 'public' },
      schema: { tags: ['communications'], params: tokenParams },
      handler: async (req, reply) => {
        const body = (req.body ?? {}) as Record<string, string>;
        const ok = await service.setSubscribed(
          app.database,
          req.params.tenantId,
          req.params.token,
          body.subscribed === 'true',
        );
        if (!ok)
          return reply
            .code(404)
            .type('text/html; charset=utf-8')
            .send(page('Not found', '<h1>This link is not valid</h1>'));
        return reply.redirect(`/email/preferences/${req.params.tenantId}/${req.params.token}`, 303);
      },
    });
  });

  app.get('/api/communication/mailings', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], response: { 200: z.array(mailingSummarySchema) } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.listMailings(tx, auth);
    },
  });
  app.post('/api/communication/mailings', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], body: mailingInputSchema, response: { 201: mailingSchema } },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      reply.code(201);
      return service.createMailing(tx, auth, req.body);
    },
  });
  app.get('/api/communication/mailings/audience-options', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'The membership types, levels and events a membership or event audience is chosen from',
      response: { 200: audienceOptionsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.audienceOptions(tx, auth.tenantId);
    },
  });
  app.post('/api/communication/mailings/audience-count', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary:
        'How many people an audience reaches now: the addresses it would be sent to, the suppressed ones and those without an address',
      body: z.object({ Audience: mailingAudienceSchema }),
      response: { 200: audienceCountSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.audienceCount(tx, app.services, auth.tenantId, req.body.Audience);
    },
  });
  app.get('/api/communication/mailings/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: mailingSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.getMailing(tx, auth, req.params.id);
    },
  });
  app.put('/api/communication/mailings/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      params: idParams,
      body: mailingInputSchema,
      response: { 200: mailingSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.updateMailing(tx, auth, req.params.id, req.body);
    },
  });
  app.post('/api/communication/mailings/:id/preview', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'The mailing as one recipient (a contact) would receive it',
      params: idParams,
      body: previewSchema,
      response: { 200: previewAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.previewMailing(
        tx,
        auth,
        app.config.publicUrl,
        req.params.id,
        req.body.ContactId ?? null,
      );
    },
  });
  app.post('/api/communication/mailings/:id/test', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'Sends the mailing to the given address (yours), as the chosen contact would receive it',
      params: idParams,
      body: z.object({
        To: z.string().max(320),
        ContactId: z.number().int().positive().nullable().optional(),
      }),
      response: { 200: z.object({ message: z.string() }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const check = validateEmailAddress(req.body.To);
      if (!check.Valid) throw badRequest(check.ErrorMessages.join(', '), { To: check.ErrorMessages });
      const preview = await service.previewMailing(
        tx,
        auth,
        app.config.publicUrl,
        req.params.id,
        req.body.ContactId ?? null,
      );
      const message = {
        to: req.body.To,
        subject: `[Test] ${preview.Subject}`,
        html: preview.Html,
        text: service.textOf(preview.Html),
      };
      // Without SMTP the message goes to the outbox in a transaction of its own, which must not wait for this
      // request's (the embedded database has one connection): it is kept after the answer.
      if (!app.config.smtpUrl) {
        app.background.run('mailing test', () => app.services.mailer.deliver(auth.tenantId, message));
        return { message: `We sent a test message to ${req.body.To}.` };
      }
      const result = await app.services.mailer.deliver(auth.tenantId, message);
      if (!result.ok) throw badRequest(`The test message was not accepted: ${result.message}`);
      return { message: `We sent a test message to ${req.body.To}.` };
    },
  });
  app.post('/api/communication/mailings/:id/send', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'Sends the mailing now, or at ScheduledAt; its recipients are fixed when the send starts',
      params: idParams,
      body: sendMailingSchema,
      response: { 200: mailingSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const at = req.body.ScheduledAt ? new Date(req.body.ScheduledAt) : null;
      return service.sendMailing(tx, auth, app.services, req.params.id, at);
    },
  });
  app.post('/api/communication/mailings/:id/cancel', {
    config: { permission: 'backoffice', scoped: true },
    schema: { tags: ['communications'], params: idParams, response: { 200: mailingSchema } },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.cancelMailing(tx, auth, req.params.id);
    },
  });
  app.get('/api/communication/mailings/:id/recipients', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: 'The delivery log of a mailing: one row per recipient (200 a page)',
      params: idParams,
      querystring: z.object({ skip: z.coerce.number().int().min(0).max(10_000_000).optional() }),
      response: { 200: z.array(recipientLogSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.recipientLog(tx, auth.tenantId, { mailingId: req.params.id }, req.query.skip ?? 0);
    },
  });
  app.get('/api/communication/contacts/:id/history', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['communications'],
      summary: "A contact's communication history: every message sent to them, newest first",
      params: idParams,
      response: { 200: z.array(recipientLogSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.recipientLog(tx, auth.tenantId, { contactId: req.params.id });
    },
  });
};
