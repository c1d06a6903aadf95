/** A project's calendar: its tasks on their due dates, in the association's timezone. */
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import FullCalendar, { type EventInput } from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import listPlugin from '@fullcalendar/react/list';
import classicThemePlugin from '@fullcalendar/react/themes/classic';
import { displayTimeZone, isFinished } from '@guildhall/shared';
import { Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { taskPath, tasksApi } from './tasks-api.ts';

const COLORS: Record<string, string> = { overdue: '#c92a2a', today: '#e8590c' };

export default function ProjectCalendarTab({ recordId }: RecordActionProps) {
  const me = useIdentity();
  const navigate = useNavigate();
  const board = useQuery({
    queryKey: ['tasks', 'board', Number(recordId)],
    queryFn: () => tasksApi.board(recordId),
  });
  if (board.error) return <ErrorBlock error={board.error} onRetry={() => void board.refetch()} />;
  if (!board.data) return <LoadingBlock />;
  const dated = board.data.Tasks.filter((t) => t.DueAt);
  const events: EventInput[] = dated.map((t) => ({
    id: String(t.TaskId),
    title: t.Title,
    start: t.DueAt ?? undefined,
    color: isFinished(t.Status) ? '#868e96' : (COLORS[t.DueState] ?? '#1c7ed6'),
  }));
  const first = dated.find((t) => !isFinished(t.Status))?.DueAt ?? dated[0]?.DueAt;
  return (
    <Paper withBorder p="sm" data-testid="project-calendar">
      {dated.length < board.data.Tasks.length ? (
        <Text size="sm" c="dimmed" mb="xs">
          {board.data.Tasks.length - dated.length} task(s) without a due date are on the board only.
        </Text>
      ) : null}
      <FullCalendar
        plugins={[classicThemePlugin, dayGridPlugin, listPlugin]}
        initialView="dayGridMonth"
        {...(first ? { initialDate: first.slice(0, 10) } : {})}
        headerToolbar={{ start: 'prev,next today', center: 'title', end: 'dayGridMonth,listMonth' }}
        height="auto"
        timeZone={displayTimeZone(me)}
        events={events}
        eventClick={(info) => {
          info.jsEvent.preventDefault();
          navigate(taskPath(Number(info.event.id)));
        }}
      />
    </Paper>
  );
}
