import { QueryClient } from '@tanstack/react-query';
import { isApiError, setUnauthorizedHandler } from '../platform/api-client.ts';
import { signOutLocally } from '../platform/identity.ts';

export function createQueryClient(): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // A 4xx will answer the same again; network hiccups and 5xx get two more tries.
        retry: (failures, error) =>
          !(isApiError(error) && error.status >= 400 && error.status < 500) && failures < 2,
      },
      mutations: { retry: false },
    },
  });
  // A 401 from any call: the session is gone, send the user to sign-in (the route guard does the navigation).
  setUnauthorizedHandler(() => signOutLocally(queryClient, 'session-ended'));
  return queryClient;
}
