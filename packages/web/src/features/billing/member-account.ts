import type { MemberAccount } from '@guildhall/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';

/** The member's own account (`GET /api/billing/member/account`), read by their invoices page and their home. */
export const ACCOUNT_KEY = ['billing', 'member', 'account'];

export function useAccount() {
  return useQuery({
    queryKey: ACCOUNT_KEY,
    queryFn: () => api.get<MemberAccount>('/api/billing/member/account'),
  });
}
