/** Shipped reports over events: registrations by event, each split by attendee status. */
import { defineReport } from '../platform/report.ts';

export const registrationsByEventReport = defineReport({
  ReportId: 'events.registrationsByEvent',
  Title: 'Event registrations by event',
  Description:
    'Attendees of each event, split by status (registered, waitlisted, attended, no-show, cancelled).',
  resource: 'eventAttendees',
  columns: ['AttendeeName', 'EventAttendeeStatusId', 'RegistrationTypeId', 'CreatedAt'],
  criteria: [],
  parameters: [],
  defaultSort: { field: 'CreatedAt', direction: 'asc' },
  pageSize: 25,
  groupBy: [
    { field: 'EventId', bucket: 'value' },
    { field: 'EventAttendeeStatusId', bucket: 'value' },
  ],
  aggregates: [],
  chart: { type: 'bar', measure: 'count' },
});

/** Each event report may be run for one event. */
const EVENT_PARAMETER = { name: 'EventId', label: 'Event', field: 'EventId' } as const;

/** Who came: attended and no-shows of each event, with the continuing-education credits earned. */
export const attendanceByEventReport = defineReport({
  ReportId: 'events.attendance',
  Title: 'Event attendance',
  Description:
    'Attendees checked in and no-shows of each event (occurrences that have happened), with the credits earned.',
  resource: 'eventAttendees',
  columns: ['AttendeeName', 'EventAttendeeStatusId', 'CheckedInAt', 'CreditsEarned'],
  criteria: [{ PropertyName: 'EventAttendeeStatusId', Operator: 'in', Value: [5, 6] }],
  parameters: [EVENT_PARAMETER],
  defaultSort: { field: 'AttendeeName', direction: 'asc' },
  pageSize: 25,
  groupBy: [
    { field: 'EventId', bucket: 'value' },
    { field: 'EventAttendeeStatusId', bucket: 'value' },
  ],
  aggregates: [{ fn: 'sum', field: 'CreditsEarned' }],
  chart: { type: 'bar', measure: 'count' },
});

/** What each event brought in: the fees paid for its seats (cancelled seats left out; refunds are credits). */
export const revenueByEventReport = defineReport({
  ReportId: 'events.revenue',
  Title: 'Revenue per event',
  Description:
    'The registration fees paid for the seats of each event that were not cancelled, and the average per seat.',
  resource: 'eventAttendees',
  columns: ['AttendeeName', 'RegistrationTypeId', 'PaidCents', 'CreatedAt'],
  criteria: [{ PropertyName: 'EventAttendeeStatusId', Operator: 'in', Value: [4, 5, 6] }],
  parameters: [EVENT_PARAMETER],
  defaultSort: { field: 'CreatedAt', direction: 'asc' },
  pageSize: 25,
  groupBy: [{ field: 'EventId', bucket: 'value' }],
  aggregates: [
    { fn: 'sum', field: 'PaidCents' },
    { fn: 'avg', field: 'PaidCents' },
  ],
  chart: { type: 'bar', measure: 'sum_PaidCents' },
});

/** Who registered and did not come, by event: for follow-up and for the next event's planning. */
export const noShowsReport = defineReport({
  ReportId: 'events.noShows',
  Title: 'Event no-shows',
  Description: 'Attendees marked as no-shows, by event, with their email for a follow-up.',
  resource: 'eventAttendees',
  columns: ['AttendeeName', 'AttendeeEmail', 'RegistrationTypeId', 'CreatedAt'],
  criteria: [{ PropertyName: 'EventAttendeeStatusId', Operator: 'eq', Value: 6 }],
  parameters: [EVENT_PARAMETER],
  defaultSort: { field: 'AttendeeName', direction: 'asc' },
  pageSize: 25,
  groupBy: [{ field: 'EventId', bucket: 'value' }],
  aggregates: [],
  chart: { type: 'bar', measure: 'count' },
});

/** How the seats of each event were taken: registrations by registration type, with the fees paid. */
export const registrationsByTypeReport = defineReport({
  ReportId: 'events.registrationsByType',
  Title: 'Registrations by registration type',
  Description:
    'Seats taken at each event (registered, offered from the waitlist, awaiting payment, attended or no-show), by registration type, with the fees paid.',
  resource: 'eventAttendees',
  columns: ['AttendeeName', 'RegistrationTypeId', 'EventAttendeeStatusId', 'PaidCents', 'CreatedAt'],
  criteria: [{ PropertyName: 'EventAttendeeStatusId', Operator: 'in', Value: [2, 4, 5, 6, 7] }],
  parameters: [EVENT_PARAMETER],
  defaultSort: { field: 'CreatedAt', direction: 'asc' },
  pageSize: 25,
  groupBy: [
    { field: 'EventId', bucket: 'value' },
    { field: 'RegistrationTypeId', bucket: 'value' },
  ],
  aggregates: [{ fn: 'sum', field: 'PaidCents' }],
  chart: { type: 'bar', measure: 'count' },
});
