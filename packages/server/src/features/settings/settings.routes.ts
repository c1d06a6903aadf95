import { tenants } from '@guildhall/db';
import {
  DEFAULT_TENANT_SETTINGS,
  isTimeZone,
  tenantSettingsAnswerSchema,
  tenantSettingsSchema,
} from '@guildhall/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { requireAuth, tenantTx } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';

const settingsBody = z.object({
  name: z.string().trim().min(2, 'The association name has at least 2 characters.').max(200),
  settings: tenantSettingsSchema.refine((s) => isTimeZone(s.defaultTimezone), {
    message: 'Choose a known time zone.',
    path: ['defaultTimezone'],
  }),
});

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/settings/tenant', {
    config: { permission: 'settings.manage' },
    schema: {
      tags: ['settings'],
      summary: "The association's settings",
      response: { 200: tenantSettingsAnswerSchema },
    },
    handler: async (req) => {
      const auth = requireAuth(req.auth);
      const [t] = await tenantTx(app.database, auth, (tx) =>
        tx.select().from(tenants).where(eq(tenants.id, auth.tenantId)),
      );
      if (!t) throw notFound();
      return { name: t.name, settings: { ...DEFAULT_TENANT_SETTINGS, ...t.settings } };
    },
  });

  app.put('/api/settings/tenant', {
    config: { permission: 'settings.manage' },
    schema: { tags: ['settings'], body: settingsBody, response: { 200: tenantSettingsAnswerSchema } },
    handler: async (req) => {
      const auth = requireAuth(req.auth);
      return tenantTx(app.database, auth, async (tx) => {
        const [before] = await tx.select().from(tenants).where(eq(tenants.id, auth.tenantId));
        if (!before) throw notFound();
        // The trial's end is the sign-up's to set, never the form's: it keeps what the association had.
        const { trialEndsAt: _ignored, ...fromForm } = req.body.settings;
        const settings = before.settings.trialEndsAt
          ? { ...fromForm, trialEndsAt: before.settings.trialEndsAt }
          : fromForm;
        const [after] = await tx
          .update(tenants)
          .set({ name: req.body.name, settings })
          .where(eq(tenants.id, auth.tenantId))
          .returning();
        await audit(tx, auth, {
          action: 'update',
          entity: 'tenant',
          entityId: auth.tenantId,
          before: { name: before.name, settings: before.settings },
          after: { name: after?.name, settings: after?.settings },
        });
        return { name: req.body.name, settings };
      });
    },
  });
};
