/**
 * The sign-in (user) a contact is linked to: a member signs in to the member area as their contact, and staff link
 * or unlink the two from either record (the contact's or the user's). A user has at most one contact per association.
 */
import { z } from 'zod';

/** Body of PUT /api/contacts/contacts/{id}/user: the user to link, or null to unlink. */
export const contactUserLinkBody = z.strictObject({
  UserId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
});
export type ContactUserLinkBody = z.infer<typeof contactUserLinkBody>;

/** A contact and the user linked to it (both named, never by id alone). */
export const contactUserLinkSchema = z.object({
  ContactId: z.number(),
  ContactName: z.string(),
  UserId: z.number().nullable(),
  UserName: z.string().nullable(),
  Username: z.string().nullable(),
});
export type ContactUserLink = z.infer<typeof contactUserLinkSchema>;
