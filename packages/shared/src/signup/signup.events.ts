import { z } from 'zod';

/**
 * Published by the sign-up feature when CompleteSignup has made a new association, inside the transaction that made
 * it (decision 0110). Features that give a new association its defaults subscribe to it: billing its revenue accounts
 * and tax set, memberships its first membership type and level. A subscriber that throws rolls the whole sign-up
 * back, so it refuses only what is truly wrong; it must also be safe to run on an association that already has its
 * defaults (it never runs twice for one association, but a subscriber added later may meet older ones).
 */
export const TENANT_PROVISIONED = 'tenant.provisioned';

/** Payload of `tenant.provisioned`: ids, not records. */
export const tenantProvisionedPayload = z.object({
  tenantId: z.uuid(),
  /** The association's first administrator (users.id), the actor of whatever the subscribers write. */
  administratorUserId: z.number().int().positive(),
});
export type TenantProvisionedPayload = z.infer<typeof tenantProvisionedPayload>;
