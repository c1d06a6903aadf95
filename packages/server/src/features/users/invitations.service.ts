/**
 * Staff invitations (issue 19; spec 000 section 4: a pending user shows a Resend link). An administrator invites a
 * colleague by email with a role. The mail carries a link whose token is stored only as its SHA-256, works once and
 * expires after INVITATION_DAYS; the outbox keeps the mail without it. Resend makes a new token and spends the old
 * ones, Revoke spends them for good. Accepting makes a new account, or adds the association to the account the
 * invitee signs in with, in one transaction with the token's spending: a refused form leaves the link usable.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hashSecret, type Tx, verifySecret, withTenantTx } from '@guildhall/db';
import {
  type AcceptInvitationBody,
  INVITABLE_ROLE_LABELS,
  INVITATION_DAYS,
  INVITATION_MESSAGES,
  type InvitationInfo,
  type InvitationRow,
  type InviteBody,
  isEmailSyntax,
  staffInvitationMail,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { communicationsApi } from '../communications/communications.module.ts';
import * as repo from './invitations.repo.ts';

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

const expiry = () => new Date(Date.now() + INVITATION_DAYS * 86_400_000);

function linkOf(services: Services, token: string): string {
  return `${services.config.publicUrl.replace(/\/$/, '')}/invitation?token=${token}`;
}

/** Makes a new token for the invitation (in the caller's transaction) and answers it. */
async function newToken(tx: Parameters<typeof repo.storeToken>[0], tenantId: string, invitationId: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = expiry();
  await repo.storeToken(tx, { tokenHash: sha256(token), tenantId, invitationId, expiresAt });
  return { token, expiresAt };
}

async function mail(
  services: Services,
  tenantId: string,
  invitation: { email: string; displayName: string; role: 'admin' | 'staff' },
  inviterName: string,
  associationName: string,
  token: string,
): Promise<void> {
  await communicationsApi.sendSystemMail(services, tenantId, staffInvitationMail, {
    to: invitation.email,
    values: {
      'Invitation.DisplayName': invitation.displayName || null,
      'Invitation.InviterName': inviterName,
      'Invitation.Role': INVITABLE_ROLE_LABELS[invitation.role].toLowerCase(),
      'Invitation.Days': String(INVITATION_DAYS),
      'Invitation.Link': linkOf(services, token),
      'Association.Name': associationName,
    },
    secrets: [token],
  });
}

async function inviter(tx: Parameters<typeof repo.tenantName>[0], auth: AuthContext) {
  return {
    associationName: (await repo.tenantName(tx, auth.tenantId)) ?? 'the association',
    inviterName: (await repo.userName(tx, auth.impersonatorUserId ?? auth.userId)) ?? 'An administrator',
  };
}

export async function listInvitations(tx: Tx, auth: AuthContext): Promise<InvitationRow[]> {
  const rows = await repo.listPending(tx, auth.tenantId);
  const now = Date.now();
  return rows.map((r) => ({
    invitationId: Number(r.invitationId),
    email: r.email,
    displayName: r.displayName,
    role: r.role,
    invitedByName: r.invitedByName ?? null,
    sentAt: r.sentAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    expired: r.expiresAt.getTime() <= now,
    sendCount: Number(r.sendCount),
  }));
}

export async function invite(
  services: Services,
  auth: AuthContext,
  input: InviteBody,
): Promise<{ message: string; invitationId: number }> {
  const email = input.Email.trim();
  if (!isEmailSyntax(email))
    throw new HttpError(400, 'Enter a valid email address.', { Email: ['Enter a valid email address.'] });
  const displayName = (input.DisplayName ?? '').trim();
  const done = await withTenantTx(
    services.database.db,
    { tenantId: auth.tenantId, userId: auth.userId },
    async (tx) => {
      if (await repo.memberWithEmail(tx, auth.tenantId, email))
        throw new HttpError(409, INVITATION_MESSAGES.alreadyUser, {
          Email: [INVITATION_MESSAGES.alreadyUser],
        });
      if (await repo.pendingWithEmail(tx, auth.tenantId, email))
        throw new HttpError(409, INVITATION_MESSAGES.alreadyInvited, {
          Email: [INVITATION_MESSAGES.alreadyInvited],
        });
      const expiresAt = expiry();
      const row = await repo.insertInvitation(tx, {
        tenantId: auth.tenantId,
        email,
        displayName,
        role: input.Role,
        invitedBy: auth.impersonatorUserId ?? auth.userId,
        expiresAt,
      });
      const invitationId = Number(row.invitationId);
      const { token } = await newToken(tx, auth.tenantId, invitationId);
      await audit(tx, auth, {
        action: 'invite',
        entity: 'invitation',
        entityId: invitationId,
        after: { email, displayName, role: input.Role },
      });
      return { invitationId, token, ...(await inviter(tx, auth)) };
    },
  ).catch(rethrowDuplicate);
  await mail(
    services,
    auth.tenantId,
    { email, displayName, role: input.Role },
    done.inviterName,
    done.associationName,
    done.token,
  );
  return { message: INVITATION_MESSAGES.sent, invitationId: done.invitationId };
}

/** Resend: a new link, valid INVITATION_DAYS again; every earlier link of the invitation stops working. */
export async function resend(services: Services, auth: AuthContext, invitationId: number) {
  const done = await withTenantTx(
    services.database.db,
    { tenantId: auth.tenantId, userId: auth.userId },
    async (tx) => {
      const row = await repo.lockInvitation(tx, auth.tenantId, invitationId);
      if (!row) throw notFound();
      if (row.status !== 'pending') throw new HttpError(409, INVITATION_MESSAGES.notPending);
      await repo.spendTokens(tx, auth.tenantId, invitationId);
      const { token, expiresAt } = await newToken(tx, auth.tenantId, invitationId);
      await repo.markSent(tx, auth.tenantId, invitationId, expiresAt);
      await audit(tx, auth, { action: 'invite-resend', entity: 'invitation', entityId: invitationId });
      return { row, token, ...(await inviter(tx, auth)) };
    },
  );
  await mail(services, auth.tenantId, done.row, done.inviterName, done.associationName, done.token);
  return { message: INVITATION_MESSAGES.resent };
}

export async function revoke(tx: Tx, auth: AuthContext, invitationId: number) {
  const row = await repo.lockInvitation(tx, auth.tenantId, invitationId);
  if (!row) throw notFound();
  if (row.status !== 'pending') throw new HttpError(409, INVITATION_MESSAGES.notPending);
  await repo.spendTokens(tx, auth.tenantId, invitationId);
  await repo.setStatus(tx, auth.tenantId, invitationId, { status: 'revoked', revokedAt: new Date() });
  await audit(tx, auth, {
    action: 'invite-revoke',
    entity: 'invitation',
    entityId: invitationId,
    before: { email: row.email, role: row.role },
  });
  return { message: INVITATION_MESSAGES.revoked };
}

const INVALID: InvitationInfo = {
  Valid: false,
  Email: null,
  DisplayName: null,
  AssociationName: null,
  Role: null,
  HasAccount: false,
};

/** What the accept page shows for a link: nothing but Valid false for a used, expired, revoked or unknown one. */
export async function readByToken(services: Services, token: string): Promise<InvitationInfo> {
  const live = await repo.liveToken(services.database, sha256(token));
  if (!live) return INVALID;
  return withTenantTx(services.database.db, { tenantId: live.tenantId }, async (tx) => {
    const row = await repo.lockInvitation(tx, live.tenantId, Number(live.invitationId));
    if (row?.status !== 'pending') return INVALID;
    return {
      Valid: true,
      Email: row.email,
      DisplayName: row.displayName || null,
      AssociationName: (await repo.tenantName(tx, live.tenantId)) ?? null,
      Role: row.role,
      HasAccount: Boolean(await repo.accountWithEmail(tx, row.email)),
    };
  });
}

/**
 * Accepts an invitation: a new account (username, name, password) or the invitee's account of another association
 * (username and password). The token is spent in the same transaction as the membership is written.
 */
export async function accept(services: Services, input: AcceptInvitationBody): Promise<{ message: string }> {
  const tokenHash = sha256(input.Token);
  const invalid = () =>
    new HttpError(400, INVITATION_MESSAGES.linkInvalid, { Token: [INVITATION_MESSAGES.linkInvalid] });
  const live = await repo.liveToken(services.database, tokenHash);
  if (!live) throw invalid();
  const tenantId = live.tenantId;
  const invitationId = Number(live.invitationId);
  // Hashing is slow on purpose: done before the transaction.
  const passwordHash = 'NewPassword' in input ? await hashSecret(input.NewPassword) : null;
  const result = await withTenantTx(services.database.db, { tenantId }, async (tx) => {
    const row = await repo.lockInvitation(tx, tenantId, invitationId);
    if (row?.status !== 'pending') throw invalid();
    let userId: number;
    let joined = false;
    if ('NewPassword' in input) {
      if (await repo.findUserNamed(tx, input.NewUsername))
        throw new HttpError(400, INVITATION_MESSAGES.usernameTaken, {
          NewUsername: [INVITATION_MESSAGES.usernameTaken],
        });
      userId = await repo.insertUser(tx, {
        username: input.NewUsername,
        email: row.email,
        displayName: input.DisplayName,
        passwordHash: passwordHash ?? '',
      });
    } else {
      const user = await repo.findUserNamed(tx, input.Username.trim());
      const ok = user?.isActive ? await verifySecret(user.passwordHash, input.Password) : false;
      if (!user || !ok)
        throw new HttpError(400, INVITATION_MESSAGES.badCredentials, {
          Password: [INVITATION_MESSAGES.badCredentials],
        });
      userId = user.id;
      joined = true;
    }
    // Spent here, after every refusal above: a refused form leaves the link usable; two at once, one wins.
    if (!(await repo.spendToken(tx, tokenHash))) throw invalid();
    await repo.spendTokens(tx, tenantId, invitationId);
    if (!(await repo.isMember(tx, tenantId, userId)))
      await repo.addMembership(tx, tenantId, userId, row.role);
    await repo.setStatus(tx, tenantId, invitationId, {
      status: 'accepted',
      acceptedAt: new Date(),
      acceptedUserId: userId,
    });
    const scope = { tenantId, userId, impersonatorUserId: null };
    await audit(tx, scope, {
      action: 'invite-accept',
      entity: 'invitation',
      entityId: invitationId,
      after: { userId, role: row.role, existingAccount: joined },
    });
    return { joined };
  }).catch(rethrowDuplicate);
  return { message: result.joined ? INVITATION_MESSAGES.joined : INVITATION_MESSAGES.accepted };
}

function rethrowDuplicate(e: unknown): never {
  for (let c: unknown = e; c && typeof c === 'object'; c = (c as { cause?: unknown }).cause) {
    const pg = c as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
    if (pg.code === '23505') {
      const name = String(pg.constraint ?? pg.constraint_name ?? '');
      if (name.includes('staff_invitations'))
        throw new HttpError(409, INVITATION_MESSAGES.alreadyInvited, {
          Email: [INVITATION_MESSAGES.alreadyInvited],
        });
      throw new HttpError(400, INVITATION_MESSAGES.usernameTaken, {
        NewUsername: [INVITATION_MESSAGES.usernameTaken],
      });
    }
  }
  throw e;
}
