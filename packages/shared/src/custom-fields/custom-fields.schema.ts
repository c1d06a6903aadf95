/**
 * Wire shapes of custom fields (spec 000 section 3: CustomFieldDataTypeId, PageNumber, SelectListItems; spec 001
 * section 3: the uploaded-file model of a file field). Written once: the server's routes declare them, the web takes
 * their types with z.infer.
 */
import { z } from 'zod';
import { CUSTOM_FIELD_DATA_TYPES } from './custom-fields.rules.ts';

/** Who sees a custom field's value: staff only, members may see it on their own record, or may also edit it. */
export const CUSTOM_FIELD_VISIBILITIES = ['staff', 'memberRead', 'memberEdit'] as const;
export type CustomFieldVisibility = (typeof CUSTOM_FIELD_VISIBILITIES)[number];

const dataTypeIds = Object.values(CUSTOM_FIELD_DATA_TYPES) as [number, ...number[]];

export const selectListItemSchema = z.object({
  Id: z.number().int(),
  Name: z.string().trim().min(1, 'A choice needs a name.').max(200),
  GoTo: z.number().int().min(1).max(50).nullable().optional(),
  DisableUpdate: z.boolean().nullable().optional(),
  IsHidden: z.boolean().nullable().optional(),
  isDeleted: z.boolean().nullable().optional(),
});

/** The uploaded-file model of a file field (spec 001 section 3): Name, Url, ContentType, FileId. */
export const uploadedFileModelSchema = z.object({
  Name: z.string().max(255),
  Url: z.string().max(2000),
  ContentType: z.string().max(255).nullable(),
  FileId: z.number().int().positive(),
});
export type UploadedFileModel = z.infer<typeof uploadedFileModelSchema>;

/** A custom field as the setup screen edits it. */
export const customFieldBody = z.object({
  /** The entity whose records take the field: a resource's `customFields.entity` (Contact, Membership, Event). */
  Entity: z.string().min(1).max(60),
  Name: z.string().trim().min(1, 'Name is required.').max(120),
  HelpText: z.string().max(1000).nullable().default(null),
  CustomFieldDataTypeId: z.union(
    dataTypeIds.map((id) => z.literal(id)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]],
  ),
  Required: z.boolean().default(false),
  DefaultValue: z.unknown().optional(),
  PageNumber: z.number().int().min(1).max(50).default(1),
  SortOrder: z.number().int().min(0).max(100000).default(0),
  Visibility: z.enum(CUSTOM_FIELD_VISIBILITIES).default('staff'),
  /** Shown in the member directory (to members who may see the directory) when set. */
  InDirectory: z.boolean().default(false),
  /** Text values are found by the global search. */
  Searchable: z.boolean().default(false),
  /** A file field's uploads are public files (served without a session). */
  IsPublic: z.boolean().default(false),
  /** An archived field keeps its values but takes no new ones: its form control is read-only. */
  IsArchived: z.boolean().default(false),
  SelectListItems: z.array(selectListItemSchema).max(500).default([]),
  /**
   * The record the field belongs to, for an entity whose declaration has a `scope` (an event's registration
   * question names its EventId); null: the field is asked of every record of the entity.
   */
  ScopeId: z.number().int().positive().nullable().default(null),
});
export type CustomFieldBody = z.infer<typeof customFieldBody>;

export const customFieldSchema = customFieldBody.extend({
  CustomFieldId: z.number().int(),
  DefaultValue: z.unknown().nullable(),
  /** Stored values (records that have one). */
  ValueCount: z.number().int().optional(),
  Version: z.number().int(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

export const customFieldSaveBody = customFieldBody.extend({ Version: z.number().int().optional() });

/** A type change asked for a dry run, or to be applied (with `Confirm`). */
export const typeChangeBody = z.object({
  CustomFieldDataTypeId: z.number().int(),
  /** Apply the change; without it, the answer only says what would happen. */
  Confirm: z.boolean().default(false),
});

export const typeChangeOutcomeSchema = z.object({
  FromTypeId: z.number().int(),
  ToTypeId: z.number().int(),
  /** Stored values in total. */
  Total: z.number().int(),
  /** Kept as they are. */
  Kept: z.number().int(),
  /** Converted to the new type (a number stored as text, a choice id as its name, …). */
  Converted: z.number().int(),
  /** Cannot be represented in the new type and would be removed. */
  Lost: z.number().int(),
  /** Up to 20 records whose value is converted or lost: the record's name, the value before and after. */
  Examples: z.array(
    z.object({
      RecordId: z.number().int(),
      RecordName: z.string(),
      Before: z.string(),
      After: z.string().nullable(),
    }),
  ),
  /** The choices after the type-change rules (spec 000 section 4). */
  SelectListItems: z.array(selectListItemSchema),
  Applied: z.boolean(),
});
export type TypeChangeOutcome = z.infer<typeof typeChangeOutcomeSchema>;

/** Values of one record, by custom field id. */
export const customValuesSchema = z.record(z.string().regex(/^\d+$/), z.unknown());
export type CustomValues = z.infer<typeof customValuesSchema>;

export const customValuesBody = z.object({ Values: customValuesSchema });

/** A record's custom fields (those the caller may see) and its values. */
export const recordCustomValuesSchema = z.object({
  Fields: z.array(customFieldSchema),
  Values: customValuesSchema,
  /** Field ids the caller may change. */
  Editable: z.array(z.number().int()),
});
export type RecordCustomValues = z.infer<typeof recordCustomValuesSchema>;
