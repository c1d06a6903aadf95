import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import FullCalendar, { type CalendarRef, type EventInput } from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import listPlugin from '@fullcalendar/react/list';
import classicThemePlugin from '@fullcalendar/react/themes/classic';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import { fileImageUrl, viewerTimeZone } from '@guildhall/shared';
import { Group, Paper, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CalendarRangeButtons } from '../../platform/calendar-range-buttons.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import { eventsApi } from './events-api.ts';

/** An event's thumbnail where the calendar's reader may fetch it (staff by the file, members by the event). */
const imageAddress = (area: 'backoffice' | 'member', event: { EventId: number }, fileId: number) =>
  area === 'backoffice'
    ? fileImageUrl(fileId, 'thumbnail')
    : `/api/events/member/events/${event.EventId}/image/thumbnail?f=${fileId}`;

/** A year shows as the agenda of its occurrences (this calendar loads no multi-month view). */
const YEAR_AS_LIST = { year: 'listYear' };

/** The zone of the device the calendar is read on. */
const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The events calendar (back office and member area): month, week, day and agenda views, day grid and time grid,
 * fed by the range endpoint with occurrences already expanded, in the viewer's timezone (the one they chose, else
 * their device's: `viewerTimeZone`); with the Today … Last Year shortcuts of the calendar list variant.
 */
export function EventsCalendar({ area }: { area: 'backoffice' | 'member' }) {
  const navigate = useNavigate();
  const timeZone = viewerTimeZone(useIdentity(), deviceTimeZone());
  const calendar = useRef<CalendarRef>(null);
  const [error, setError] = useState<unknown>(null);
  const [count, setCount] = useState<number | null>(null);
  const [view, setView] = useState('dayGridMonth');
  return (
    <Paper withBorder p="sm" data-view={view} data-testid="events-calendar">
      {/* The shortcuts count days in the viewer's timezone, the one the calendar is drawn in. */}
      <CalendarRangeButtons calendar={calendar} timeZone={timeZone} views={YEAR_AS_LIST}>
        {count !== null ? (
          <Text size="sm" c="dimmed" ml="auto" aria-live="polite" data-testid="calendar-count">
            {count} {count === 1 ? 'occurrence' : 'occurrences'} shown, in your timezone ({timeZone})
          </Text>
        ) : null}
      </CalendarRangeButtons>
      {error ? <ErrorBlock error={error} /> : null}
      <FullCalendar
        ref={calendar}
        plugins={[classicThemePlugin, dayGridPlugin, timeGridPlugin, listPlugin]}
        initialView="dayGridMonth"
        headerToolbar={{
          start: 'prev,next',
          center: 'title',
          end: 'dayGridMonth,timeGridWeek,timeGridDay,listMonth',
        }}
        height="auto"
        timeZone={timeZone}
        dayMaxEvents={4}
        events={(info, success, failure) => {
          eventsApi
            .calendar(area, { start: info.startStr, end: info.endStr, timeZone })
            .then((occurrences) => {
              setError(null);
              setCount(occurrences.length);
              success(
                occurrences.map(
                  (o): EventInput => ({
                    id: o.id,
                    title: o.status === 'cancelled' ? `${o.title} (cancelled)` : o.title,
                    start: o.start,
                    end: o.end,
                    ...(o.color ? { color: o.color } : {}),
                    classNames: [
                      o.eventStatus === 'draft' ? 'event-draft' : '',
                      o.status === 'cancelled' ? 'event-cancelled' : '',
                    ].filter(Boolean),
                    extendedProps: {
                      EventId: o.EventId,
                      HashedEventId: o.HashedEventId,
                      seatsLeft: o.seatsLeft,
                      ImageFileId: o.ImageFileId,
                    },
                  }),
                ),
              );
            })
            .catch((e: unknown) => {
              setError(e);
              failure(e instanceof Error ? e : new Error(String(e)));
            });
        }}
        // The agenda's rows show the event's image beside its name; the grids keep to the name. `true` asks
        // FullCalendar for its own rendering (undefined would render an empty event).
        eventContent={(arg) => {
          const fileId = (arg.event.extendedProps as { ImageFileId: number | null }).ImageFileId;
          if (!arg.view.type.startsWith('list') || !fileId) return true;
          return (
            <Group gap="xs" wrap="nowrap">
              <img
                src={imageAddress(area, arg.event.extendedProps as { EventId: number }, fileId)}
                alt=""
                width={32}
                height={32}
                loading="lazy"
                data-testid="calendar-event-image"
                style={{ objectFit: 'cover', borderRadius: 4 }}
              />
              <span>{arg.event.title}</span>
            </Group>
          );
        }}
        datesSet={(info) => setView(info.view.type)}
        eventClick={(info) => {
          info.jsEvent.preventDefault();
          const props = info.event.extendedProps as { EventId: number; HashedEventId: string };
          navigate(
            area === 'backoffice'
              ? `/micronet/list/events/events/${props.EventId}`
              : `/m/events/${props.HashedEventId}?detail=${info.event.id}`,
          );
        }}
      />
    </Paper>
  );
}
