import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Database, hashSecret, withTenantTx } from '@guildhall/db';
import {
  type BeginSignupBody,
  type CompleteSignupAnswer,
  type CompleteSignupBody,
  checkSignupModel,
  DEFAULT_SIGNUP_CURRENCY,
  DEFAULT_TENANT_SETTINGS,
  parseFullName,
  SIGNUP_LINK_HOURS,
  SIGNUP_MESSAGES,
  signupSlug,
  TENANT_PROVISIONED,
  type TenantProvisionedPayload,
  trialEndsAt,
  usernameSchema,
  type ValidateUsernameAnswer,
  validateEmailAddress,
} from '@guildhall/shared';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { createSession, type SessionTicket } from '../../platform/session.ts';
import * as repo from './signup.repo.ts';

/** Sign-up links one address may be sent per hour; more asks answer the same but send nothing. */
export const LINKS_PER_ADDRESS_PER_HOUR = 3;

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function base(services: Services): string {
  return services.config.publicUrl.replace(/\/$/, '');
}

/**
 * GET /api/Signup/ValidateUsername/{username}: whether a new account may take the name. For a name an account
 * already has (as its username or its email), the answer points to that account's sign-in and password reset.
 */
export async function validateUsername(
  services: Services,
  username: string,
): Promise<ValidateUsernameAnswer> {
  const shape = usernameSchema.safeParse(username);
  if (!shape.success)
    return {
      Data: {
        Valid: false,
        ErrorMessages: shape.error.issues.map((i) => i.message),
        PasswordResetUrl: null,
        LoginUrl: null,
      },
    };
  const taken = await repo.findAccountNamed(services.database, shape.data);
  return taken
    ? {
        Data: {
          Valid: false,
          ErrorMessages: [SIGNUP_MESSAGES.usernameTaken],
          PasswordResetUrl: `${base(services)}/forgot-password`,
          LoginUrl: `${base(services)}/sign-in`,
        },
      }
    : { Data: { Valid: true, ErrorMessages: [], PasswordResetUrl: null, LoginUrl: null } };
}

/**
 * POST /api/Signup/BeginSignup: refuses a malformed address (the only thing the answer may tell), then answers
 * success at once; the link is made and mailed after the answer has gone, so neither the answer nor its timing says
 * whether the address already has an account. An address already known gets a mail pointing to sign-in and password
 * reset as well as the link (it may start another association).
 */
export function beginSignup(
  services: Services,
  log: FastifyBaseLogger,
  input: BeginSignupBody,
  ip: string,
): { Data: { success: boolean } } {
  const email = validateEmailAddress(input.Email);
  if (!email.Valid)
    throw new HttpError(400, email.ErrorMessages[0] ?? SIGNUP_MESSAGES.invalidEmail, {
      Email: email.ErrorMessages.length ? email.ErrorMessages : [SIGNUP_MESSAGES.invalidEmail],
    });
  const parsed = input.Name ? parseFullName(input.Name) : null;
  const firstName = (input.FirstName ?? parsed?.FirstName ?? '').trim();
  const lastName = (input.LastName ?? parsed?.LastName ?? '').trim();
  const address = input.Email.trim();
  services.background.run('begin-signup', async () => {
    const since = new Date(Date.now() - 3_600_000);
    if ((await repo.recentRequestsFor(services.database, address, since)) >= LINKS_PER_ADDRESS_PER_HOUR)
      return;
    const token = randomBytes(32).toString('base64url');
    await repo.storeRequest(services.database, {
      tokenHash: sha256(token),
      email: address,
      firstName,
      lastName,
      trialKey: input.TrialKey ?? null,
      ip,
      expiresAt: new Date(Date.now() + SIGNUP_LINK_HOURS * 3_600_000),
    });
    const known = await repo.findAccountNamed(services.database, address);
    const link = `${base(services)}/signup/setup?token=${token}`;
    const greeting = firstName ? `Hello ${firstName},` : 'Hello,';
    const knownLine = known
      ? `\n\nThis address already has an account. To use it, sign in at ${base(services)}/sign-in or choose a new password at ${base(services)}/forgot-password.`
      : '';
    const sent = await services.mailer.sendWithoutTenant({
      to: address,
      subject: 'Set up your association',
      text: `${greeting}\n\nThank you for starting a trial. To set up your association, open this link within ${SIGNUP_LINK_HOURS} hours (it works once):\n\n${link}${knownLine}\n\nIf you did not ask for this, you can ignore this message.`,
      secrets: [token],
    });
    if (!sent.delivered)
      log.warn({ to: address }, 'SMTP is not configured: the sign-up link was not delivered');
  });
  return { Data: { success: true } };
}

/** GET /api/Signup/Invitation/{token}: whether a link can still be used, and the address and name it was sent for. */
export async function readInvitation(services: Services, token: string) {
  const r = await repo.readRequest(services.database, sha256(token));
  if (!r || r.usedAt || r.expiresAt.getTime() <= Date.now())
    return { Data: { Valid: false, Email: null, Name: null } };
  const name = `${r.firstName} ${r.lastName}`.trim();
  return { Data: { Valid: true, Email: r.email, Name: name || null } };
}

export interface CompletedSignup {
  answer: CompleteSignupAnswer;
  /** The new administrator's session, when this call made the association (not when it repeated one). */
  session: SessionTicket | null;
}

/**
 * POST /api/Signup/CompleteSignup: checks the model (spec 001 section 5's order), then makes the association in one
 * transaction: the link is locked and spent, the tenant, its settings, the administrator, the terms of use and the
 * welcome are written, and `tenant.provisioned` lets other features add their defaults (decision 0160). The same
 * link sent twice makes one association: the second call waits for the first and answers its url. The new
 * administrator is signed in at once.
 */
export async function completeSignup(
  services: Services,
  input: CompleteSignupBody,
  client: { ip: string; userAgent: string | undefined },
): Promise<CompletedSignup> {
  const tokenHash = sha256(input.Token);
  const checked = checkSignupModel(input);
  if (!checked.ok)
    throw new HttpError(400, Object.values(checked.errors)[0]?.[0] ?? 'Check the form.', checked.errors);
  const m = checked.value;
  const home = `${base(services)}/a`;
  const known = await repo.readRequest(services.database, tokenHash);
  if (!known) throw new HttpError(400, SIGNUP_MESSAGES.linkInvalid, { Token: [SIGNUP_MESSAGES.linkInvalid] });
  if (known.usedAt && known.provisionedTenantId)
    return { answer: { Data: { success: true, url: home } }, session: null };
  // The same link sent twice at once: the other request may have made the association (and so taken the username)
  // since the link was read; that is the repeated sign-up, answered as such, not a taken username.
  const madeMeanwhile = async () => {
    const again = await repo.readRequest(services.database, tokenHash);
    return Boolean(again?.usedAt && again.provisionedTenantId);
  };
  if (await repo.findAccountNamed(services.database, m.username)) {
    if (await madeMeanwhile()) return { answer: { Data: { success: true, url: home } }, session: null };
    throw new HttpError(400, SIGNUP_MESSAGES.usernameTaken, { NewUsername: [SIGNUP_MESSAGES.usernameTaken] });
  }
  // Hashing is slow on purpose: done before the transaction, which then holds its locks only for the writes.
  const passwordHash = await hashSecret(m.password);
  const tenantId = randomUUID();
  const now = new Date();
  const result = await withTenantTx(services.database.db, { tenantId }, async (tx) => {
    const request = await repo.lockRequest(tx, tokenHash);
    if (!request)
      throw new HttpError(400, SIGNUP_MESSAGES.linkInvalid, { Token: [SIGNUP_MESSAGES.linkInvalid] });
    if (request.usedAt) {
      if (request.provisionedTenantId) return { repeated: true as const };
      throw new HttpError(400, SIGNUP_MESSAGES.linkInvalid, { Token: [SIGNUP_MESSAGES.linkInvalid] });
    }
    if (request.expiresAt.getTime() <= now.getTime())
      throw new HttpError(400, SIGNUP_MESSAGES.linkInvalid, { Token: [SIGNUP_MESSAGES.linkInvalid] });
    const userId = await repo.insertAssociation(tx, {
      tenantId,
      name: m.associationName,
      slug: signupSlug(m.associationName, tenantId.slice(0, 8)),
      settings: {
        ...DEFAULT_TENANT_SETTINGS,
        defaultTimezone: m.timezone,
        currency: DEFAULT_SIGNUP_CURRENCY,
        trialEndsAt: trialEndsAt(now).toISOString(),
      },
      admin: {
        username: m.username,
        email: m.email,
        displayName: `${m.firstName} ${m.lastName}`,
        passwordHash,
      },
      termsAcceptedAt: now,
      welcome: `Welcome to ${m.associationName}'s back office! Your trial runs until ${trialEndsAt(now).toISOString().slice(0, 10)}. Start with Settings, then add your contacts and invite your colleagues from Users.`,
      signupAnswers: {
        CustomFields: input.CustomFields ?? [],
        TrialKey: input.TrialKey ?? request.trialKey ?? null,
      },
    });
    await repo.markUsed(tx, tokenHash, tenantId, userId);
    const payload: TenantProvisionedPayload = { tenantId, administratorUserId: userId };
    await services.events.publish(tx, tenantId, TENANT_PROVISIONED, payload);
    return { repeated: false as const, userId };
  }).catch(async (e: unknown) => {
    // Another sign-up took the username between the check and the insert (the same link's: a repeat).
    if (isUniqueViolation(e)) {
      if (await madeMeanwhile()) return { repeated: true as const };
      throw new HttpError(400, SIGNUP_MESSAGES.usernameTaken, {
        NewUsername: [SIGNUP_MESSAGES.usernameTaken],
      });
    }
    throw e;
  });
  if (result.repeated) return { answer: { Data: { success: true, url: home } }, session: null };
  const session = await createSession(services.database, {
    userId: result.userId,
    tenantId,
    ...client,
    ttlMs: services.config.sessionTtlMs,
  });
  return { answer: { Data: { success: true, url: home } }, session };
}

function isUniqueViolation(e: unknown): boolean {
  for (let c: unknown = e; c && typeof c === 'object'; c = (c as { cause?: unknown }).cause) {
    if ((c as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
