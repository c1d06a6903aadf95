import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import FullCalendar, { type CalendarRef, type EventInput } from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import listPlugin from '@fullcalendar/react/list';
import multiMonthPlugin from '@fullcalendar/react/multimonth';
import classicThemePlugin from '@fullcalendar/react/themes/classic';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import { calendarDateField, displayTimeZone, type ResourceDeclaration } from '@guildhall/shared';
import { Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CalendarRangeButtons } from '../calendar-range-buttons.tsx';
import { useIdentity } from '../identity.ts';
import { rowLabel } from './list-cell.tsx';
import type { ColumnView } from './list-columns.ts';
import { recordPath } from './resources.ts';
import { fetchList, type ListParams } from './screens-api.ts';

/** DeluxeListViewWithCalendar: month, week, day and agenda views, with the Today … Last Year shortcuts. */
export default function CalendarView(props: {
  resource: ResourceDeclaration;
  baseParams: ListParams;
  columns: ColumnView[];
}) {
  const { resource } = props;
  const me = useIdentity();
  const navigate = useNavigate();
  const calendar = useRef<CalendarRef>(null);
  const dateField = calendarDateField(resource);
  const [range, setRange] = useState<{ start: string; end: string } | null>(null);
  const canFilter = dateField !== null && resource.filterable.includes(dateField);
  const { skip: _s, top: _t, ...params } = props.baseParams;
  const query = useQuery({
    queryKey: ['list', resource.name, 'calendar', params, range],
    enabled: range !== null,
    queryFn: ({ signal }) =>
      fetchList(
        resource,
        {
          ...params,
          skip: 0,
          top: 500,
          ...(canFilter && range
            ? {
                filterId: 9999,
                criteria: [
                  ...params.criteria,
                  { PropertyName: dateField, Operator: 'between', Value: range.start, Value2: range.end },
                ],
              }
            : {}),
        },
        signal,
      ),
  });
  const timeZone = displayTimeZone(me);
  const events: EventInput[] = useMemo(
    () =>
      dateField
        ? (query.data?.Results ?? [])
            .filter((row) => typeof row[dateField] === 'string')
            .map((row) => ({
              id: String(row[resource.key]),
              title: rowLabel(resource, row, timeZone),
              start: String(row[dateField]),
              allDay: resource.fields[dateField]?.type === 'date',
            }))
        : [],
    [query.data, dateField, resource, timeZone],
  );
  if (!dateField)
    return (
      <Text size="sm" c="dimmed">
        {resource.title} have no date to place on a calendar.
      </Text>
    );
  return (
    <Paper withBorder p="sm">
      <CalendarRangeButtons calendar={calendar} timeZone={displayTimeZone(me)} />
      <FullCalendar
        ref={calendar}
        plugins={[classicThemePlugin, dayGridPlugin, timeGridPlugin, listPlugin, multiMonthPlugin]}
        initialView="dayGridMonth"
        headerToolbar={{
          start: 'prev,next',
          center: 'title',
          end: 'dayGridMonth,timeGridWeek,timeGridDay,listWeek',
        }}
        height="auto"
        timeZone={displayTimeZone(me)}
        events={events}
        datesSet={(info) => setRange({ start: info.startStr.slice(0, 10), end: info.endStr.slice(0, 10) })}
        eventClick={(info) => {
          info.jsEvent.preventDefault();
          navigate(recordPath(resource, info.event.id));
        }}
      />
    </Paper>
  );
}
