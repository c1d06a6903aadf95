/**
 * Wire shapes of the contacts routes beyond the generic layer (directory, own profile, merge): the server's route
 * schemas and the web client's types both come from here.
 */
import { z } from 'zod';

export const directoryContactSchema = z.object({
  DirectoryContactId: z.number(),
  DisplayName: z.string(),
  ContactType: z.string(),
  FirstName: z.string().nullable(),
  LastName: z.string().nullable(),
  OrganizationName: z.string().nullable(),
  Email: z.string().nullable(),
  Phone: z.string().nullable(),
  Website: z.string().nullable(),
  Address1: z.string().nullable(),
  Address2: z.string().nullable(),
  PostalCode: z.string().nullable(),
  City: z.string().nullable(),
  StateProvince: z.string().nullable(),
  CountryCode: z.string().nullable(),
  /** The custom fields the association publishes in the directory and members may read, with this contact's text. */
  CustomFields: z.array(z.object({ Name: z.string(), Value: z.string() })).optional(),
});

export const directoryListQuerySchema = z.object({
  $skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  $top: z.coerce.number().int().min(1).max(200).default(50),
  search: z.string().max(200).optional(),
});

export const directoryListSchema = z.object({
  Results: z.array(directoryContactSchema),
  TotalRecordAvailable: z.number().int(),
});

const text = (max: number) => z.string().max(max).nullable().optional();
/** What a member may change on their own profile; any other field is refused (400), never silently ignored. */
export const memberProfileSchema = z
  .object({
    Email: text(200),
    Phone: text(40),
    Website: text(300),
    Address1: text(200),
    Address2: text(200),
    City: text(100),
    StateProvince: text(100),
    PostalCode: text(20),
    CountryCode: text(60),
    IsListed: z.boolean().optional(),
    PublishedFields: z.number().int().min(0).max(63).optional(),
  })
  .strict();
export type MemberProfileChanges = z.input<typeof memberProfileSchema>;
export type MemberEditableField = keyof MemberProfileChanges;

/** Fields a member may change on their own profile, in the form's order; everything else is the association's. */
export const MEMBER_EDITABLE_FIELDS = Object.keys(memberProfileSchema.shape) as MemberEditableField[];

export const memberProfileAnswerSchema = directoryContactSchema.extend({
  IsListed: z.boolean(),
  PublishedFields: z.number().int(),
  Status: z.string(),
  AccountNumber: z.string().nullable(),
});

export const mergeBodySchema = z.object({
  KeepContactId: z.coerce.number().int().positive(),
  MergeContactId: z.coerce.number().int().positive(),
});

export type DirectoryContact = z.infer<typeof directoryContactSchema>;
export type DirectoryList = z.infer<typeof directoryListSchema>;
export type MemberProfileAnswer = z.infer<typeof memberProfileAnswerSchema>;
