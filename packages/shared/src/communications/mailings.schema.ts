/**
 * Mailings: one message to an audience, delivered through the platform mailer as a job, with one log row per
 * recipient. Wire shapes for the server's routes and the web's screens.
 */
import { z } from 'zod';
import { EVENT_ATTENDEE_STATUS, EVENT_ATTENDEE_STATUS_OPTIONS } from '../events/events.rules.ts';
import { MEMBERSHIP_STATUSES, type MembershipStatus } from '../memberships/memberships.rules.ts';
import { filterCriterionSchema } from '../platform/list-protocol.schema.ts';
import { designSchema } from './design.schema.ts';

const recordId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const membershipStatusSchema = z.enum(
  MEMBERSHIP_STATUSES.map((s) => s.Id) as [MembershipStatus, ...MembershipStatus[]],
);
const attendeeStatusSchema = z
  .number()
  .int()
  .refine((n) => EVENT_ATTENDEE_STATUS_OPTIONS.some((o) => o.Id === n), 'Unknown attendee status.');

/** Who a membership audience reaches by default: members in good standing. */
export const DEFAULT_AUDIENCE_MEMBERSHIP_STATUSES: MembershipStatus[] = ['active', 'grace'];
/** Who an event audience reaches by default: the registered attendees. */
export const DEFAULT_AUDIENCE_ATTENDEE_STATUSES: number[] = [EVENT_ATTENDEE_STATUS.Registered];

/**
 * Who receives a mailing: contacts chosen on the list, a filter of the contacts list, the members of chosen
 * membership types, levels and statuses, or the attendees of an event; every kind is evaluated when the send starts.
 */
export const mailingAudienceSchema = z.discriminatedUnion('Kind', [
  z.object({
    Kind: z.literal('contacts'),
    ContactIds: z.array(z.number().int().positive()).min(1).max(100_000),
  }),
  z.object({
    Kind: z.literal('filter'),
    /** A named filter of the contacts list (0 none: everyone with an address; 9999 advanced: `Criteria`). */
    FilterId: z.number().int().min(0),
    Criteria: z.array(filterCriterionSchema).max(50).optional(),
    SearchText: z.string().max(200).optional(),
  }),
  z.object({
    Kind: z.literal('membership'),
    /** Membership types whose members receive it; empty: every type. */
    MembershipTypeIds: z.array(recordId).max(200),
    /** Levels within those types; empty: every level. */
    MembershipLevelIds: z.array(recordId).max(500),
    Statuses: z.array(membershipStatusSchema).min(1, 'Choose at least one membership status.').max(10),
    /** The people an organisation's membership covers (its secondary members) receive it too. */
    IncludeSecondaryMembers: z.boolean(),
  }),
  z.object({
    Kind: z.literal('event'),
    EventId: recordId,
    /** Attendee statuses reached (registered by default); guests named only by an address are included. */
    AttendeeStatusIds: z.array(attendeeStatusSchema).min(1, 'Choose at least one attendee status.').max(10),
  }),
]);
export type MailingAudience = z.infer<typeof mailingAudienceSchema>;

/** What the mailing screen offers to choose a membership or event audience from. */
export const audienceOptionsSchema = z.object({
  MembershipTypes: z.array(
    z.object({
      Id: z.number(),
      Name: z.string(),
      Levels: z.array(z.object({ Id: z.number(), Name: z.string() })),
    }),
  ),
  Events: z.array(z.object({ Id: z.number(), Name: z.string(), StartsAt: z.string() })),
});
export type AudienceOptions = z.infer<typeof audienceOptionsSchema>;

/** How many people an audience reaches as things stand (it is chosen again when the send starts). */
export const audienceCountSchema = z.object({
  /** Distinct addresses that would be sent to. */
  Recipients: z.number().int(),
  /** Distinct addresses skipped: on the suppression list (unsubscribed or bounced). */
  Suppressed: z.number().int(),
  /** People of the audience without an email address. */
  WithoutAddress: z.number().int(),
});
export type AudienceCount = z.infer<typeof audienceCountSchema>;

export const MAILING_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;
export const RECIPIENT_STATUSES = [
  'queued',
  /** Taken by a run of the send; not handed to the mail server yet (a restart queues it again). */
  'claimed',
  /** Being handed to the mail server. */
  'sending',
  'sent',
  'deferred',
  'failed',
  'bounced',
  'suppressed',
  /** Handed to the mail server when the server stopped, its answer unknown: not sent again. */
  'unknown',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const mailingInputSchema = z.object({
  Name: z.string().trim().min(1, 'Name is required.').max(200),
  TemplateId: z.number().int().positive().nullable().optional(),
  Subject: z.string().trim().min(1, 'Subject is required.').max(300),
  BodyHtml: z.string().max(500_000),
  /** A designed message (the email designer): the server renders BodyHtml from it and ignores the one sent. */
  DesignJson: designSchema.nullable().optional(),
  Audience: mailingAudienceSchema,
});
export type MailingInput = z.infer<typeof mailingInputSchema>;

export const mailingSchema = z.object({
  MailingId: z.number(),
  Name: z.string(),
  TemplateId: z.number().nullable(),
  Subject: z.string(),
  BodyHtml: z.string(),
  DesignJson: designSchema.nullable(),
  Audience: mailingAudienceSchema,
  Status: z.enum(MAILING_STATUSES),
  ScheduledAt: z.string().nullable(),
  StartedAt: z.string().nullable(),
  FinishedAt: z.string().nullable(),
  RecipientCount: z.number(),
  /** Recipients by delivery status. */
  Counts: z.record(z.string(), z.number()),
  CreatedAt: z.string(),
});
export type Mailing = z.infer<typeof mailingSchema>;

export const mailingSummarySchema = mailingSchema.omit({ BodyHtml: true, DesignJson: true, Audience: true });
export type MailingSummary = z.infer<typeof mailingSummarySchema>;

export const recipientLogSchema = z.object({
  RecipientId: z.number(),
  MailingId: z.number().nullable(),
  ContactId: z.number().nullable(),
  Email: z.string(),
  Subject: z.string(),
  Status: z.enum(RECIPIENT_STATUSES),
  Attempts: z.number(),
  LastError: z.string().nullable(),
  SentAt: z.string().nullable(),
  UpdatedAt: z.string(),
});
export type RecipientLog = z.infer<typeof recipientLogSchema>;

export const sendMailingSchema = z.object({
  /** Send later: an ISO instant in the future; now when absent. */
  ScheduledAt: z.iso.datetime({ offset: true }).nullable().optional(),
});

export const previewSchema = z.object({ ContactId: z.number().int().positive().nullable().optional() });
export const previewAnswerSchema = z.object({
  Subject: z.string(),
  Html: z.string(),
  Email: z.string().nullable(),
});

/** RFC 8058: the body a mail client posts to the List-Unsubscribe address for a one-click unsubscribe. */
export const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';

export const preferencesSchema = z.object({
  Email: z.string(),
  Association: z.string(),
  Subscribed: z.boolean(),
});

/** Retries of a deferred (4xx or unreachable) recipient: after 1, 5, 30 minutes, then 2 hours; then failed. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000] as const;

/** When a deferred recipient is tried again after `attempts` tries; null when it has had them all. */
export function nextRetryDelay(attempts: number): number | null {
  return RETRY_DELAYS_MS[attempts - 1] ?? null;
}

/** What a delivery status notification handed to `POST /api/communication/bounces` did. */
export const bounceOutcomeSchema = z.object({
  /** Whether a recipient of ours was found for it. */
  Matched: z.boolean(),
  Hard: z.number(),
  Soft: z.number(),
  Message: z.string(),
});
export type BounceOutcome = z.infer<typeof bounceOutcomeSchema>;

/** A contact's address as mailings see it: suppressed (unsubscribed, bounced) or not, and its bounces. */
export const deliverabilitySchema = z.object({
  Email: z.string().nullable(),
  Suppressed: z
    .object({ Reason: z.string(), Detail: z.string().nullable(), CreatedAt: z.string() })
    .nullable(),
  HardBounces: z.number(),
  SoftBounces: z.number(),
  LastBounce: z
    .object({
      Kind: z.string(),
      Status: z.string().nullable(),
      Diagnostic: z.string().nullable(),
      CreatedAt: z.string(),
    })
    .nullable(),
});
export type Deliverability = z.infer<typeof deliverabilitySchema>;
