import { membershipLevels, membershipTypes, type Tx } from '@guildhall/db';
import { tenantProvisionedPayload } from '@guildhall/shared';
import { eq } from 'drizzle-orm';
import type { EventSubscriber } from '../../platform/services.ts';

/**
 * `tenant.provisioned` (decision 0160): a new association starts with one membership type and its level, so that
 * the join wizard and the memberships list have something to show before staff set their own up. Nothing is
 * written when the association already has a type.
 */
export const provisionDefaultMembership: EventSubscriber = async (tx: Tx, tenantId, payload) => {
  const p = tenantProvisionedPayload.parse(payload);
  if (p.tenantId !== tenantId) throw new Error('tenant.provisioned names another association');
  const [existing] = await tx
    .select({ id: membershipTypes.membershipTypeId })
    .from(membershipTypes)
    .where(eq(membershipTypes.tenantId, tenantId))
    .limit(1);
  if (existing) return;
  const [type] = await tx
    .insert(membershipTypes)
    .values({
      tenantId,
      name: 'Individual membership',
      description:
        'One person, for a year from the day they join. Rename it, price it and add others in Setup.',
      termKind: 'anniversary',
      durationMonths: 12,
      graceDays: 30,
      renewalDaysBefore: 30,
    })
    .returning({ id: membershipTypes.membershipTypeId });
  if (!type) throw new Error('membership type insert returned nothing');
  await tx
    .insert(membershipLevels)
    .values({ tenantId, membershipTypeId: type.id, name: 'Standard', sortOrder: 1 });
};
