import type { MyMembership } from '@guildhall/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';

/** The member's own memberships (`GET /api/mic/memberships`), read by their membership page and their home. */
export const MY_MEMBERSHIPS_KEY = ['my', 'memberships'];

export function useMyMemberships() {
  return useQuery({
    queryKey: MY_MEMBERSHIPS_KEY,
    queryFn: () => api.get<{ Memberships: MyMembership[] }>('/api/mic/memberships'),
  });
}
