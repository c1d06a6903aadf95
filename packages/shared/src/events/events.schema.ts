/**
 * Wire shapes of the events routes (the generic layer's lists and records aside): getEventId, the calendar's range
 * feed, registration, cancel, waitlist offers, check-in, the member area and the public page.
 */
import { z } from 'zod';
import { customFieldSchema } from '../custom-fields/custom-fields.schema.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** `GET /api/events/getEventId/{id}` (spec 000 section 7): answer EventId, EventDetailId, HashEventId. */
export const getEventIdAnswerSchema = z.object({
  EventId: z.number(),
  EventDetailId: z.number().nullable(),
  HashEventId: z.string(),
});
export type GetEventIdAnswer = z.infer<typeof getEventIdAnswerSchema>;

/** The calendar asks for start, end and timezone (spec 001: FullCalendar's event feed sends start, end, timeZone). */
export const calendarQuerySchema = z.object({
  start: z.string().min(8).max(40),
  end: z.string().min(8).max(40),
  timeZone: z.string().max(64).optional(),
  timezone: z.string().max(64).optional(),
  categoryId: id.optional(),
});
export type CalendarQuery = z.infer<typeof calendarQuerySchema>;

/** One occurrence on a calendar, already expanded; instants in UTC, shown in the viewer's timezone. */
export const calendarOccurrenceSchema = z.object({
  id: z.string(),
  EventId: z.number(),
  EventDetailId: z.number(),
  HashedEventId: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  status: z.string(),
  eventStatus: z.string(),
  color: z.string().nullable(),
  location: z.string().nullable(),
  capacity: z.number().nullable(),
  seatsLeft: z.number().nullable(),
  timezone: z.string(),
  /** The event's image (a library file's id): the calendar's agenda shows its thumbnail. */
  ImageFileId: z.number().nullable(),
});
export type CalendarOccurrence = z.infer<typeof calendarOccurrenceSchema>;

/** Answers to an event's registration questions: values by custom field id (each checked against its field). */
export const registrationAnswersSchema = z.record(z.string().regex(/^\d{1,15}$/), z.unknown());

export const attendeeInputSchema = z.object({
  ContactId: id.optional(),
  Name: z.string().trim().max(200).optional(),
  Email: z.string().trim().max(200).optional(),
  /** This person's answers to the registration questions. */
  Answers: registrationAnswersSchema.optional(),
});

export const registerBodySchema = z.object({
  EventDetailId: id,
  RegistrationTypeId: id.optional(),
  /** The registrant (back office: any contact; member area: ignored, the member's own contact). */
  ContactId: id.optional(),
  /** The people attending; empty means the registrant alone. */
  Attendees: z.array(attendeeInputSchema).max(50).optional(),
  /** Answers to the registration questions for each person who gives none of their own. */
  Answers: registrationAnswersSchema.optional(),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const registeredAttendeeSchema = z.object({
  AttendeeId: z.number(),
  AttendeeName: z.string(),
  EventAttendeeStatusId: z.number(),
  CheckInCode: z.string(),
});

export const registerAnswerSchema = z.object({
  RegistrationId: z.number().nullable(),
  outcome: z.enum(['registered', 'waitlisted', 'refused', 'pending_payment']),
  message: z.string(),
  Attendees: z.array(registeredAttendeeSchema),
  InvoiceId: z.number().nullable(),
  totalCents: z.number(),
});
export type RegisterAnswer = z.infer<typeof registerAnswerSchema>;

export const cancelAnswerSchema = z.object({
  AttendeeId: z.number(),
  EventAttendeeStatusId: z.number(),
  refundCents: z.number(),
  promoted: z.array(z.number()),
  message: z.string(),
});
export type CancelAnswer = z.infer<typeof cancelAnswerSchema>;

export const checkInRowSchema = z.object({
  AttendeeId: z.number(),
  AttendeeName: z.string(),
  AttendeeEmail: z.string().nullable(),
  EventAttendeeStatusId: z.number(),
  CheckedInAt: z.string().nullable(),
  CheckInCode: z.string(),
  RegistrationType: z.string().nullable(),
});
export type CheckInRow = z.infer<typeof checkInRowSchema>;

export const checkInListSchema = z.object({
  EventId: z.number(),
  EventDetailId: z.number(),
  Name: z.string(),
  StartsAt: z.string(),
  /** When the occurrence ends: after it, the door may mark the rest as no-shows. */
  EndsAt: z.string(),
  registered: z.number(),
  checkedIn: z.number(),
  /** Registered (status 4) and not checked in: the no-shows once the occurrence is over. */
  notCheckedIn: z.number(),
  Results: z.array(checkInRowSchema),
});
export type CheckInList = z.infer<typeof checkInListSchema>;

export const checkInBodySchema = z.object({
  EventDetailId: id,
  AttendeeId: id.optional(),
  /** The code on the confirmation (typed or scanned). */
  Code: z.string().trim().max(40).optional(),
  /** Undo a check-in made by mistake. */
  Undo: z.boolean().optional(),
});

/** An occurrence as every answer about it starts: which, when, and whether it is scheduled or cancelled. */
const occurrenceSchema = z.object({
  EventDetailId: z.number(),
  StartsAt: z.string(),
  EndsAt: z.string(),
  Status: z.string(),
});

/** An event as the member area and the public page show it (EventDetail.General). */
export const eventPageSchema = z.object({
  EventId: z.number(),
  HashedEventId: z.string(),
  Name: z.string(),
  Description: z.string().nullable(),
  Category: z.string().nullable(),
  Location: z.string().nullable(),
  OnlineUrl: z.string().nullable(),
  Timezone: z.string(),
  Visibility: z.string(),
  RegistrationOpen: z.boolean(),
  WaitlistEnabled: z.boolean(),
  CreditHours: z.number().nullable(),
  /** The event's image (its crop applied) and its thumbnail, where this page's reader may fetch them; null: none. */
  Image: z.object({ Url: z.string(), ThumbnailUrl: z.string() }).nullable(),
  Occurrences: z.array(
    occurrenceSchema.extend({
      Location: z.string().nullable(),
      seatsLeft: z.number().nullable(),
    }),
  ),
  RegistrationTypes: z.array(
    z.object({
      RegistrationTypeId: z.number(),
      Name: z.string(),
      priceCents: z.number(),
      discountCents: z.number(),
      MemberPrice: z.number(),
      NonMemberPrice: z.number(),
      EarlyBirdUntil: z.string().nullable(),
      MembersOnly: z.boolean(),
    }),
  ),
  /** The registration questions asked when registering (custom fields of attendees), in form order. */
  Questions: z.array(customFieldSchema),
});
export type EventPage = z.infer<typeof eventPageSchema>;

export const myRegistrationSchema = z.object({
  AttendeeId: z.number(),
  EventId: z.number(),
  EventDetailId: z.number(),
  HashedEventId: z.string(),
  EventName: z.string(),
  AttendeeName: z.string(),
  StartsAt: z.string(),
  EndsAt: z.string(),
  EventAttendeeStatusId: z.number(),
  CheckInCode: z.string(),
  OfferExpiresAt: z.string().nullable(),
  canCancel: z.boolean(),
});
export type MyRegistration = z.infer<typeof myRegistrationSchema>;

export const publicRegisterBodySchema = z.object({
  EventDetailId: id,
  RegistrationTypeId: id.optional(),
  FirstName: z.string().trim().min(1).max(100),
  LastName: z.string().trim().min(1).max(100),
  Email: z.email().max(200),
  Guests: z
    .array(z.object({ Name: z.string().trim().min(1).max(200), Email: z.string().max(200).optional() }))
    .max(20)
    .optional(),
  /** Answers to the registration questions members are asked. */
  Answers: registrationAnswersSchema.optional(),
});

/** One registration or attendance of a contact (the contact record's Events tab). */
export const contactEventRowSchema = z.object({
  AttendeeId: z.number(),
  EventId: z.number(),
  EventDetailId: z.number(),
  EventName: z.string(),
  Category: z.string().nullable(),
  StartsAt: z.string(),
  EndsAt: z.string(),
  Timezone: z.string(),
  /** The person attending (the contact, or a guest the contact registered). */
  AttendeeName: z.string(),
  /** Whether the contact attends (false: the contact registered someone else). */
  IsAttendee: z.boolean(),
  EventAttendeeStatusId: z.number(),
  RegistrationType: z.string().nullable(),
  CheckedInAt: z.string().nullable(),
  CreditsEarned: z.number().nullable(),
  InvoiceId: z.number().nullable(),
});
export type ContactEventRow = z.infer<typeof contactEventRowSchema>;

/** A contact's events: upcoming and past registrations, and the continuing-education transcript's total. */
export const contactEventsSchema = z.object({
  ContactId: z.number(),
  upcoming: z.number(),
  attended: z.number(),
  noShows: z.number(),
  cancelled: z.number(),
  /** Continuing-education credits earned by attending (checked in), all time. */
  credits: z.number(),
  Rows: z.array(contactEventRowSchema),
});
export type ContactEvents = z.infer<typeof contactEventsSchema>;

/**
 * The member's calendar feed of their own registrations: a secret address to subscribe to from a calendar program
 * (null until the member makes one). Resetting it makes a new address; the old one answers 404.
 */
export const memberFeedSchema = z.object({
  FeedUrl: z.string().nullable(),
  CreatedAt: z.string().nullable(),
});
export type MemberFeed = z.infer<typeof memberFeedSchema>;

/** The member's own registration in a certification programme, with its progress. */
export const myCertificationSchema = z.object({
  CertificationRegistrationId: z.number(),
  StartsOn: z.string(),
  EndsOn: z.string(),
  RequiredCredits: z.number(),
  CreditsEarned: z.number(),
  Status: z.string(),
  CompletedAt: z.string().nullable(),
});

/** A programme as the member sees it: open to members, or one they are registered in (then with their progress). */
export const memberCertificationSchema = z.object({
  ProgrammeId: z.number(),
  Name: z.string(),
  Description: z.string().nullable(),
  RequiredCredits: z.number(),
  PeriodMonths: z.number(),
  OpenToMembers: z.boolean(),
  Registration: myCertificationSchema.nullable(),
});
export type MemberCertification = z.infer<typeof memberCertificationSchema>;

/**
 * `GET /api/events/events/{id}/overview`: what the event record's Waitlist, Finances and Check-in tabs show. Money in
 * integer cents; billed, paid and outstanding over the registrations' invoices that are not void, refunded as the
 * credits their cancellations issued.
 */
export const eventOverviewSchema = z.object({
  Finances: z.object({
    Registrations: z.number(),
    Invoices: z.number(),
    BilledCents: z.number(),
    PaidCents: z.number(),
    OutstandingCents: z.number(),
    VoidedCents: z.number(),
    RefundedCents: z.number(),
    ByType: z.array(
      z.object({
        RegistrationTypeId: z.number().nullable(),
        Name: z.string(),
        Attendees: z.number(),
        PaidCents: z.number(),
      }),
    ),
  }),
  /** Waitlisted and offered attendees, by occurrence, in the order they joined the waitlist. */
  Waitlist: z.array(
    z.object({
      AttendeeId: z.number(),
      AttendeeName: z.string(),
      AttendeeEmail: z.string().nullable(),
      EventDetailId: z.number(),
      StartsAt: z.string(),
      EventAttendeeStatusId: z.number(),
      OfferExpiresAt: z.string().nullable(),
      CreatedAt: z.string(),
    }),
  ),
  /** Each occurrence with its seats and the door's count. */
  Occurrences: z.array(
    occurrenceSchema.extend({
      Capacity: z.number().nullable(),
      Registered: z.number(),
      CheckedIn: z.number(),
      Waitlisted: z.number(),
    }),
  ),
});
export type EventOverview = z.infer<typeof eventOverviewSchema>;
