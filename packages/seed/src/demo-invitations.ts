/**
 * The demo association's pending users: two colleagues invited by the demo administrator who have not accepted yet,
 * one whose link still works and one whose link has expired (Resend renews it). Their links' tokens are random and
 * never shown: the demo shows the users list's pending rows with Resend and Revoke, not a usable link.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Db, invitationTokens, staffInvitations, tenantUsers, withTenantTx } from '@guildhall/db';
import { createUser } from '@guildhall/db/seed/factories';
import { INVITATION_DAYS } from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';

const DAY = 86_400_000;

const INVITED = [
  {
    email: 'rosa.alvarez@demo-association.example.org',
    displayName: 'Rosa Alvarez',
    role: 'staff',
    sentDaysAgo: 2,
  },
  {
    email: 'tom.becker@demo-association.example.org',
    displayName: 'Tom Becker',
    role: 'admin',
    sentDaysAgo: 12,
  },
] as const;

export async function seedDemoInvitations(db: Db, tenantId: string, invitedBy: number): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    for (const i of INVITED) {
      const sentAt = new Date(Date.now() - i.sentDaysAgo * DAY);
      const expiresAt = new Date(sentAt.getTime() + INVITATION_DAYS * DAY);
      const [row] = await tx
        .insert(staffInvitations)
        .values({
          tenantId,
          email: i.email,
          displayName: i.displayName,
          role: i.role,
          invitedBy,
          sentAt,
          expiresAt,
          createdAt: sentAt,
        })
        .returning({ id: staffInvitations.invitationId });
      if (!row) throw new Error('invitation insert returned nothing');
      const tokenHash = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('hex');
      await tx
        .insert(invitationTokens)
        .values({ tokenHash, tenantId, invitationId: Number(row.id), expiresAt, createdAt: sentAt });
    }
  });
}

/**
 * A former colleague: a staff user the association deactivated when they left (the users list shows them Inactive
 * with Reactivate). Their password is random: nobody signs in as them.
 */
export async function seedDemoFormerColleague(db: Db, tenantId: string): Promise<void> {
  const left = await createUser(db, {
    tenantId,
    username: 'greg.holloway',
    password: randomBytes(24).toString('base64url'),
    role: 'staff',
    displayName: 'Greg Holloway',
    email: 'greg.holloway@demo-association.example.org',
  });
  await withTenantTx(db, { tenantId }, (tx) =>
    tx
      .update(tenantUsers)
      .set({ isActive: false, deactivatedAt: new Date(Date.now() - 40 * DAY) })
      .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, left.id))),
  );
}
