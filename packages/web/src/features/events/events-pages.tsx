import { Button } from '@mantine/core';
import { IconList } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useParams } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { eventsApi } from './events-api.ts';
import { EventsCalendar } from './events-calendar.tsx';

/** `/a/events/calendar`: every occurrence of the association's events, drafts included. */
export function BackOfficeCalendar() {
  return (
    <>
      <PageHeader
        title="Events calendar"
        description="Every occurrence of your events, repeating ones included, in your own timezone. Open one to manage its registrations."
        actions={
          <Button
            component={Link}
            to="/micronet/list/events/events"
            variant="default"
            leftSection={<IconList size={16} />}
          >
            Events list
          </Button>
        }
      />
      <EventsCalendar area="backoffice" />
    </>
  );
}

/**
 * EventsDetail.General (parameters EventId, EventDetailId, HashedEventId): resolves the event through getEventId
 * and opens its record.
 */
export function EventsDetailGeneral() {
  const { EventId = '' } = useParams();
  const answer = useQuery({
    queryKey: ['events', 'getEventId', EventId],
    queryFn: () => eventsApi.getEventId(EventId),
  });
  if (answer.error) return <ErrorBlock error={answer.error} />;
  if (!answer.data) return <LoadingBlock />;
  return <Navigate replace to={`/micronet/list/events/events/${answer.data.EventId}`} />;
}
