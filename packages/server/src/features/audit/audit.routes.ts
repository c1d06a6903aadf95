import { rowsOf } from '@guildhall/db';
import { auditEntrySchema } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/audit', {
    config: { permission: 'audit.read', scoped: true },
    schema: {
      tags: ['audit'],
      querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }),
      response: { 200: z.array(auditEntrySchema) },
    },
    handler: async (req) => {
      const { tx } = scope(req);
      const rows = rowsOf<{
        id: string | number;
        at: string | Date;
        actor: string | null;
        behalf: string | null;
        action: string;
        entity: string;
        entity_id: string | null;
        before: unknown;
        after: unknown;
      }>(
        await tx.execute(sql`
            select a.id, a.at, ua.username as actor, ub.username as behalf, a.action, a.entity, a.entity_id, a.before, a.after
              from audit_log a
              left join users ua on ua.id = a.actor_user_id
              left join users ub on ub.id = a.on_behalf_of_user_id
             order by a.id desc limit ${req.query.limit}`),
      );
      return rows.map((r) => ({
        id: Number(r.id),
        at: new Date(r.at).toISOString(),
        actorUsername: r.actor,
        onBehalfOfUsername: r.behalf,
        action: r.action,
        entity: r.entity,
        entityId: r.entity_id,
        before: r.before,
        after: r.after,
      }));
    },
  });
};
