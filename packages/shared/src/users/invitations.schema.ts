/**
 * Staff invitations (issue 19, spec 000 section 4: a pending user shows a Resend link). An administrator invites a
 * colleague by email with a role; the mail carries a single-use link that expires after INVITATION_DAYS; the invitee
 * chooses a username and password (or, with an account of another association, signs in with it) and becomes a user
 * of the association. Resend sends a new link and spends the old one; Revoke spends it for good.
 */
import { z } from 'zod';
import { passwordSchema, usernameSchema } from '../platform/auth.schema.ts';

/** Days an invitation's link works. */
export const INVITATION_DAYS = 7;

/** Roles staff may be invited with (members join through their membership, not by invitation). */
export const INVITABLE_ROLES = ['admin', 'staff'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];
export const INVITABLE_ROLE_LABELS: Record<InvitableRole, string> = {
  admin: 'Administrator',
  staff: 'Staff',
};

export const INVITATION_MESSAGES = {
  sent: 'We sent the invitation.',
  resent: 'We sent a new invitation link; the previous one no longer works.',
  revoked: 'The invitation is revoked; its link no longer works.',
  alreadyUser: 'This person is already a user of the association.',
  alreadyInvited: 'This address has a pending invitation already: use Resend.',
  notPending: 'This invitation was already accepted or revoked.',
  linkInvalid: 'This invitation link is invalid, has expired or was already used. Ask for a new one.',
  accepted: 'Welcome aboard! Your account is ready: sign in to continue.',
  joined: 'You joined the association: sign in and choose it.',
  badCredentials: 'The username or password is not correct.',
  usernameTaken: 'That username is taken.',
} as const;

export const inviteBody = z.strictObject({
  Email: z.string().trim().min(1, 'Enter an email address.').max(254),
  DisplayName: z.string().trim().max(120).optional(),
  Role: z.enum(INVITABLE_ROLES),
});
export type InviteBody = z.infer<typeof inviteBody>;

/** A row of GET /api/users/invitations: the pending invitations, expired links included (Resend renews them). */
export const invitationRowSchema = z.object({
  invitationId: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(INVITABLE_ROLES),
  invitedByName: z.string().nullable(),
  sentAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
  sendCount: z.number().int(),
});
export type InvitationRow = z.infer<typeof invitationRowSchema>;

/** GET /api/users/invitations/by-token/{token}: what the accept page shows. */
export const invitationInfoSchema = z.object({
  Valid: z.boolean(),
  Email: z.string().nullable(),
  DisplayName: z.string().nullable(),
  AssociationName: z.string().nullable(),
  Role: z.enum(INVITABLE_ROLES).nullable(),
  /** The address already has an account (of another association): the invitee signs in with it to join. */
  HasAccount: z.boolean(),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

/**
 * POST /api/users/invitations/accept. A new person sends NewUsername, DisplayName and NewPassword; a person with an
 * account sends its Username and Password and the association is added to it.
 */
export const acceptInvitationBody = z.union([
  z.strictObject({
    Token: z.string().min(16).max(256),
    NewUsername: usernameSchema,
    DisplayName: z.string().trim().min(1, 'Enter your name.').max(120),
    NewPassword: passwordSchema,
  }),
  z.strictObject({
    Token: z.string().min(16).max(256),
    Username: z.string().trim().min(1, 'Enter your username.').max(256),
    Password: z.string().min(1, 'Enter your password.').max(256),
  }),
]);
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBody>;
