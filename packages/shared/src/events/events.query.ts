/**
 * Named queries over events, listed by the developer query tool (decision 0170). They read the query views
 * `gh_query.events`, `gh_query.event_details` and `gh_query.event_attendees`: the caller's association's live
 * records only.
 */
import { defineQuery } from '../query-tool/query.ts';
import { EVENT_ATTENDEE_STATUSES } from './events.rules.ts';

export const eventNoShowsQuery = defineQuery({
  name: 'events.noShows',
  title: 'Event no-shows',
  description:
    'Attendees of occurrences that ended in a period (the last 30 days unless you choose another) who were marked as no-shows, or were registered and never checked in.',
  group: 'Events',
  sql: `select e.name as "Event", to_char(d.starts_at, 'YYYY-MM-DD HH24:MI') as "Starts", a.attendee_name as "Attendee",
       a.attendee_email as "Email",
       case when a.event_attendee_status_id = ${EVENT_ATTENDEE_STATUSES.NoShow} then 'Marked no-show' else 'Not checked in' end as "Why"
  from gh_query.event_attendees a
  join gh_query.event_details d on d.event_detail_id = a.event_detail_id
  join gh_query.events e on e.event_id = a.event_id
 where d.ends_at < now()
   and (a.event_attendee_status_id = ${EVENT_ATTENDEE_STATUSES.NoShow}
        or (a.event_attendee_status_id = ${EVENT_ATTENDEE_STATUSES.Registered} and a.checked_in_at is null))
   and (:period_start::date is null or d.ends_at >= :period_start::date)
   and (:period_end::date is null or d.ends_at < :period_end::date + 1)
 order by d.starts_at desc, e.name, a.attendee_name, a.attendee_id`,
  parameters: [{ name: 'period', label: 'Ended', type: 'dateRange', default: '13' }],
});
