import type { CalendarRef } from '@fullcalendar/react';
import { CALENDAR_RANGE_SHORTCUTS, type CalendarSpan, calendarShortcutTarget } from '@guildhall/shared';
import { Button, Group } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';

/** The FullCalendar view that shows each span; a calendar may show a year as a list instead of twelve months. */
export type CalendarSpanViews = Record<CalendarSpan, string>;

const DEFAULT_VIEWS: CalendarSpanViews = {
  day: 'timeGridDay',
  month: 'dayGridMonth',
  year: 'multiMonthYear',
};

/**
 * The range shortcuts of a calendar (Today, This Month, Last Month, This Year, Last Year; spec 000 §2), one button
 * each: a click moves the calendar to the shortcut's span (`views`) at its first day, counted in the timezone the
 * calendar is drawn in. `children` goes at the group's end (a count of what the calendar shows).
 */
export function CalendarRangeButtons({
  calendar,
  timeZone,
  views = DEFAULT_VIEWS,
  children,
}: {
  calendar: RefObject<CalendarRef | null>;
  timeZone: string;
  views?: Partial<CalendarSpanViews>;
  children?: ReactNode;
}) {
  const go = (shortcut: (typeof CALENDAR_RANGE_SHORTCUTS)[number]) => {
    const target = calendarShortcutTarget(shortcut, new Date(), { timeZone });
    calendar.current?.getApi().changeView(views[target.Span] ?? DEFAULT_VIEWS[target.Span], target.StartDate);
  };
  return (
    <Group gap="xs" mb="sm" role="group" aria-label="Date range">
      {CALENDAR_RANGE_SHORTCUTS.map((s) => (
        <Button key={s.Name} size="compact-sm" variant="default" onClick={() => go(s)}>
          {s.Name}
        </Button>
      ))}
      {children}
    </Group>
  );
}
