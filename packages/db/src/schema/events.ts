/**
 * Events: categories, events (a repeat rule in their own timezone), their occurrences (EventDetails, expanded from
 * the rule on the server; seats_taken kept in the registration's transaction under a row lock), registration types
 * with fees in integer cents, registrations (one registrant, one or more attendees) and attendees.
 * Tenant-owned: tenant_id first in every primary key and index, row-level security forced (events_rls migration).
 */
import {
  eventAttendeesResource,
  eventCategoriesResource,
  eventDetailsResource,
  eventsResource,
  parentFieldsOf,
} from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, resourceListIndexes, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

export const eventCategories = pgTable(
  'event_categories',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    categoryId: tenantSerial('category_id', 'event_categories'),
    name: text('name').notNull(),
    color: text('color'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.categoryId] }),
    ...resourceListIndexes('event_categories', t, eventCategoriesResource),
  ],
);

export const events = pgTable(
  'events',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    eventId: tenantSerial('event_id', 'events'),
    name: text('name').notNull(),
    categoryId: bigint('category_id', { mode: 'number' }),
    status: text('status').notNull().default('draft'),
    visibility: text('visibility').notNull().default('public'),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** IANA name; null: the association's timezone. */
    timezoneId: text('timezone_id'),
    repeats: text('repeats').notNull().default('none'),
    repeatUntil: date('repeat_until', { mode: 'string' }),
    /** The custom rule a user typed (Repeats = custom). */
    recurrenceRule: text('recurrence_rule'),
    location: text('location'),
    onlineUrl: text('online_url'),
    capacity: integer('capacity'),
    waitlistEnabled: boolean('waitlist_enabled').notNull().default(true),
    registrationOpen: boolean('registration_open').notNull().default(true),
    fullRefundDays: integer('full_refund_days'),
    lateRefundPercent: integer('late_refund_percent'),
    creditHours: integer('credit_hours'),
    description: text('description'),
    /** The event's image: a file of the library (an `image` field, decision 0092); null for none. */
    imageFileId: bigint('image_file_id', { mode: 'number' }),
    /** The unguessable id of the public page and feeds (no enumeration of ids). */
    hashedEventId: text('hashed_event_id').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.eventId] }),
    ...resourceListIndexes('events', t, eventsResource),
    uniqueIndex('events_hashed_idx').on(t.tenantId, t.hashedEventId),
    index('events_category_idx').on(t.tenantId, t.categoryId),
  ],
);

export const eventDetails = pgTable(
  'event_details',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    eventDetailId: tenantSerial('event_detail_id', 'event_details'),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** Where the rule placed it: the key a moved or cancelled occurrence keeps. */
    originalStartsAt: ts('original_starts_at'),
    isException: boolean('is_exception').notNull().default(false),
    location: text('location'),
    onlineUrl: text('online_url'),
    capacity: integer('capacity'),
    status: text('status').notNull().default('scheduled'),
    /** Seats held (registered, offered, awaiting payment, attended, no-show), kept under the row's lock. */
    seatsTaken: integer('seats_taken').notNull().default(0),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.eventDetailId] }),
    ...resourceListIndexes(
      'event_details',
      t,
      eventDetailsResource,
      parentFieldsOf(eventDetailsResource, [eventsResource]),
    ),
    // The calendar's range query: occurrences overlapping [start, end).
    index('event_details_range_idx').on(t.tenantId, t.startsAt, t.endsAt).where(sql`not is_deleted`),
    index('event_details_event_idx').on(t.tenantId, t.eventId, t.startsAt),
  ],
);

export const eventRegistrationTypes = pgTable(
  'event_registration_types',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    registrationTypeId: tenantSerial('registration_type_id', 'event_registration_types'),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    /** Money in integer cents. */
    memberPrice: bigint('member_price', { mode: 'number' }).notNull().default(0),
    nonMemberPrice: bigint('non_member_price', { mode: 'number' }).notNull().default(0),
    earlyBirdUntil: date('early_bird_until', { mode: 'string' }),
    earlyBirdDiscount: bigint('early_bird_discount', { mode: 'number' }).notNull().default(0),
    capacity: integer('capacity'),
    membersOnly: boolean('members_only').notNull().default(false),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.registrationTypeId] }),
    index('event_registration_types_event_idx').on(t.tenantId, t.eventId),
  ],
);

/** A registration: one registrant (a contact) registering one or more attendees for one occurrence. */
export const eventRegistrations = pgTable(
  'event_registrations',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    registrationId: tenantSerial('registration_id', 'event_registrations'),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    eventDetailId: bigint('event_detail_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }),
    invoiceId: bigint('invoice_id', { mode: 'number' }),
    /** Where it came from: backoffice, member or public. */
    channel: text('channel').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.registrationId] }),
    index('event_registrations_contact_idx').on(t.tenantId, t.contactId),
    index('event_registrations_detail_idx').on(t.tenantId, t.eventDetailId),
  ],
);

export const eventAttendees = pgTable(
  'event_attendees',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    attendeeId: tenantSerial('attendee_id', 'event_attendees'),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    eventDetailId: bigint('event_detail_id', { mode: 'number' }).notNull(),
    registrationId: bigint('registration_id', { mode: 'number' }).notNull(),
    /** The attendee's contact; null for a guest named only by name and email. */
    contactId: bigint('contact_id', { mode: 'number' }),
    attendeeName: text('attendee_name').notNull(),
    attendeeEmail: text('attendee_email'),
    registrationTypeId: bigint('registration_type_id', { mode: 'number' }),
    eventAttendeeStatusId: integer('event_attendee_status_id').notNull(),
    registeredAttendeesCount: integer('registered_attendees_count').notNull().default(1),
    checkedInAt: ts('checked_in_at'),
    /** Continuing-education credits earned by attending: the event's credits when checked in (the transcript). */
    creditsEarned: integer('credits_earned'),
    /** The code on the confirmation (and its QR code) scanned at the door. */
    checkInCode: text('check_in_code')
      .notNull()
      .default(sql`upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10))`),
    invoiceId: bigint('invoice_id', { mode: 'number' }),
    /** What was paid for this seat, in cents (for the refund rule). */
    paidCents: bigint('paid_cents', { mode: 'number' }).notNull().default(0),
    offerExpiresAt: ts('offer_expires_at'),
    notes: text('notes'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.attendeeId] }),
    ...resourceListIndexes(
      'event_attendees',
      t,
      eventAttendeesResource,
      parentFieldsOf(eventAttendeesResource, [eventsResource]),
    ),
    index('event_attendees_detail_idx').on(t.tenantId, t.eventDetailId, t.eventAttendeeStatusId),
    index('event_attendees_contact_idx').on(t.tenantId, t.contactId),
    index('event_attendees_registration_idx').on(t.tenantId, t.registrationId),
    uniqueIndex('event_attendees_code_idx').on(t.tenantId, t.checkInCode),
  ],
);

/**
 * A member's calendar feed of their own registrations: the secret token of its address (`/api/events/my-feed/
 * {tenant}/{token}.ics`), one per contact. Resetting replaces the token, so the old address answers 404.
 */
export const eventMemberFeeds = pgTable(
  'event_member_feeds',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    token: text('token').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.contactId] }),
    uniqueIndex('event_member_feeds_token_idx').on(t.tenantId, t.token),
  ],
);

/** Certification programmes: credits to earn by attending events within a period (decision 0142). */
export const certificationProgrammes = pgTable(
  'certification_programmes',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    programmeId: tenantSerial('programme_id', 'certification_programmes'),
    name: text('name').notNull(),
    requiredCredits: integer('required_credits').notNull(),
    periodMonths: integer('period_months').notNull(),
    /** Off: members see the programme and register themselves. */
    staffOnly: boolean('staff_only').notNull().default(false),
    description: text('description'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.programmeId] })],
);

/**
 * A contact's registration in a programme: its period, the credits required when it was made, and its progress
 * (credits earned at events checked in within the period), kept by check-in and its undo in their transaction.
 */
export const certificationRegistrations = pgTable(
  'certification_registrations',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    certificationRegistrationId: tenantSerial('certification_registration_id', 'certification_registrations'),
    programmeId: bigint('programme_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    requiredCredits: integer('required_credits').notNull(),
    creditsEarned: integer('credits_earned').notNull().default(0),
    status: text('status').notNull().default('in-progress'),
    completedAt: ts('completed_at'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.certificationRegistrationId] }),
    index('certification_registrations_contact_idx').on(t.tenantId, t.contactId),
    index('certification_registrations_programme_idx').on(t.tenantId, t.programmeId),
    // One live registration per contact and programme.
    uniqueIndex('certification_registrations_once_idx')
      .on(t.tenantId, t.programmeId, t.contactId)
      .where(sql`not is_deleted`),
  ],
);
