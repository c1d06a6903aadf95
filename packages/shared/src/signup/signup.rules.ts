import { FULL_NAME_INVALID_MESSAGE, parseFullName } from '../contacts/name.rules.ts';
import { passwordSchema, usernameSchema } from '../platform/auth.schema.ts';
import { validateEmailAddress } from '../platform/fields/email.rules.ts';
import { isTimeZone } from '../platform/fields/timezone.rules.ts';

/** Days a new association may use the product before the trial ends and the back office becomes read-only. */
export const TRIAL_DAYS = 30;
/** The answer to a change while the association's trial has ended (403, code TrialEnded). */
export const TRIAL_ENDED_MESSAGE =
  'The trial of this association has ended: its back office is read-only. Nothing was deleted; subscribe to make changes again.';

/** Hours the link of the minimal sign-up stays valid. */
export const SIGNUP_LINK_HOURS = 48;
/** Currency of a new association until its administrator chooses another. */
export const DEFAULT_SIGNUP_CURRENCY = 'USD';
/** The timezone of a new association when the browser did not tell a known one. */
export const FALLBACK_SIGNUP_TIMEZONE = 'UTC';

export const SIGNUP_MESSAGES = {
  linkInvalid:
    'This sign-up link is invalid, has expired or was already used. Start again from the sign-up page.',
  associationName: 'Enter the name of your association (2 to 200 characters).',
  usernameTaken: 'That username is taken. Sign in, or reset the password of that account.',
  invalidEmail: 'Enter a valid email address.',
  begun: 'Check your mailbox: we sent you a link to set up your association.',
} as const;

export interface SignupModelInput {
  AssociationName: string;
  Name: string;
  Email: string;
  NewUsername: string;
  NewPassword: string;
  browserTimeZone?: string | null | undefined;
}

export interface CheckedSignupModel {
  associationName: string;
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
  timezone: string;
}

/**
 * Checks the setup model field by field, in the order the wizard shows them (spec 001 section 5): association name,
 * full name (it must parse into a first and a last name), email, username, password. Answers the field errors (by
 * the model's field names) or the cleaned model. The username's availability is the server's to check.
 */
export function checkSignupModel(
  input: SignupModelInput,
): { ok: true; value: CheckedSignupModel } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const associationName = input.AssociationName.trim().replace(/\s+/g, ' ');
  if (associationName.length < 2 || associationName.length > 200)
    errors.AssociationName = [SIGNUP_MESSAGES.associationName];
  const name = parseFullName(input.Name);
  if (!name.Valid) errors.Name = [FULL_NAME_INVALID_MESSAGE];
  const email = validateEmailAddress(input.Email);
  if (!email.Valid)
    errors.Email = email.ErrorMessages.length ? email.ErrorMessages : [SIGNUP_MESSAGES.invalidEmail];
  const username = usernameSchema.safeParse(input.NewUsername);
  if (!username.success) errors.NewUsername = username.error.issues.map((i) => i.message);
  const password = passwordSchema.safeParse(input.NewPassword);
  if (!password.success) errors.NewPassword = password.error.issues.map((i) => i.message);
  else {
    const weak = weakPasswordReason(input.NewPassword, [
      input.NewUsername,
      input.Email,
      name.FirstName,
      name.LastName,
    ]);
    if (weak) errors.NewPassword = [weak];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const tz = input.browserTimeZone?.trim();
  return {
    ok: true,
    value: {
      associationName,
      firstName: name.FirstName,
      lastName: name.LastName,
      email: input.Email.trim(),
      username: (username.success ? username.data : '').trim(),
      password: input.NewPassword,
      timezone: tz && isTimeZone(tz) ? tz : FALLBACK_SIGNUP_TIMEZONE,
    },
  };
}

const COMMON_PASSWORDS = new Set([
  'password123',
  'password1234',
  '1234567890',
  '12345678910',
  'qwertyuiop',
  'iloveyou123',
  'letmein1234',
  'welcome123',
  'welcome1234',
  'administrator',
  'changeme123',
  'passw0rd123',
]);

/**
 * The password policy beyond its length (passwordSchema): not one of the passwords every guesser tries first, not
 * a single character repeated, and not the person's username, email or name. Null when the password is acceptable.
 */
export function weakPasswordReason(
  password: string,
  personal: readonly (string | null | undefined)[],
): string | null {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return 'This password is one of the most common ones; choose another.';
  if (new Set(lower).size <= 2) return 'Use more than two different characters in the password.';
  for (const p of personal) {
    const part = p?.trim().toLowerCase();
    if (part && part.length >= 3 && lower.includes(part))
      return 'The password may not contain your username, email address or name.';
  }
  return null;
}

/** The trial's last instant: TRIAL_DAYS after the sign-up. */
export function trialEndsAt(signedUpAt: Date, days = TRIAL_DAYS): Date {
  return new Date(signedUpAt.getTime() + days * 86_400_000);
}

/** Whether an association whose trial ends at `endsAt` (absent: no trial, a paying customer) is read-only now. */
export function isTrialOver(endsAt: string | null | undefined, now: Date): boolean {
  if (!endsAt) return false;
  const end = Date.parse(endsAt);
  return Number.isFinite(end) && end <= now.getTime();
}

/** Whole days left in the trial (0 on its last day and after it ends), for the banner. */
export function trialDaysLeft(endsAt: string, now: Date): number {
  return Math.max(0, Math.floor((Date.parse(endsAt) - now.getTime()) / 86_400_000));
}

/**
 * The address slug of a new association: lower-case words of its name joined by dashes (at most 40 characters),
 * and a short suffix so that two associations of one name never share it.
 */
export function signupSlug(associationName: string, suffix: string): string {
  const base =
    associationName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40)
      .replace(/-$/, '') || 'association';
  return `${base}-${suffix}`;
}
