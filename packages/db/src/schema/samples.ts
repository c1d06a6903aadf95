/**
 * The sample entity of the generic screen layer: one column per field type of the catalogue
 * (packages/shared/src/samples/samples.resource.ts). Tenant-owned, tenant_id first in the key, soft-deleted.
 */
import type { DateRangeValue, DecimalRange } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  time,
} from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const samples = pgTable(
  'samples',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    sampleId: tenantSerial('sample_id', 'samples'),
    name: text('name').notNull(),
    description: text('description'),
    quantity: integer('quantity'),
    /** Money in integer cents. */
    price: bigint('price', { mode: 'number' }),
    total: bigint('total', { mode: 'number' }),
    isActive: boolean('is_active').notNull().default(true),
    startDate: date('start_date', { mode: 'string' }),
    happensAt: ts('happens_at'),
    startTime: time('start_time'),
    phone: text('phone'),
    website: text('website'),
    email: text('email'),
    status: text('status'),
    category: text('category'),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    weekdays: integer('weekdays').notNull().default(0),
    scoreRange: jsonb('score_range').$type<DecimalRange>(),
    period: jsonb('period').$type<DateRangeValue>(),
    timezone: text('timezone'),
    ownerUserId: bigint('owner_user_id', { mode: 'number' }),
    notes: text('notes'),
    isDraft: boolean('is_draft').notNull().default(false),
    isDeleted: boolean('is_deleted').notNull().default(false),
    isVoided: boolean('is_voided').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.sampleId] }),
    index('samples_name_idx').on(t.tenantId, t.name),
  ],
);
