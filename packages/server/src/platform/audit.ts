import { auditLog, type Tx } from '@guildhall/db';
import type { AuthContext } from './context.ts';
import { notFound } from './errors.ts';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Records a change in the caller's tenant, inside the same transaction as the change: who acted (the staff
 * user while impersonating), on whose behalf (the impersonated user), what, when, before and after.
 */
export async function audit(
  tx: Tx,
  auth: Pick<AuthContext, 'tenantId' | 'userId' | 'impersonatorUserId'>,
  entry: AuditEntry,
): Promise<void> {
  await tx.insert(auditLog).values({
    tenantId: auth.tenantId,
    actorUserId: auth.impersonatorUserId ?? auth.userId,
    onBehalfOfUserId: auth.impersonatorUserId ? auth.userId : null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * The end of a create-or-update: the record as it is now (`row`, null when it is gone: a 404), audited as a create
 * when there was nothing `before` and an update otherwise, and answered.
 */
export async function auditedAnswer<T>(
  tx: Tx,
  auth: Pick<AuthContext, 'tenantId' | 'userId' | 'impersonatorUserId'>,
  entity: string,
  entityId: string | number,
  before: unknown,
  after: T | null,
): Promise<T> {
  if (after === null) throw notFound();
  await audit(tx, auth, { action: before ? 'update' : 'create', entity, entityId, before, after });
  return after;
}
