/** The events routes as the web calls them; shapes from shared (z.infer), never written by hand. */
import type {
  CalendarOccurrence,
  CheckInList,
  CustomField,
  EventPage,
  GetEventIdAnswer,
  MemberCertification,
  MemberFeed,
  MyRegistration,
  RegisterAnswer,
} from '@guildhall/shared';
import { api } from '../../platform/api-client.ts';

export interface RangeRequest {
  start: string;
  end: string;
  timeZone: string;
}

const range = (r: RangeRequest) =>
  `start=${encodeURIComponent(r.start)}&end=${encodeURIComponent(r.end)}&timeZone=${encodeURIComponent(r.timeZone)}`;

export const eventsApi = {
  calendar: (area: 'backoffice' | 'member', r: RangeRequest, signal?: AbortSignal) =>
    api.get<CalendarOccurrence[]>(
      `${area === 'backoffice' ? '/api/events/calendar' : '/api/events/member/calendar'}?${range(r)}`,
      { signal },
    ),
  getEventId: (id: string | number) =>
    api.get<GetEventIdAnswer>(`/api/events/getEventId/${encodeURIComponent(String(id))}`),
  memberEvent: (id: string, signal?: AbortSignal) =>
    api.get<EventPage>(`/api/events/member/events/${encodeURIComponent(id)}`, { signal }),
  memberRegister: (body: {
    EventDetailId: number;
    RegistrationTypeId?: number;
    Attendees?: { Name: string; Email?: string }[];
    Answers?: Record<string, unknown>;
  }) => api.post<RegisterAnswer>('/api/events/member/register', body),
  myRegistrations: (signal?: AbortSignal) =>
    api.get<MyRegistration[]>('/api/events/member/registrations', { signal }),
  memberFeed: (signal?: AbortSignal) => api.get<MemberFeed>('/api/events/member/feed', { signal }),
  memberCertifications: (signal?: AbortSignal) =>
    api.get<MemberCertification[]>('/api/events/member/certifications', { signal }),
  memberRegisterCertification: (programmeId: number) =>
    api.post<{ CertificationRegistrationId: number; message: string }>(
      `/api/events/member/certifications/${programmeId}/register`,
    ),
  markNoShows: (eventDetailId: number) =>
    api.post<{ marked: number; message: string }>(`/api/events/details/${eventDetailId}/no-shows`),
  memberFeedReset: () => api.post<MemberFeed>('/api/events/member/feed/reset'),
  memberCancel: (attendeeId: number) =>
    api.post<{ message: string }>(`/api/events/member/registrations/${attendeeId}/cancel`),
  memberAccept: (attendeeId: number) =>
    api.post<{ message: string }>(`/api/events/member/registrations/${attendeeId}/accept`),
  register: (body: {
    EventDetailId: number;
    ContactId?: number;
    RegistrationTypeId?: number;
    Attendees?: { ContactId?: number; Name?: string; Email?: string; Answers?: Record<string, unknown> }[];
    Answers?: Record<string, unknown>;
  }) => api.post<RegisterAnswer>('/api/events/registrations', body),
  questions: (eventId: number, signal?: AbortSignal) =>
    api.get<CustomField[]>(`/api/events/events/${eventId}/questions`, { signal }),
  checkInList: (eventDetailId: number, search: string, signal?: AbortSignal) =>
    api.get<CheckInList>(
      `/api/events/details/${eventDetailId}/check-in?search=${encodeURIComponent(search)}`,
      {
        signal,
      },
    ),
  checkIn: (body: { EventDetailId: number; AttendeeId?: number; Code?: string; Undo?: boolean }) =>
    api.post<{ AttendeeName: string; message: string }>('/api/events/check-in', body),
};
