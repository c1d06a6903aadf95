/**
 * Custom fields (decision 0111): the fields each association adds to the records of a resource that opts in
 * (`customFields` in its declaration: contacts, later memberships and events), and their values.
 *
 * Values live in one typed table, a row per record and field, each value in the column of its kind, so that a list
 * filters and sorts by a custom field through an index that yields the matching records in order:
 * `(tenant_id, field_id, <typed column>, record_id)`. Tenant-owned: tenant_id first in every key, row-level
 * security forced (custom_fields_rls migration).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const customFields = pgTable(
  'custom_fields',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    customFieldId: tenantSerial('custom_field_id', 'custom_fields'),
    /** The entity whose records take the field (a resource's `customFields.entity`: Contact). */
    entity: text('entity').notNull(),
    /**
     * The record the field belongs to when its entity's declaration has a scope (an event's registration question:
     * the EventId); null for a field every record of the entity takes.
     */
    scopeId: bigint('scope_id', { mode: 'number' }),
    name: text('name').notNull(),
    helpText: text('help_text'),
    dataTypeId: integer('data_type_id').notNull(),
    required: boolean('required').notNull().default(false),
    defaultValue: jsonb('default_value'),
    pageNumber: integer('page_number').notNull().default(1),
    sortOrder: integer('sort_order').notNull().default(0),
    /** staff, memberRead or memberEdit (CUSTOM_FIELD_VISIBILITIES). */
    visibility: text('visibility').notNull().default('staff'),
    inDirectory: boolean('in_directory').notNull().default(false),
    searchable: boolean('searchable').notNull().default(false),
    isPublic: boolean('is_public').notNull().default(false),
    isArchived: boolean('is_archived').notNull().default(false),
    /** SelectListItems (spec 000 section 3); a choice's Id is unique within the field and never reused. */
    choices: jsonb('choices').notNull().default(sql`'[]'::jsonb`),
    isDeleted: boolean('is_deleted').notNull().default(false),
    version: recordVersion(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.customFieldId] }),
    index('custom_fields_entity_idx').on(t.tenantId, t.entity, t.pageNumber, t.sortOrder),
    index('custom_fields_scope_idx').on(t.tenantId, t.entity, t.scopeId).where(sql`scope_id is not null`),
  ],
);

export const customFieldValues = pgTable(
  'custom_field_values',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    fieldId: bigint('field_id', { mode: 'number' }).notNull(),
    /** The record's key (a contact's id). */
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    /** Text, long text, email, phone, website; a fill-in answer's text. Sorted and filtered by its first 200 characters, lower-cased. */
    textValue: text('text_value'),
    /** Number; currency in cents. */
    numberValue: numeric('number_value'),
    dateValue: date('date_value', { mode: 'string' }),
    datetimeValue: ts('datetime_value'),
    boolValue: boolean('bool_value'),
    /** The choice of a dropdown, dropdown with fill-in (the Other choice for a fill-in) or yes/no. */
    choiceId: bigint('choice_id', { mode: 'number' }),
    /** The choices of a multi-choice. */
    choiceIds: bigint('choice_ids', { mode: 'number' }).array(),
    /** The uploaded-file model of a file field. */
    fileValue: jsonb('file_value'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.fieldId, t.recordId] }),
    index('custom_field_values_record_idx').on(t.tenantId, t.recordId),
    index('custom_field_values_choice_idx')
      .on(t.tenantId, t.fieldId, t.choiceId, t.recordId)
      .where(sql`choice_id is not null`),
    index('custom_field_values_date_idx')
      .on(t.tenantId, t.fieldId, t.dateValue, t.recordId)
      .where(sql`date_value is not null`),
    index('custom_field_values_datetime_idx')
      .on(t.tenantId, t.fieldId, t.datetimeValue, t.recordId)
      .where(sql`datetime_value is not null`),
    index('custom_field_values_number_idx')
      .on(t.tenantId, t.fieldId, t.numberValue, t.recordId)
      .where(sql`number_value is not null`),
    index('custom_field_values_text_idx')
      .on(t.tenantId, t.fieldId, sql`lower(left(${t.textValue}, 200))`, t.recordId)
      .where(sql`text_value is not null`),
    // Contains and starts-with on a text value (and a fill-in's text): the expression the list's filter reads.
    index('custom_field_values_text_trgm_idx')
      .using('gin', sql`lower(${t.textValue}) gin_trgm_ops`)
      .where(sql`text_value is not null`),
    index('custom_field_values_choices_idx').using('gin', t.choiceIds).where(sql`choice_ids is not null`),
  ],
);

/**
 * The (filter field, sort field) pairs lists asked for (decision 0196): a list filtered by one choice of a custom
 * field and sorted by a numeric-like custom field (number, currency, date, date-time) asks for its pair; a job fills
 * the pair's keys and marks it ready (`ready_at`). At most 16 per association; unused for 30 days (`asked_at`, renewed
 * once a day by a list that reads it), dropped by the daily fold.
 */
export const customFieldSortPairs = pgTable(
  'custom_field_sort_pairs',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    filterFieldId: bigint('filter_field_id', { mode: 'number' }).notNull(),
    sortFieldId: bigint('sort_field_id', { mode: 'number' }).notNull(),
    askedAt: ts('asked_at').notNull().defaultNow(),
    readyAt: ts('ready_at'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.filterFieldId, t.sortFieldId] })],
);

/**
 * The keys of a pair (decision 0196): per record with a choice of the filter field, that choice and the record's
 * sort value as a number (the number, the date as days since 1970-01-01, the date-time as epoch seconds; null
 * without one). Kept by a statement trigger on custom_field_values; a page filtered by one choice and sorted by the
 * other field is a range of `custom_field_pair_keys_order_idx`, index-only.
 */
export const customFieldPairKeys = pgTable(
  'custom_field_pair_keys',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    filterFieldId: bigint('filter_field_id', { mode: 'number' }).notNull(),
    sortFieldId: bigint('sort_field_id', { mode: 'number' }).notNull(),
    choiceId: bigint('choice_id', { mode: 'number' }).notNull(),
    sortValue: numeric('sort_value'),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.filterFieldId, t.sortFieldId, t.recordId] }),
    index('custom_field_pair_keys_order_idx').on(
      t.tenantId,
      t.filterFieldId,
      t.sortFieldId,
      t.choiceId,
      t.sortValue,
      t.recordId,
    ),
  ],
);
