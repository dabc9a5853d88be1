import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api';

/** Client errors (4xx) do not get better by asking again; network and server errors get two retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      },
      mutations: { retry: false },
    },
  });
}
