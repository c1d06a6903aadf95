import { useQuery } from '@tanstack/react-query';
import { eventsApi } from './events-api.ts';

/** The member's own registrations (`GET /api/events/member/registrations`), read by their events and their home. */
export function useMyRegistrations() {
  return useQuery({
    queryKey: ['events', 'mine'],
    queryFn: ({ signal }) => eventsApi.myRegistrations(signal),
  });
}
