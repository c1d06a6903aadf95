import { z } from 'zod';

/**
 * Body of POST /api/Signup/BeginSignup: the minimal sign-up (spec 001 section 3: "The minimal sign-up has Email and
 * the name fields"). The answer is `{Data: {success}}` whether or not the address is known (no account enumeration);
 * the mail holds the link to the account setup wizard.
 */
export const beginSignupBody = z.strictObject({
  Email: z.string().trim().max(320),
  FirstName: z.string().trim().max(100).optional(),
  LastName: z.string().trim().max(100).optional(),
  /** The full name, when the form asks for it in one field. */
  Name: z.string().trim().max(200).optional(),
  TrialKey: z.string().trim().max(64).optional(),
});
export type BeginSignupBody = z.infer<typeof beginSignupBody>;

/** Answer of POST /api/Signup/BeginSignup (spec 001 section 7: "Data has success"). */
export const beginSignupResponse = z.object({ Data: z.object({ success: z.boolean() }) });

/** Path parameters of GET /api/Signup/ValidateUsername/{username}. */
export const validateUsernameParams = z.strictObject({ username: z.string().max(256) });

/**
 * Answer of GET /api/Signup/ValidateUsername/{username} (spec 001 section 7: "Data has Valid, PasswordResetUrl,
 * LoginUrl"). For a taken username, PasswordResetUrl and LoginUrl point the person to their existing account;
 * ErrorMessages says why the name is not valid.
 */
export const validateUsernameResponse = z.object({
  Data: z.object({
    Valid: z.boolean(),
    ErrorMessages: z.array(z.string()),
    PasswordResetUrl: z.string().nullable(),
    LoginUrl: z.string().nullable(),
  }),
});
export type ValidateUsernameAnswer = z.infer<typeof validateUsernameResponse>;

/** One answer to a sign-up custom field (the questions the product asks a new customer). */
export const signupCustomFieldSchema = z.object({
  Name: z.string().trim().min(1).max(100),
  Value: z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]),
});

/**
 * Body of POST /api/Signup/CompleteSignup: the signup model of spec 001 section 3 (AssociationName, Name, Email,
 * NewUsername, NewPassword, CustomFields, TrialKey, browserTimeZone), plus Token, the single-use token of the mailed
 * link. Fields are checked by `checkSignupModel` in the order of spec 001 section 5, so the schema here only bounds
 * their sizes.
 */
export const completeSignupBody = z.strictObject({
  Token: z.string().max(256),
  AssociationName: z.string().max(300),
  Name: z.string().max(300),
  Email: z.string().max(320),
  NewUsername: z.string().max(256),
  NewPassword: z.string().max(256),
  CustomFields: z.array(signupCustomFieldSchema).max(50).nullish(),
  TrialKey: z.string().max(64).nullish(),
  browserTimeZone: z.string().max(64).nullish(),
});
export type CompleteSignupBody = z.infer<typeof completeSignupBody>;

/** Answer of POST /api/Signup/CompleteSignup (spec 001 section 7: "Data has success and url"). */
export const completeSignupResponse = z.object({
  Data: z.object({ success: z.boolean(), url: z.string().nullable() }),
});
export type CompleteSignupAnswer = z.infer<typeof completeSignupResponse>;

/** What the setup wizard shows of a mailed link before the form is sent: the address and name it was sent for. */
export const signupInvitationResponse = z.object({
  Data: z.object({ Valid: z.boolean(), Email: z.string().nullable(), Name: z.string().nullable() }),
});
