/**
 * The tenant's file library (folders and files in one tree, contacts' files among them) and its images. The bytes
 * live in storage under server-made keys prefixed by the tenant; these rows hold names, places and crop settings.
 * Tenant-owned: tenant_id first in every primary key and index, row-level security forced (files_rls migration).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

/** A library entry: type 1 is a folder, 2 a file (spec 001 section 3). */
export const files = pgTable(
  'files',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    fileId: tenantSerial('file_id', 'files'),
    type: integer('type').notNull().default(2),
    /** The folder holding the entry; null at the top of the library (or of a contact's files). */
    folderId: bigint('folder_id', { mode: 'number' }),
    /** Set on the files and folders of one contact (the contact record's Files tab). */
    contactId: bigint('contact_id', { mode: 'number' }),
    /** Set on a task's attachments (the task record's Files tab); such files sit in no folder. */
    taskId: bigint('task_id', { mode: 'number' }),
    /** Set on a project's files (TasksProject.General's Files tab); such files sit in no folder. */
    projectId: bigint('project_id', { mode: 'number' }),
    name: text('name').notNull(),
    contentType: text('content_type'),
    size: bigint('size', { mode: 'number' }),
    storageKey: text('storage_key'),
    isPublic: boolean('is_public').notNull().default(false),
    /** The unguessable part of a public file's address (128 random bits), null for private files. */
    publicToken: text('public_token'),
    createdBy: bigint('created_by', { mode: 'number' }),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.fileId] }),
    // A folder's page: folders first, then by name (keyset-friendly), live rows only; tasks' and projects' files
    // (never in a folder) are left out, so however many there are, the library's top page does not read them.
    index('files_folder_idx')
      .on(t.tenantId, t.contactId, t.folderId, t.type, t.name, t.fileId)
      .where(sql`not is_deleted and task_id is null and project_id is null`),
    index('files_task_idx')
      .on(t.tenantId, t.taskId, t.name)
      .where(sql`task_id is not null and not is_deleted`),
    index('files_project_idx')
      .on(t.tenantId, t.projectId, t.name)
      .where(sql`project_id is not null and not is_deleted`),
    index('files_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    uniqueIndex('files_public_token_idx').on(t.tenantId, t.publicToken),
  ],
);

/**
 * An image: a library file with its texts and its crop. The original stays as uploaded; the served variant and the
 * thumbnail are made on the server from the original and the crop, and replaced when the crop changes.
 */
export const images = pgTable(
  'images',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    imageId: tenantSerial('image_id', 'images'),
    fileId: bigint('file_id', { mode: 'number' }).notNull(),
    /** Where the image is used (IMAGE_USAGES in shared) and for which record (a contact's id for its photo). */
    usageId: integer('usage_id'),
    sourceId: bigint('source_id', { mode: 'number' }),
    sortOrder: integer('sort_order').notNull().default(0),
    title: text('title'),
    caption: text('caption'),
    shortDescription: text('short_description'),
    cropX: integer('crop_x'),
    cropY: integer('crop_y'),
    cropWidth: integer('crop_width'),
    cropHeight: integer('crop_height'),
    forceAspect: doublePrecision('force_aspect'),
    /** Size of the original once its EXIF orientation is applied. */
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    variantKey: text('variant_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    /** Changes with every new variant, so browsers never show a stale crop from their cache. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.imageId] }),
    index('images_usage_idx').on(t.tenantId, t.usageId, t.sourceId, t.sortOrder),
    index('images_file_idx').on(t.tenantId, t.fileId),
  ],
);
