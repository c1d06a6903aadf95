import { auditLog, type Tx } from '@guildhall/db';
import type { AuthContext } from './context.ts';

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
