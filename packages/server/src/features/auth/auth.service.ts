import { createHash, randomBytes } from 'node:crypto';
import { type Database, decoyHash, hashSecret, verifySecret, withTenantTx } from '@guildhall/db';
import {
  DEFAULT_TENANT_SETTINGS,
  FEATURE_FLAGS,
  LOGIN_TYPE_IDS,
  MESSAGES,
  type Me,
  ROLE_PERMISSIONS,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import type { AppConfig } from '../../platform/config.ts';
import type { AuthContext } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { createSession, revokeSession, revokeUserSessions } from '../../platform/session.ts';
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
    const featureFlags: Record<string, boolean> = {};
    for (const f of FEATURE_FLAGS) featureFlags[f.key] = membership.featureFlags[f.key] ?? f.defaultOn;
    return {
      user: {
        id: user.id,
        username: user.username,
        email: user.email,
        displayName: user.displayName,
        loginType: user.loginType,
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
): Promise<{ token: string; me: Me }> {
  const key = input.username.trim().toLowerCase();
  const throttle = await repo.recentFailures(database, key, client.ip);
  if (throttle.count >= repo.THROTTLE_MAX_FAILURES) {
    throw new HttpError(429, MESSAGES.throttled, undefined, {
      retryAfterSeconds: throttle.retryAfterSeconds,
    });
  }
  const user = await repo.findUserByUsername(database, key);
  const ok = await verifySecret(user?.passwordHash ?? (await decoyHash()), input.password);
  const membership = user && ok && user.isActive ? await repo.firstMembership(database, user.id) : undefined;
  if (!user || !membership) {
    await repo.recordFailure(database, key, client.ip);
    throw new HttpError(401, MESSAGES.badCredentials);
  }
  await repo.clearFailures(database, key, client.ip);
  const token = await createSession(database, {
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
  return { token, me: await buildMe(database, scope) };
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
): Promise<{ token: string; me: Me }> {
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
  const token = await createSession(database, {
    userId: user.id,
    tenantId: auth.tenantId,
    ...client,
    ttlMs: config.sessionTtlMs,
  });
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, { action: 'change-password', entity: 'user', entityId: user.id }),
  );
  return { token, me: await buildMe(database, { ...auth, impersonatorUserId: null }) };
}

export async function changeUsername(
  database: Database,
  auth: AuthContext,
  newUsername: string,
): Promise<Me> {
  refuseWhileImpersonating(auth);
  const taken = await repo.findUserByUsername(database, newUsername);
  if (taken && taken.id !== auth.userId) {
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

/** Sends a single-use, expiring reset link; answers the same whether or not the account exists. */
export async function forgotPassword(
  database: Database,
  config: AppConfig,
  mailer: Mailer,
  value: string,
): Promise<void> {
  const user = await repo.findUserByUsernameOrEmail(database, value.trim());
  if (!user?.isActive) return;
  const membership = await repo.firstMembership(database, user.id);
  if (!membership) return;
  const token = randomBytes(32).toString('base64url');
  await repo.storeResetToken(database, user.id, sha256(token), new Date(Date.now() + RESET_TTL_MS));
  const link = `${config.publicUrl.replace(/\/$/, '')}/reset-password?token=${token}`;
  await mailer.send(membership.tenantId, {
    to: user.email,
    subject: 'Choose a new password',
    text: `Hello ${user.displayName},\n\nSomeone asked to reset the password of the account ${user.username}. To choose a new password, open this link within one hour:\n\n${link}\n\nIf you did not ask for this, you can ignore this message.`,
  });
}

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
): Promise<{ token: string; me: Me }> {
  refuseWhileImpersonating(auth);
  if (targetUserId === auth.userId) throw new HttpError(400, 'You cannot work as yourself.');
  if (!(await repo.isMemberOf(database, auth.tenantId, targetUserId)))
    throw new HttpError(404, MESSAGES.notFound);
  const token = await createSession(database, {
    userId: targetUserId,
    tenantId: auth.tenantId,
    impersonatorUserId: auth.userId,
    ...client,
    ttlMs: Math.min(config.sessionTtlMs, 4 * 3_600_000),
  });
  await revokeSession(database, auth.sessionId);
  const scope = { tenantId: auth.tenantId, userId: targetUserId, impersonatorUserId: auth.userId };
  await withTenantTx(database.db, scope, (tx) =>
    audit(tx, scope, { action: 'impersonate-start', entity: 'user', entityId: targetUserId }),
  );
  return { token, me: await buildMe(database, scope) };
}

export async function stopImpersonation(
  database: Database,
  config: AppConfig,
  auth: AuthContext,
  client: ClientInfo,
): Promise<{ token: string; me: Me }> {
  if (!auth.impersonatorUserId) throw new HttpError(400, 'You are not working as another user.');
  const staffId = auth.impersonatorUserId;
  await withTenantTx(database.db, { tenantId: auth.tenantId, userId: auth.userId }, (tx) =>
    audit(tx, auth, { action: 'impersonate-stop', entity: 'user', entityId: auth.userId }),
  );
  await revokeSession(database, auth.sessionId);
  const token = await createSession(database, {
    userId: staffId,
    tenantId: auth.tenantId,
    ...client,
    ttlMs: config.sessionTtlMs,
  });
  return {
    token,
    me: await buildMe(database, { tenantId: auth.tenantId, userId: staffId, impersonatorUserId: null }),
  };
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
