import { z } from 'zod';
import { isTimeZone } from './fields/timezone.rules.ts';

/** Login types of a user (spec 000 section 3: Terms carry a LoginType). */
export const LOGIN_TYPES = ['staff', 'member'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];
/** Numeric ids sent as UserLoginTypeId by the terms-of-use gate. */
export const LOGIN_TYPE_IDS: Record<LoginType, number> = { staff: 1, member: 2 };
export const loginTypeFromId = (id: number): LoginType | undefined =>
  LOGIN_TYPES.find((t) => LOGIN_TYPE_IDS[t] === id);

export const ROLES = ['admin', 'staff', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Areas (spec 000 section 6): `backoffice` for staff, anything else is the member area. */
export type Area = 'backoffice' | 'member';

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'A username has at least 3 characters.')
  .max(64, 'A username has at most 64 characters.')
  .regex(/^[A-Za-z0-9._@-]+$/, 'A username may hold letters, digits, dots, dashes, underscores and @.');

export const passwordSchema = z
  .string()
  .min(10, 'A password has at least 10 characters.')
  .max(256, 'A password has at most 256 characters.');

export const loginBody = z.object({
  username: z.string().trim().min(1, 'Enter your username.').max(256),
  password: z.string().min(1, 'Enter your password.').max(256),
});
export type LoginBody = z.infer<typeof loginBody>;

export const pendingTermsSchema = z.object({
  TermsOfUseId: z.number().int(),
  LoginType: z.enum(LOGIN_TYPES),
  UserLoginTypeId: z.number().int(),
  Title: z.string(),
  Description: z.string(),
  PublishedAt: z.string(),
});
export type PendingTerms = z.infer<typeof pendingTermsSchema>;

/**
 * The association's privacy policy, shown once to each user until they accept it (spec 000 s2, the privacy-policy
 * acceptance modal). Version is a digest of the text: a changed policy is asked again.
 */
export const pendingPrivacyPolicySchema = z.object({
  Text: z.string(),
  Url: z.string().nullable(),
  Version: z.string(),
});
export type PendingPrivacyPolicy = z.infer<typeof pendingPrivacyPolicySchema>;

export const privacyPolicyActionBody = z.object({
  Version: z.string().min(1).max(128),
  IsAccepted: z.boolean(),
});
export type PrivacyPolicyActionBody = z.infer<typeof privacyPolicyActionBody>;

export const tenantSettingsSchema = z.object({
  listPageSize: z.number().int().min(5).max(500),
  draftDurationMinutes: z.number().int().min(1).max(10_080),
  notificationDurationMs: z.number().int().min(1000).max(60_000),
  defaultTimezone: z.string().min(1).max(64),
  websitePrefix: z.string().min(1).max(16),
  /** Contact statuses the member directory lists (absent: active members only, DEFAULT_DIRECTORY_STATUSES). */
  directoryStatuses: z.array(z.string().max(20)).max(10).optional(),
  /** ISO 4217 code of the association's money (absent: USD). */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Choose a three-letter currency code such as USD or EUR.')
    .optional(),
  /** The association's postal address, as it appears on its letters and invoices. */
  address: z.string().max(500).optional(),
  /**
   * The end of the association's trial (ISO instant); absent for a paying association. Set by sign-up, never by the
   * settings form: once it has passed, the back office is read-only (decision 0161).
   */
  trialEndsAt: z.string().max(40).nullish(),
});
export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const DEFAULT_TENANT_SETTINGS: TenantSettings = {
  listPageSize: 50,
  draftDurationMinutes: 1440,
  notificationDurationMs: 5000,
  defaultTimezone: 'America/Chicago',
  websitePrefix: 'http://',
  directoryStatuses: ['active'],
  currency: 'USD',
};

export const meSchema = z.object({
  user: z.object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    displayName: z.string(),
    loginType: z.enum(LOGIN_TYPES),
    /** The time zone the user chose to read times in; null: the association's (`tenant.settings.defaultTimezone`). */
    timeZone: z.string().nullable(),
  }),
  tenant: z.object({ id: z.string(), name: z.string(), slug: z.string(), settings: tenantSettingsSchema }),
  area: z.enum(['backoffice', 'member']),
  role: z.enum(ROLES),
  permissions: z.array(z.string()),
  featureFlags: z.record(z.string(), z.boolean()),
  uiVersion: z.number().int(),
  pendingPrompts: z.object({
    terms: z.array(pendingTermsSchema),
    securityQuestion: z.boolean(),
    passwordReset: z.boolean(),
    usernameChange: z.boolean(),
    /** The privacy policy the user has not accepted yet (null: none, accepted, or working as someone else). */
    privacyPolicy: pendingPrivacyPolicySchema.nullable(),
  }),
  impersonation: z
    .object({
      impersonator: z.object({ id: z.number().int(), username: z.string(), displayName: z.string() }),
    })
    .nullable(),
});
export type Me = z.infer<typeof meSchema>;

/**
 * `GET /api/auth/associations`: an association the signed-in person is active in. `current`: the session's;
 * `lastUsed`: the one they chose or switched to last, which the next sign-in opens (none: the sign-in asks).
 */
export const associationSchema = z.object({
  tenantId: z.string(),
  name: z.string(),
  role: z.string(),
  current: z.boolean(),
  lastUsed: z.boolean(),
});
export type Association = z.infer<typeof associationSchema>;

/** After sign-in, the chooser is shown when the person is active in several associations and none was remembered. */
export function needsAssociationChoice(
  associations: readonly Pick<Association, 'current' | 'lastUsed'>[],
): boolean {
  return associations.length > 1 && !associations.some((a) => a.current && a.lastUsed);
}

/** The time zone every time is shown in for this user: their own choice, else the association's. */
export function displayTimeZone(me: Pick<Me, 'user' | 'tenant'>): string {
  return me.user.timeZone ?? me.tenant.settings.defaultTimezone;
}

/**
 * The time zone a calendar draws occurrences in for its viewer (issue 17: "shown in the viewer's timezone"): the
 * zone the user chose, as every other time they read; else the zone of the device they read it on, where they are.
 */
export function viewerTimeZone(me: Pick<Me, 'user'>, deviceTimeZone: string | undefined): string {
  return me.user.timeZone ?? (deviceTimeZone && isTimeZone(deviceTimeZone) ? deviceTimeZone : 'UTC');
}

/** `PUT /api/auth/me/time-zone`: the user's own time zone, or null for the association's. */
export const timeZoneBody = z.object({
  TimeZone: z.string().trim().max(64).refine(isTimeZone, 'Choose a time zone from the list.').nullable(),
});
export type TimeZoneBody = z.infer<typeof timeZoneBody>;

export const termsActionBody = z.object({
  UserLoginTypeId: z.number().int(),
  TermsOfUseId: z.number().int(),
  IsAccepted: z.boolean(),
});
export type TermsActionBody = z.infer<typeof termsActionBody>;

export const securityQuestionBody = z.object({
  SecurityQuestionId: z.number().int().positive(),
  Answer: z.string().trim().min(2, 'Give an answer of at least 2 characters.').max(200),
});
export const changePasswordBody = z.object({
  currentPassword: z.string().max(256).optional(),
  newPassword: passwordSchema,
});
export const changeUsernameBody = z.object({ newUsername: usernameSchema });
export const forgotPasswordBody = z.object({ usernameOrEmail: z.string().trim().min(1).max(256) });
export const resetPasswordBody = z.object({
  token: z.string().min(16).max(256),
  newPassword: passwordSchema,
});

/** Security questions offered by the set-a-security-question prompt. */
export const SECURITY_QUESTIONS: ReadonlyArray<{ Id: number; Text: string }> = [
  { Id: 1, Text: 'What was the name of your first pet?' },
  { Id: 2, Text: 'In what city were you born?' },
  { Id: 3, Text: 'What was the name of your first school?' },
  { Id: 4, Text: "What is your oldest sibling's middle name?" },
  { Id: 5, Text: 'What was the make of your first car?' },
];

/** Error answer of every failing API call: a message, optionally an errors map (spec 000 section 8). */
export const apiErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  retryAfterSeconds: z.number().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const MESSAGES = {
  badCredentials: 'The username or password is incorrect.',
  throttled: 'Too many failed sign-in attempts. Try again later.',
  deactivated:
    'Your account has been deactivated. Ask an administrator of your association to reactivate it.',
  termsActionFailed: 'An error has been occurred.',
  notSignedIn: 'You are not signed in.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found.',
  saved: 'We saved it!',
} as const;
