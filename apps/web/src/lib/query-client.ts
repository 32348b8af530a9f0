import { STALE_TIME_MS } from '@dn/schema';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** The HTTP status behind a failed call (tRPC or REST), when there is one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  // A TRPCClientError carries it in `data`; read by shape so this module does not load tRPC.
  const data = (error as { data?: { httpStatus?: unknown } } | null)?.data;
  return typeof data?.httpStatus === 'number' ? data.httpStatus : undefined;
}

/** SPEC section 9: fresh 5 minutes, no refetch on focus, no retry on 401/403, two retries otherwise, mutations never. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        refetchOnWindowFocus: false,
        retry: (count, error) => {
          const status = httpStatusOf(error);
          if (status && status >= 400 && status < 500) return false;
          return count < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}
