/**
 * Contacts (individuals and organisations), their contact-info entries and the links between them, the per-tenant
 * counters that keep the list's total cheap, and the one search index every searchable entity writes to.
 * Tenant-owned: tenant_id first in every primary key and index, row-level security forced (0007_contacts_rls).
 */

import {
  contactEntriesResource,
  contactLinksResource,
  contactsResource,
  parentFieldsOf,
} from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, resourceListIndexes, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const contacts = pgTable(
  'contacts',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    contactId: tenantSerial('contact_id', 'contacts'),
    contactType: text('contact_type').notNull().default('individual'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    organizationName: text('organization_name'),
    /** "Last, First" for individuals, the organisation name otherwise: the list's sort key. */
    displayName: text('display_name').notNull(),
    status: text('status').notNull().default('active'),
    accountNumber: text('account_number'),
    email: text('email'),
    phone: text('phone'),
    website: text('website'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    stateProvince: text('state_province'),
    postalCode: text('postal_code'),
    countryCode: text('country_code'),
    isListed: boolean('is_listed').notNull().default(false),
    /** Bit set of what the member directory shows (DIRECTORY_FIELDS in shared). */
    publishedFields: integer('published_fields').notNull().default(0),
    notes: text('notes'),
    /** The member's own sign-in, when the contact is a member who may edit their profile. */
    userId: bigint('user_id', { mode: 'number' }),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.contactId] }),
    // Every page of the list in order: each sortable field, alone and after each named filter's fields (partial:
    // live rows only), derived from the resource (decision 0100).
    ...resourceListIndexes('contacts', t, contactsResource),
    index('contacts_account_idx').on(t.tenantId, t.accountNumber),
    index('contacts_email_idx').on(t.tenantId, sql`lower(${t.email})`),
    index('contacts_postal_idx').on(t.tenantId, t.postalCode),
    // The duplicate check's name and postal code: postal codes compared without spaces, dashes or case.
    index('contacts_postal_key_idx')
      .on(t.tenantId, sql`upper(regexp_replace(${t.postalCode}, '[[:space:]-]', '', 'g'))`)
      .where(sql`not is_deleted`),
    index('contacts_user_idx').on(t.tenantId, t.userId),
  ],
);

/** Contact-info entries: CommType (email, phone, website, unknown) detected from Value. */
export const contactEntries = pgTable(
  'contact_entries',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    entryId: tenantSerial('entry_id', 'contact_entries'),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    commType: text('comm_type').notNull(),
    value: text('value').notNull(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.entryId] }),
    ...resourceListIndexes(
      'contact_entries',
      t,
      contactEntriesResource,
      parentFieldsOf(contactEntriesResource, [contactsResource]),
    ),
    index('contact_entries_contact_idx').on(t.tenantId, t.contactId),
    index('contact_entries_value_idx').on(t.tenantId, sql`lower(${t.value})`),
  ],
);

/** Links between contacts: an individual is an employee of an organisation, or its primary contact. */
export const contactLinks = pgTable(
  'contact_links',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    linkId: tenantSerial('link_id', 'contact_links'),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    relatedContactId: bigint('related_contact_id', { mode: 'number' }).notNull(),
    linkType: text('link_type').notNull(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.linkId] }),
    ...resourceListIndexes(
      'contact_links',
      t,
      contactLinksResource,
      parentFieldsOf(contactLinksResource, [contactsResource]),
    ),
    index('contact_links_contact_idx').on(t.tenantId, t.contactId),
    index('contact_links_related_idx').on(t.tenantId, t.relatedContactId),
  ],
);

/**
 * Exact live-contact counts per tenant: the total (facet '') and one row per value of each counted facet
 * (status, contact type, listed), maintained in the transaction of every write. The list's total reads one row.
 */
export const contactCounts = pgTable(
  'contact_counts',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    facet: text('facet').notNull(),
    value: text('value').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.facet, t.value] })],
);

/**
 * The global search index: one row per searchable record and audience ('staff' sees the back office's records,
 * 'member' the member area's). `search_text` is folded (lower case, accents removed) by the shared rule, so
 * queries fold the same way; trigram and full-text indexes serve partial words and small typos.
 */
export const searchDocuments = pgTable(
  'search_documents',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    audience: text('audience').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    title: text('title').notNull(),
    /** Folded title: exact and prefix matches rank first. */
    titleKey: text('title_key').notNull(),
    searchText: text('search_text').notNull(),
    /** The hit's other fields as the search answers them (RelatedTo, City, StateProvince, Status, …). */
    facets: jsonb('facets').$type<Record<string, string | null>>().notNull().default(sql`'{}'::jsonb`),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.audience, t.entityType, t.entityId] }),
    index('search_documents_title_idx').on(t.tenantId, t.audience, sql`${t.titleKey} text_pattern_ops`),
    index('search_documents_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // Names first: substring and typo candidates from the short folded title (decision 0041).
    index('search_documents_title_trgm_idx').using('gin', sql`${t.titleKey} gin_trgm_ops`),
  ],
);
