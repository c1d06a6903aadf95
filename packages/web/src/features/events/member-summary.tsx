import { EVENT_ATTENDEE_STATUSES, nextRegistration } from '@guildhall/shared';
import { Text } from '@mantine/core';
import { formatDateTime } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { useMyRegistrations } from './my-registrations.ts';

/** The member's home: their next event (when, and if they wait for a seat or a payment); that they have none. */
export default function MyEventsSummary() {
  const shownZone = useDisplayTimeZone();
  const { data } = useMyRegistrations();
  if (!data) return null;
  const next = nextRegistration(data, new Date());
  const waiting: Record<number, string> = {
    [EVENT_ATTENDEE_STATUSES.Waitlisted]: ' (on the waitlist)',
    [EVENT_ATTENDEE_STATUSES.Offered]: ' (a seat is offered to you)',
    [EVENT_ATTENDEE_STATUSES.PendingPayment]: ' (awaiting payment)',
  };
  return (
    <Text size="sm" fw={600} mb="md" data-testid="home-summary-events">
      {next
        ? `Next: ${next.EventName}, ${formatDateTime(next.StartsAt, shownZone)}${waiting[next.EventAttendeeStatusId] ?? ''}.`
        : 'No upcoming registrations.'}
    </Text>
  );
}
