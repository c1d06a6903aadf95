import { IconCalendarEvent, IconTicket } from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

const pages = () => import('./events-pages.tsx');
const member = () => import('./member-events.tsx');
const overviewTabs = () => import('./event-overview-tabs.tsx');

/**
 * Events: the back office's list and record come from the generic layer (resource `events`); this module adds the
 * calendars (back office and member area), EventsDetail.General and EventDetail.General, the door's check-in screen,
 * and the member area's registration and "my registrations".
 */
export const eventsModule: WebModule = {
  name: 'events',
  memberShortcuts: [
    {
      to: '/m/events',
      title: 'Events',
      description:
        'Upcoming events open to you: register yourself and your guests, see your registrations, add them to your calendar.',
      action: 'See upcoming events',
      icon: IconTicket,
      order: 40,
      Summary: lazy(() => import('./member-summary.tsx')),
    },
  ],
  backOffice: [
    page(
      'events/calendar',
      { stateName: 'Events.Calendar', title: 'Events calendar' },
      screen(pages, (m) => m.BackOfficeCalendar),
    ),
    page(
      'events/check-in/:EventDetailId',
      { stateName: 'Events.CheckIn', title: 'Check-in' },
      screen(
        () => import('./check-in.tsx'),
        (m) => m.CheckInPage,
      ),
    ),
    page(
      'events/:EventId',
      { stateName: 'EventsDetail.General', title: 'Event' },
      screen(pages, (m) => m.EventsDetailGeneral),
    ),
  ],
  memberArea: [
    page(
      'events',
      { stateName: 'Events.Member', title: 'Events' },
      screen(member, (m) => m.MemberEvents),
    ),
    page(
      'events/:id',
      { stateName: 'EventDetail.General', title: 'Event' },
      screen(member, (m) => m.MemberEventDetail),
    ),
  ],
  public: [
    // A published public event's page for anyone (the web address of GET /api/events/public/:tenantId/:hash).
    page(
      'events/:tenantId/:hash',
      { title: 'Event' },
      screen(
        () => import('./public-event-page.tsx'),
        (m) => m.PublicEventPage,
      ),
    ),
  ],
  recordTabs: {
    contacts: [{ key: 'events', title: 'Events', Panel: lazy(() => import('./contact-events-tab.tsx')) }],
    events: [
      {
        key: 'questions',
        title: 'Registration questions',
        Panel: lazy(() => import('./event-questions-tab.tsx')),
      },
      {
        key: 'waitlist',
        title: 'Waitlist',
        Panel: lazy(() => overviewTabs().then((m) => ({ default: m.WaitlistTab }))),
      },
      {
        key: 'finances',
        title: 'Finances',
        Panel: lazy(() => overviewTabs().then((m) => ({ default: m.FinancesTab }))),
      },
      {
        key: 'check-in',
        title: 'Check-in',
        Panel: lazy(() => overviewTabs().then((m) => ({ default: m.CheckInTab }))),
      },
    ],
  },
  recordActions: { events: lazy(() => import('./event-record-actions.tsx')) },
  nav: [
    {
      section: 'top',
      to: '/micronet/list/events/events',
      label: 'Events',
      icon: IconTicket,
      permission: 'backoffice',
      description: 'Events and their occurrences, registration types, attendees and waitlists.',
    },
    {
      section: 'top',
      to: '/a/events/calendar',
      label: 'Events calendar',
      icon: IconCalendarEvent,
      permission: 'backoffice',
      description: 'Every occurrence on a month, week, day or agenda calendar.',
    },
  ],
};
