/** Wire shapes of communications (signatures, templates, mailings), written once for the server and the web. */
import { z } from 'zod';

/** Signature (spec 001 section 3): Name, SignatureHtml; ours add its id and whether it is the user's default. */
export const signatureSchema = z.object({
  SignatureId: z.number(),
  Name: z.string(),
  SignatureHtml: z.string(),
  IsDefault: z.boolean(),
});
export type Signature = z.infer<typeof signatureSchema>;

export const signatureInputSchema = z.object({
  Name: z.string().trim().min(1, 'Name is required.').max(200, 'Name has at most 200 characters.'),
  SignatureHtml: z.string().max(50_000, 'The signature has at most 50,000 characters.'),
  IsDefault: z.boolean().optional(),
});
export type SignatureInput = z.infer<typeof signatureInputSchema>;

/** A server call's answer (spec 000 section 7: Data.NoSuccessToaster suppresses the success toast). */
export const serverCallAnswerSchema = z.object({
  message: z.string(),
  Data: z.record(z.string(), z.unknown()),
});

/** The view template key of the signature manager (spec 001 section 2). */
export const SIGNATURE_MANAGER_KEY = 'ManageSignaturesViewModel';
