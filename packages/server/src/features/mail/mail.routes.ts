import { mailOutbox } from '@guildhall/db';
import { outboxMessageSchema, outboxSummarySchema } from '@guildhall/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';

/** The outbox: every message the product sent or kept for this association. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/mail/outbox', {
    config: { permission: 'mail.read', scoped: true },
    schema: { tags: ['mail'], response: { 200: z.array(outboxSummarySchema) } },
    handler: async (req) => {
      const { tx } = scope(req);
      const rows = await tx.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(500);
      return rows.map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        createdAt: m.createdAt.toISOString(),
        sentAt: m.sentAt?.toISOString() ?? null,
      }));
    },
  });
  app.get('/api/mail/outbox/:id', {
    config: { permission: 'mail.read', scoped: true },
    schema: {
      tags: ['mail'],
      params: z.object({ id: z.coerce.number().int().positive() }),
      response: { 200: outboxMessageSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const [m] = await tx
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.tenantId, auth.tenantId), eq(mailOutbox.id, req.params.id)));
      if (!m) throw notFound();
      return {
        id: m.id,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        attachments: m.attachments ?? [],
        createdAt: m.createdAt.toISOString(),
        sentAt: m.sentAt?.toISOString() ?? null,
      };
    },
  });
};
