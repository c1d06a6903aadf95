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
