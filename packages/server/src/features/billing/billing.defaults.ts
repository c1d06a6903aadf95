import { type Tx, taxSets } from '@guildhall/db';
import { tenantProvisionedPayload } from '@guildhall/shared';
import { eq } from 'drizzle-orm';
import type { EventSubscriber } from '../../platform/services.ts';
import { accountsOf } from './ledger.ts';

/**
 * `tenant.provisioned` (decision 0160): a new association starts with the default chart of accounts (its revenue
 * accounts among them) and a tax set of no tax, so its first invoice needs no setup. Nothing is written twice.
 */
export const provisionDefaultBilling: EventSubscriber = async (tx: Tx, tenantId, payload) => {
  const p = tenantProvisionedPayload.parse(payload);
  if (p.tenantId !== tenantId) throw new Error('tenant.provisioned names another association');
  await accountsOf(tx, tenantId);
  const [existing] = await tx
    .select({ id: taxSets.taxSetId })
    .from(taxSets)
    .where(eq(taxSets.tenantId, tenantId))
    .limit(1);
  if (!existing) await tx.insert(taxSets).values({ tenantId, name: 'No tax', rate: '0' });
};
