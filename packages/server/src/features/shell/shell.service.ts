import { type Database, helpTexts, statusMessages, tenantUsers } from '@guildhall/db';
import type { HelpText, Maintenance, Status } from '@guildhall/shared';
import * as shared from '@guildhall/shared';
import {
  defaultHelpTexts,
  type HelpTextSeed,
  isResource,
  resourceTooltips,
  tooltipStateName,
} from '@guildhall/shared';
import { and, eq, like } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import { type AuthContext, tenantTx } from '../../platform/context.ts';

/** The status banner counts as acknowledged once the user opened it after its last update (spec 000 section 4). */
export async function getStatus(database: Database, auth: AuthContext): Promise<Status> {
  return tenantTx(database, auth, async (tx) => {
    const [row] = await tx
      .select()
      .from(statusMessages)
      .where(and(eq(statusMessages.tenantId, auth.tenantId), eq(statusMessages.kind, 'status')));
    const [m] = await tx
      .select({ openedAt: tenantUsers.statusOpenedAt })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, auth.tenantId), eq(tenantUsers.userId, auth.userId)));
    if (!row?.message)
      return {
        Message: '',
        Level: 'info',
        UpdatedAt: row?.updatedAt.toISOString() ?? null,
        Acknowledged: true,
      };
    return {
      Message: row.message,
      Level: row.level,
      UpdatedAt: row.updatedAt.toISOString(),
      Acknowledged: Boolean(m?.openedAt && m.openedAt >= row.updatedAt),
    };
  });
}

export async function openStatus(database: Database, auth: AuthContext): Promise<Status> {
  await tenantTx(database, auth, (tx) =>
    tx
      .update(tenantUsers)
      .set({ statusOpenedAt: new Date() })
      .where(and(eq(tenantUsers.tenantId, auth.tenantId), eq(tenantUsers.userId, auth.userId))),
  );
  return getStatus(database, auth);
}

export async function setStatus(
  database: Database,
  auth: AuthContext,
  input: { Message: string; Level: 'info' | 'warning' | 'critical' },
): Promise<Status> {
  await upsertMessage(database, auth, 'status', { message: input.Message, level: input.Level });
  return getStatus(database, auth);
}

export async function getMaintenance(database: Database, auth: AuthContext): Promise<Maintenance> {
  return tenantTx(database, auth, async (tx) => {
    const [row] = await tx
      .select()
      .from(statusMessages)
      .where(and(eq(statusMessages.tenantId, auth.tenantId), eq(statusMessages.kind, 'maintenance')));
    return {
      Message: row?.message ?? '',
      StartsAt: row?.startsAt?.toISOString() ?? null,
      EndsAt: row?.endsAt?.toISOString() ?? null,
    };
  });
}

export async function setMaintenance(
  database: Database,
  auth: AuthContext,
  input: { Message: string; StartsAt: string | null; EndsAt: string | null },
): Promise<Maintenance> {
  await upsertMessage(database, auth, 'maintenance', {
    message: input.Message,
    startsAt: input.StartsAt ? new Date(input.StartsAt) : null,
    endsAt: input.EndsAt ? new Date(input.EndsAt) : null,
  });
  return getMaintenance(database, auth);
}

async function upsertMessage(
  database: Database,
  auth: AuthContext,
  kind: 'status' | 'maintenance',
  values: {
    message: string;
    level?: 'info' | 'warning' | 'critical';
    startsAt?: Date | null;
    endsAt?: Date | null;
  },
): Promise<void> {
  await tenantTx(database, auth, async (tx) => {
    const [before] = await tx
      .select()
      .from(statusMessages)
      .where(and(eq(statusMessages.tenantId, auth.tenantId), eq(statusMessages.kind, kind)));
    const row = { ...values, updatedAt: new Date() };
    await tx
      .insert(statusMessages)
      .values({ tenantId: auth.tenantId, kind, ...row })
      .onConflictDoUpdate({ target: [statusMessages.tenantId, statusMessages.kind], set: row });
    await audit(tx, auth, {
      action: before ? 'update' : 'create',
      entity: 'status_message',
      entityId: kind,
      before,
      after: row,
    });
  });
}

export async function getHelp(database: Database, auth: AuthContext, stateName: string): Promise<HelpText> {
  return tenantTx(database, auth, async (tx) => {
    const [row] = await tx
      .select()
      .from(helpTexts)
      .where(and(eq(helpTexts.tenantId, auth.tenantId), eq(helpTexts.stateName, stateName)));
    // An association that has not written a screen's text yet reads the product's own.
    const fallback = row ? undefined : defaultHelpText(stateName);
    return {
      StateName: stateName,
      Title: row?.title ?? fallback?.title ?? '',
      Content: row?.content ?? fallback?.content ?? '',
    };
  });
}

/** The tooltips of a resource's fields (the association's help texts over the declared ones); null for no such resource. */
export async function getTooltips(
  database: Database,
  auth: AuthContext,
  resourceName: string,
): Promise<Record<string, string> | null> {
  const resource = allResources().find((r) => r.name === resourceName);
  if (!resource) return null;
  const prefix = tooltipStateName(resource, '');
  return tenantTx(database, auth, async (tx) => {
    const rows = await tx
      .select({ stateName: helpTexts.stateName, content: helpTexts.content })
      .from(helpTexts)
      .where(and(eq(helpTexts.tenantId, auth.tenantId), like(helpTexts.stateName, `${prefix}%`)));
    return resourceTooltips(resource, new Map(rows.map((r) => [r.stateName, r.content])));
  });
}

function allResources() {
  return Object.values(shared as Record<string, unknown>).flatMap((v) => (isResource(v) ? [v] : []));
}

let defaults: Map<string, HelpTextSeed> | null = null;
/** The text every association starts with for a screen (Setup > Help texts changes it). */
function defaultHelpText(stateName: string): HelpTextSeed | undefined {
  defaults ??= new Map(defaultHelpTexts(allResources()).map((t) => [t.stateName, t]));
  return defaults.get(stateName);
}
