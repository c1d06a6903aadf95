/**
 * Per-user table settings (column order, visibility, display mode, sort) and widget settings, by screen name.
 * Loading table settings checks the saved sort against the screen's sortable fields: an invalid one is cleared
 * and reported, so the client reloads without it.
 */
import { type Tx, tableSettings, userWidgetSettings } from '@guildhall/db';
import {
  screenNameOf,
  type TableSettings,
  tableSettingsAnswerSchema,
  tableSettingsSchema,
  userWidgetSettingsSchema,
  validateSavedSort,
} from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthContext, scope } from '../context.ts';
import { extraFieldsOf } from './extra-fields.ts';
import type { BoundResource } from './registry.ts';

const screenParams = z.object({ screenName: z.string().min(1).max(200) });

type SettingsTable = typeof tableSettings | typeof userWidgetSettings;

async function load(
  tx: Tx,
  table: SettingsTable,
  auth: AuthContext,
  screenName: string,
): Promise<Record<string, unknown> | null> {
  const [row] = await tx
    .select({ settings: table.settings })
    .from(table)
    .where(
      and(eq(table.tenantId, auth.tenantId), eq(table.userId, auth.userId), eq(table.screenName, screenName)),
    );
  return row?.settings ?? null;
}

async function store(
  tx: Tx,
  table: SettingsTable,
  auth: AuthContext,
  screenName: string,
  settings: Record<string, unknown>,
) {
  await tx
    .insert(table)
    .values({ tenantId: auth.tenantId, userId: auth.userId, screenName, settings })
    .onConflictDoUpdate({
      target: [table.tenantId, table.userId, table.screenName],
      set: { settings, updatedAt: new Date() },
    });
}

export function tableSettingsRoutes(resources: readonly BoundResource[]): FastifyPluginAsyncZod {
  /** The fields a screen's list sorts by: its declaration's, and the tenant's sortable custom fields (decision 0112). */
  const sortableOf = async (
    tx: Tx,
    tenantId: string,
    screenName: string,
  ): Promise<readonly string[] | null> => {
    const bound = resources.find((r) => screenNameOf(r.resource) === screenName);
    if (!bound) return null;
    const extra = await extraFieldsOf(tx, tenantId, bound);
    return [...bound.resource.sortable, ...[...extra.values()].filter((f) => f.sortRuns).map((f) => f.field)];
  };
  return async (app) => {
    app.post('/api/settings/TableSettings', {
      config: { permission: 'authenticated', scoped: true },
      schema: {
        tags: ['settings'],
        summary: 'Saves the table settings of a screen for the caller',
        body: tableSettingsSchema,
        response: { 200: tableSettingsAnswerSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const sortable = await sortableOf(tx, auth.tenantId, req.body.ScreenName);
        const checked = sortable
          ? validateSavedSort(req.body.Sort ?? null, sortable)
          : { sort: req.body.Sort ?? null, reload: false };
        const settings: TableSettings = { ...req.body, Sort: checked.sort };
        await store(tx, tableSettings, auth, req.body.ScreenName, settings);
        return { Settings: settings, InvalidSort: checked.reload };
      },
    });

    app.get('/api/settings/TableSettings/:screenName', {
      config: { permission: 'authenticated', scoped: true },
      schema: {
        tags: ['settings'],
        summary: 'Loads the table settings of a screen for the caller',
        params: screenParams,
        response: { 200: tableSettingsAnswerSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const name = req.params.screenName;
        const raw = await load(tx, tableSettings, auth, name);
        const parsed = tableSettingsSchema.safeParse(raw);
        if (!parsed.success) return { Settings: null, InvalidSort: false };
        const sortable = await sortableOf(tx, auth.tenantId, name);
        const checked = sortable
          ? validateSavedSort(parsed.data.Sort ?? null, sortable)
          : { sort: parsed.data.Sort ?? null, reload: false };
        if (checked.reload) await store(tx, tableSettings, auth, name, { ...parsed.data, Sort: null });
        return { Settings: { ...parsed.data, Sort: checked.sort }, InvalidSort: checked.reload };
      },
    });

    app.post('/api/settings/UserWidgetSettings', {
      config: { permission: 'authenticated', scoped: true },
      schema: {
        tags: ['settings'],
        summary: 'Saves widget settings (dashboard layout and the like) for the caller',
        body: userWidgetSettingsSchema,
        response: { 200: userWidgetSettingsSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        await store(tx, userWidgetSettings, auth, req.body.ScreenName, req.body.Settings);
        return req.body;
      },
    });

    app.get('/api/settings/UserWidgetSettings/:screenName', {
      config: { permission: 'authenticated', scoped: true },
      schema: {
        tags: ['settings'],
        summary: 'Loads widget settings for the caller',
        params: screenParams,
        response: { 200: userWidgetSettingsSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const settings = await load(tx, userWidgetSettings, auth, req.params.screenName);
        return { ScreenName: req.params.screenName, Settings: settings ?? {} };
      },
    });
  };
}
