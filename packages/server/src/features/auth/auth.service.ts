import { createHash, randomBytes } from 'node:crypto';
import { type Database, decoyHash, hashSecret, verifySecret, withTenantTx } from '@guildhall/db';
import {
  type Association,
  DEFAULT_TENANT_SETTINGS,
  FEATURE_FLAGS,
  LOGIN_TYPE_IDS,
  MESSAGES,
  type Me,
  passwordResetMail,
  ROLE_PERMISSIONS,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import type { Background } from '../../platform/background.ts';
import type { AppConfig } from '../../platform/config.ts';
import { type AuthContext, scopeOf } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mailer.ts';
import {
  createSession,
  revokeSession,
  revokeUserSessions,
  type SessionTicket,
  sessionExpiry,
} from '../../platform/session.ts';
import { communicationsApi } from '../communications/communications.module.ts';
import * as repo from './auth.repo.ts';

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/** Identity answer of GET /api/auth/me, built inside the caller's tenant. */
export async function buildMe(
  database: Database,
  auth: Pick<AuthContext, 'tenantId' | 'userId' | 'impersonatorUserId'>,
): Promise<Me> {
  return withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, async (tx) => {
    const row = await repo.loadIdentity(tx, auth.tenantId, auth.userId);
    if (!row) throw new HttpError(401, MESSAGES.notSignedIn);
    const { user, tenant, membership } = row;
    const impersonator = auth.impersonatorUserId
      ? await repo.getUser(tx, auth.impersonatorUserId)
      : undefined;
    const impersonating = Boolean(impersonator);
    const terms = impersonating ? [] : await repo.pendingTerms(tx, tenant.id, user.id, user.loginType);
    const privacyPolicy = impersonating
      ? null
      : await repo.pendingPrivacyPolicy(tx, tenant.id, user.id, tenant.settings as Record<string, unknown>);
    const featureFlags: Record<string, boolean> = {};
    for (const f of FEATURE_FLAGS) featureFlags[f.key] = membership.featureFlags[f.key] ?? f.defaultOn;
    return {
      user: {
        id: user.id,
        username: user.username,
        email: user.email,
        displayName: user.displayName,
        loginType: user.loginType,
        timeZone: user.timeZone ?? null,
      },
      tenant: {
        id: tenant.id,
        name: tenant.name,
        slug: tenant.slug,
        settings: { ...DEFAULT_TENANT_SETTINGS, ...tenant.settings },
      },
      area: membership.role === 'member' ? 'member' : 'backoffice',
      role: membership.role,
      permissions: [...ROLE_PERMISSIONS[membership.role]],
      featureFlags,
      uiVersion: user.uiVersion,
      pendingPrompts: {
        terms: terms.map((t) => ({
          TermsOfUseId: t.id,
          LoginType: t.loginType,
          UserLoginTypeId: LOGIN_TYPE_IDS[t.loginType],
          Title: t.title,
          Description: t.description,
          PublishedAt: t.publishedAt.toISOString(),
        })),
        // Security prompts are skipped while impersonating (spec 000 section 6).
        securityQuestion: !impersonating && user.securityQuestionId == null,
        passwordReset: !impersonating && user.isRequirePasswordReset,
        usernameChange: !impersonating && user.mustChangeUsername,
        privacyPolicy,
      },
      impersonation: impersonator
        ? {
            impersonator: {
              id: impersonator.id,
              username: impersonator.username,
              displayName: impersonator.displayName,
            },
          }
        : null,
    };
  });
}

/** Verifies credentials (throttled per username and address) and opens a session. */
export async function login(
  database: Database,
  config: AppConfig,
  input: { username: string; password: string },
  client: ClientInfo,
): Promise<{ session: SessionTicket; me: Me }> {
  const key = input.username.trim().toLowerCase();
  const attempt = await repo.beginAttempt(database, key, client.ip);
  if (attempt.retryAfterSeconds !== null) {
    await repo.dropAttempt(database, attempt.id);
    throw new HttpError(429, MESSAGES.throttled, undefined, { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  let user: Awaited<ReturnType<typeof repo.findUserByUsername>>;
  let membership: Awaited<ReturnType<typeof repo.firstMembership>>;
  let ok = false;
  try {
    user = await repo.findUserByUsername(database, key);
    ok = await verifySecret(user?.passwordHash ?? (await decoyHash()), input.password);
    membership =
      user && ok && user.isActive
        ? await repo.firstMembership(database, user.id, user.lastTenantId)
        : undefined;
  } catch (e) {
    // Our failure, not a guess: the attempt is not counted against the user.
    await repo.dropAttempt(database, attempt.id);
    throw e;
  }
  // The right password of a person deactivated in every association they belong to: not a guess, and said plainly.
  if (user?.isActive && ok && !membership) {
    await repo.clearFailures(database, key, client.ip);
    throw new HttpError(403, MESSAGES.deactivated);
  }
  // A wrong guess: the attempt recorded above stays as the failure.
  if (!user || !membership) throw new HttpError(401, MESSAGES.badCredentials);
  await repo.clearFailures(database, key, client.ip);
  const session = await createSession(database, {
    userId: user.id,
    tenantId: membership.tenantId,
    ip: client.ip,
    userAgent: client.userAgent,
    ttlMs: config.sessionTtlMs,
  });
  await repo.updateUser(database, user.id, { lastSignInAt: new Date() });
  const scope = { tenantId: membership.tenantId, userId: user.id, impersonatorUserId: null };
  await withTenantTx(database.db, scope, (tx) =>
    audit(tx, scope, { action: 'sign-in', entity: 'user', entityId: user.id }),
  );
  return { session, me: await buildMe(database, scope) };
}

export async function logout(database: Database, auth: AuthContext | null): Promise<void> {
  if (!auth) return;
  await revokeSession(database, auth.sessionId);
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, { action: 'sign-out', entity: 'user', entityId: auth.userId }),
  );
}

function refuseWhileImpersonating(auth: AuthContext): void {
  if (auth.impersonatorUserId)
    throw new HttpError(403, 'This is not possible while working as another user.');
}

/** Changes the password, revokes every session of the user and opens a new one. */
export async function changePassword(
  database: Database,
  config: AppConfig,
  auth: AuthContext,
  input: { currentPassword?: string | undefined; newPassword: string },
  client: ClientInfo,
): Promise<{ session: SessionTicket; me: Me }> {
  refuseWhileImpersonating(auth);
  const user = await repo.getUser(database, auth.userId);
  if (!user) throw new HttpError(401, MESSAGES.notSignedIn);
  if (!user.isRequirePasswordReset) {
    if (!input.currentPassword || !(await verifySecret(user.passwordHash, input.currentPassword))) {
      throw new HttpError(400, 'The current password is not correct.', {
        currentPassword: ['The current password is not correct.'],
      });
    }
  }
  if (await verifySecret(user.passwordHash, input.newPassword)) {
    throw new HttpError(400, 'Choose a password different from the current one.', {
      newPassword: ['Choose a password different from the current one.'],
    });
  }
  await repo.updateUser(database, user.id, {
    passwordHash: await hashSecret(input.newPassword),
    isRequirePasswordReset: false,
    passwordChangedAt: new Date(),
  });
  await revokeUserSessions(database, user.id);
  await repo.revokeResetTokens(database, user.id);
  const session = await createSession(database, {
    userId: user.id,
    tenantId: auth.tenantId,
    ...client,
    ttlMs: config.sessionTtlMs,
  });
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, { action: 'change-password', entity: 'user', entityId: user.id }),
  );
  return { session, me: await buildMe(database, { ...auth, impersonatorUserId: null }) };
}

export async function changeUsername(
  database: Database,
  auth: AuthContext,
  newUsername: string,
): Promise<Me> {
  refuseWhileImpersonating(auth);
  // A username may not be another user's email either: sign-in and the reset form accept both.
  if (await repo.findOtherUserNamed(database, newUsername.trim(), auth.userId)) {
    throw new HttpError(409, 'That username is taken.', { newUsername: ['That username is taken.'] });
  }
  const before = await repo.getUser(database, auth.userId);
  await repo.updateUser(database, auth.userId, { username: newUsername, mustChangeUsername: false });
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, {
      action: 'change-username',
      entity: 'user',
      entityId: auth.userId,
      before: { username: before?.username },
      after: { username: newUsername },
    }),
  );
  return buildMe(database, auth);
}

/** The time zone the person reads times in, in every association (null: each association's own). */
export async function setTimeZone(
  database: Database,
  auth: AuthContext,
  timeZone: string | null,
): Promise<Me> {
  refuseWhileImpersonating(auth);
  const before = await repo.getUser(database, auth.userId);
  await repo.updateUser(database, auth.userId, { timeZone });
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, {
      action: 'set-time-zone',
      entity: 'user',
      entityId: auth.userId,
      before: { timeZone: before?.timeZone ?? null },
      after: { timeZone },
    }),
  );
  return buildMe(database, auth);
}

export async function setSecurityQuestion(
  database: Database,
  auth: AuthContext,
  input: { SecurityQuestionId: number; Answer: string },
): Promise<Me> {
  refuseWhileImpersonating(auth);
  await repo.updateUser(database, auth.userId, {
    securityQuestionId: input.SecurityQuestionId,
    securityAnswerHash: await hashSecret(input.Answer.trim().toLowerCase()),
  });
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, { action: 'set-security-question', entity: 'user', entityId: auth.userId }),
  );
  return buildMe(database, auth);
}

export const FORGOT_PASSWORD_ANSWER =
  'If an account matches, we have sent it a link to choose a new password.';
export const RESET_INVALID = 'This reset link is invalid or has expired.';
const RESET_TTL_MS = 60 * 60_000;

/**
 * Asks for a reset link. The answer is the same, and takes the same time, whether or not the account exists: the
 * account is looked up and the link sent after the answer has gone (`background`).
 */
export function forgotPassword(
  database: Database,
  config: AppConfig,
  mailer: Mailer,
  background: Background,
  value: string,
): void {
  background.run('forgot-password', async () => {
    const user = await repo.findUserByUsernameOrEmail(database, value.trim());
    if (user) await sendResetLink(database, config, mailer, user.id);
  });
}

/**
 * Sends a user a single-use link to choose a new password, valid one hour, unless the user was sent too many
 * lately (repo.RESET_MAX_PER_WINDOW). The outbox keeps the message without the token: only the delivery carries
 * it. Answers whether a link was sent.
 */
async function sendResetLink(
  database: Database,
  config: AppConfig,
  mailer: Mailer,
  userId: number,
): Promise<boolean> {
  const user = await repo.getUser(database, userId);
  if (!user?.isActive) return false;
  const membership = await repo.firstMembership(database, user.id);
  if (!membership) return false;
  const token = randomBytes(32).toString('base64url');
  if (!(await repo.storeResetToken(database, user.id, sha256(token), new Date(Date.now() + RESET_TTL_MS))))
    return false;
  const link = `${config.publicUrl.replace(/\/$/, '')}/reset-password?token=${token}`;
  await communicationsApi.sendSystemMail(
    { database, mailer, config },
    membership.tenantId,
    passwordResetMail,
    {
      to: user.email,
      values: { 'User.DisplayName': user.displayName, 'User.Username': user.username, 'Reset.Link': link },
      secrets: [token],
    },
  );
  return true;
}

/**
 * Staff send a user of their association a reset link; they never see it and never set the password themselves.
 * The audit log names the staff member as the actor.
 */
export async function sendPasswordReset(
  database: Database,
  config: AppConfig,
  mailer: Mailer,
  auth: AuthContext,
  userId: number,
): Promise<{ message: string }> {
  const membership = await repo.membershipState(database, auth.tenantId, userId);
  if (!membership) throw new HttpError(404, MESSAGES.notFound);
  if (!membership.isActive) throw new HttpError(400, DEACTIVATED_HERE);
  const sent = await sendResetLink(database, config, mailer, userId);
  if (!sent)
    throw new HttpError(
      429,
      'This user was sent several reset links in the last 15 minutes (or cannot sign in). Try again later.',
    );
  await withTenantTx(database.db, scopeOf(auth), (tx) =>
    audit(tx, auth, { action: 'send-password-reset', entity: 'user', entityId: userId }),
  );
  return { message: PASSWORD_RESET_SENT };
}

const DEACTIVATED_HERE = 'This user is deactivated in this association. Reactivate them first.';

export const PASSWORD_RESET_SENT = 'We sent the user a link to choose a new password.';

export async function resetPassword(
  database: Database,
  input: { token: string; newPassword: string },
): Promise<void> {
  const userId = await repo.consumeResetToken(database, sha256(input.token));
  if (!userId) throw new HttpError(400, RESET_INVALID);
  await repo.updateUser(database, userId, {
    passwordHash: await hashSecret(input.newPassword),
    isRequirePasswordReset: false,
    passwordChangedAt: new Date(),
  });
  await revokeUserSessions(database, userId);
  const membership = await repo.firstMembership(database, userId);
  if (membership) {
    const scope = { tenantId: membership.tenantId, userId, impersonatorUserId: null };
    await withTenantTx(database.db, scope, (tx) =>
      audit(tx, scope, { action: 'reset-password', entity: 'user', entityId: userId }),
    );
  }
}

/** Staff work as another user of the same tenant; the audit log keeps both identities. */
export async function startImpersonation(
  database: Database,
  config: AppConfig,
  auth: AuthContext,
  targetUserId: number,
  client: ClientInfo,
): Promise<{ session: SessionTicket; me: Me }> {
  refuseWhileImpersonating(auth);
  if (targetUserId === auth.userId) throw new HttpError(400, 'You cannot work as yourself.');
  const membership = await repo.membershipState(database, auth.tenantId, targetUserId);
  if (!membership) throw new HttpError(404, MESSAGES.notFound);
  // A deactivated user's session would not open: refused before the staff session is given up for it.
  if (!membership.isActive) throw new HttpError(400, DEACTIVATED_HERE);
  // Bound to the staff session it comes from: it ends when that one would have, or after 4 hours if sooner.
  const staffSessionEnds = await sessionExpiry(database, auth.sessionId);
  if (!staffSessionEnds) throw new HttpError(401, MESSAGES.notSignedIn);
  const session = await createSession(database, {
    userId: targetUserId,
    tenantId: auth.tenantId,
    impersonatorUserId: auth.userId,
    ...client,
    ttlMs: Math.min(config.sessionTtlMs, 4 * 3_600_000),
    notAfter: staffSessionEnds,
  });
  await revokeSession(database, auth.sessionId);
  const scope = { tenantId: auth.tenantId, userId: targetUserId, impersonatorUserId: auth.userId };
  await withTenantTx(database.db, scope, (tx) =>
    audit(tx, scope, { action: 'impersonate-start', entity: 'user', entityId: targetUserId }),
  );
  return { session, me: await buildMe(database, scope) };
}

export async function stopImpersonation(
  database: Database,
  config: AppConfig,
  auth: AuthContext,
  client: ClientInfo,
): Promise<{ session: SessionTicket; me: Me }> {
  if (!auth.impersonatorUserId) throw new HttpError(400, 'You are not working as another user.');
  const staffId = auth.impersonatorUserId;
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, { action: 'impersonate-stop', entity: 'user', entityId: auth.userId }),
  );
  await revokeSession(database, auth.sessionId);
  const session = await createSession(database, {
    userId: staffId,
    tenantId: auth.tenantId,
    ...client,
    ttlMs: config.sessionTtlMs,
  });
  return {
    session,
    me: await buildMe(database, { tenantId: auth.tenantId, userId: staffId, impersonatorUserId: null }),
  };
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** The associations the signed-in person belongs to (the chooser after sign-in and the header's switcher). */
export async function listAssociations(database: Database, auth: AuthContext): Promise<Association[]> {
  const [rows, user] = await Promise.all([
    repo.myAssociations(database, auth.tenantId, auth.userId),
    repo.getUser(database, auth.userId),
  ]);
  return rows
    .map((r) => ({
      tenantId: r.tenant_id,
      name: r.name,
      role: r.role,
      current: r.tenant_id === auth.tenantId,
      lastUsed: r.tenant_id === user?.lastTenantId,
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.tenantId.localeCompare(b.tenantId));
}

/**
 * Changes association without signing in again: the session of the old association is revoked and a new one opened
 * in the chosen association, so every later request is scoped to it alone. Refused while working as another user,
 * and for an association the person does not belong to (404, as for one that does not exist).
 */
export async function switchAssociation(
  database: Database,
  config: AppConfig,
  auth: AuthContext,
  tenantId: string,
  client: ClientInfo,
): Promise<{ session: SessionTicket; me: Me }> {
  refuseWhileImpersonating(auth);
  const mine = await repo.myAssociations(database, auth.tenantId, auth.userId);
  if (!mine.some((m) => m.tenant_id === tenantId)) throw new HttpError(404, MESSAGES.notFound);
  await revokeSession(database, auth.sessionId);
  // The person's choice is remembered: their next sign-in opens this association.
  await repo.updateUser(database, auth.userId, { lastTenantId: tenantId });
  const session = await createSession(database, {
    userId: auth.userId,
    tenantId,
    ...client,
    ttlMs: config.sessionTtlMs,
  });
  const scope = { tenantId, userId: auth.userId, impersonatorUserId: null };
  await withTenantTx(database.db, scope, (tx) =>
    audit(tx, scope, { action: 'switch-association', entity: 'user', entityId: auth.userId }),
  );
  return { session, me: await buildMe(database, scope) };
}
