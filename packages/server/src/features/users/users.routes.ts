import { tenantUsers, users } from '@guildhall/db';
import { FEATURE_FLAGS, type UserRow, userRecordSchema } from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { scope } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { revokeUserSessionsIn } from '../../platform/session.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });
const flagKeys = FEATURE_FLAGS.map((f) => f.key) as [string, ...string[]];

const columns = {
  id: users.id,
  username: users.username,
  email: users.email,
  displayName: users.displayName,
  loginType: users.loginType,
  role: tenantUsers.role,
  /** Active in this association: the person is active and not deactivated here. */
  isActive: sql<boolean>`(${users.isActive} and ${tenantUsers.isActive})`.mapWith(Boolean),
  lastSignInAt: users.lastSignInAt,
  featureFlags: tenantUsers.featureFlags,
};

function present(
  r: { lastSignInAt: Date | null; featureFlags: Record<string, boolean> } & Omit<UserRow, 'lastSignInAt'>,
) {
  const { featureFlags, ...rest } = r;
  const flags: Record<string, boolean> = {};
  for (const f of FEATURE_FLAGS) flags[f.key] = featureFlags[f.key] ?? f.defaultOn;
  return { ...rest, lastSignInAt: r.lastSignInAt?.toISOString() ?? null, featureFlags: flags };
}

/** The users of the caller's association: always read through the tenant's memberships. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  // The list is the users resource's (`GET /api/setup/users`, the Users page embeds the generic list): one way.
  app.get('/api/users/:id', {
    config: { permission: 'users.read', scoped: true },
    schema: {
      tags: ['users'],
      params: idParams,
      response: { 200: userRecordSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const [r] = await tx
        .select(columns)
        .from(tenantUsers)
        .innerJoin(users, eq(users.id, tenantUsers.userId))
        .where(and(eq(tenantUsers.tenantId, auth.tenantId), eq(tenantUsers.userId, req.params.id)));
      if (!r) throw notFound();
      return present(r);
    },
  });

  /**
   * Deactivates or reactivates a person in this association only: deactivated, no session of theirs opens here and
   * the ones open end now (their other associations are untouched); reactivated, they sign in again. Audited.
   */
  for (const active of [false, true]) {
    app.post(`/api/users/:id/${active ? 'reactivate' : 'deactivate'}`, {
      config: { permission: 'users.manage', scoped: true },
      schema: {
        tags: ['users'],
        summary: active
          ? 'Reactivate a user in this association'
          : 'Deactivate a user in this association; their sessions here end',
        params: idParams,
        response: { 200: userRecordSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        if (!active && req.params.id === auth.userId)
          throw new HttpError(400, 'You cannot deactivate yourself. Ask another administrator.');
        if (!active && req.params.id === auth.impersonatorUserId)
          throw new HttpError(400, 'You cannot deactivate yourself. Ask another administrator.');
        const where = and(eq(tenantUsers.tenantId, auth.tenantId), eq(tenantUsers.userId, req.params.id));
        const [before] = await tx.select({ isActive: tenantUsers.isActive }).from(tenantUsers).where(where);
        if (!before) throw notFound();
        if (before.isActive !== active) {
          await tx
            .update(tenantUsers)
            .set({ isActive: active, deactivatedAt: active ? null : new Date() })
            .where(where);
          await audit(tx, auth, {
            action: active ? 'reactivate' : 'deactivate',
            entity: 'user',
            entityId: req.params.id,
            before: { isActive: before.isActive },
            after: { isActive: active },
          });
          // Their sessions here end in the same transaction as the deactivation.
          if (!active) await revokeUserSessionsIn(app.database, auth.tenantId, req.params.id, tx);
        }
        const [r] = await tx
          .select(columns)
          .from(tenantUsers)
          .innerJoin(users, eq(users.id, tenantUsers.userId))
          .where(where);
        if (!r) throw notFound();
        return present(r);
      },
    });
  }

  app.put('/api/users/:id/feature-flags', {
    config: { permission: 'users.manage', scoped: true },
    schema: {
      tags: ['users'],
      params: idParams,
      body: z.strictObject({ flags: z.partialRecord(z.enum(flagKeys), z.boolean()) }),
      response: { 200: z.object({ featureFlags: z.record(z.string(), z.boolean()) }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const where = and(eq(tenantUsers.tenantId, auth.tenantId), eq(tenantUsers.userId, req.params.id));
      const [before] = await tx.select({ flags: tenantUsers.featureFlags }).from(tenantUsers).where(where);
      if (!before) throw notFound();
      const next: Record<string, boolean> = { ...before.flags };
      for (const [key, value] of Object.entries(req.body.flags)) if (value !== undefined) next[key] = value;
      await tx.update(tenantUsers).set({ featureFlags: next }).where(where);
      await audit(tx, auth, {
        action: 'update',
        entity: 'feature_flags',
        entityId: req.params.id,
        before: before.flags,
        after: next,
      });
      const flags: Record<string, boolean> = {};
      for (const f of FEATURE_FLAGS) flags[f.key] = next[f.key] ?? f.defaultOn;
      return { featureFlags: flags };
    },
  });
};
