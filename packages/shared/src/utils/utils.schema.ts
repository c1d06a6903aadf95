import { z } from 'zod';

/** Body of POST /api/utils/email/validate (spec 000 section 7: "body emailAddress"). */
export const emailValidateBody = z.strictObject({
  emailAddress: z.string().max(320, 'An email address can be at most 254 characters long.'),
});
export type EmailValidateBody = z.infer<typeof emailValidateBody>;

/** `{Valid, ErrorMessages}` as the validators answer it. */
export const validationResultSchema = z.object({ Valid: z.boolean(), ErrorMessages: z.array(z.string()) });

/** Answer of POST /api/utils/email/validate: `{Data: {Valid, ErrorMessages}}`. */
export const emailValidateResponse = z.object({ Data: validationResultSchema });

/** Body of POST /api/utils/refund/validate: the refund model. Amount in major units, as a number or text. */
export const refundValidateBody = z.strictObject({
  PaymentId: z.number().int().positive().max(2_147_483_647),
  Amount: z.union([z.number(), z.string().trim().max(32)]),
  RefundDate: z.string().max(40).nullish(),
  Reason: z.string().max(1000).nullish(),
});
export type RefundValidateBody = z.infer<typeof refundValidateBody>;

/** Answer of POST /api/utils/refund/validate (spec 000 section 7: "answer Data.Valid, ErrorMessages"). */
export const refundValidateResponse = z.object({
  Data: z.object({ Valid: z.boolean() }),
  ErrorMessages: z.array(z.string()),
});

/** Path parameters of GET /api/Signup/ParseName/{name}. */
export const parseNameParams = z.strictObject({ name: z.string().max(200) });

/** Answer of GET /api/Signup/ParseName/{name} (spec 001 section 7: "Data.Name has FirstName and LastName"). */
export const parseNameResponse = z.object({
  Data: z.object({
    Name: z.object({ FirstName: z.string(), LastName: z.string() }),
  }),
});
