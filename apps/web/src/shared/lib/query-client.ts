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

/** Retries after the first failure of a data fetch. */
export const QUERY_RETRIES = 2;

/**
 * SPEC section 8: a data fetch is not retried on 401 or 403, and is retried up to 2 times on any
 * other failure (other 4xx included; docs/decisions/0711). `failures` counts the failures so far.
 */
export function shouldRetryQuery(failures: number, error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status === 401 || status === 403) return false;
  return failures < QUERY_RETRIES;
}

/** SPEC sections 8 and 9: fresh 5 minutes, no refetch on focus, queries retried per shouldRetryQuery, mutations never. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, refetchOnWindowFocus: false, retry: shouldRetryQuery },
      mutations: { retry: false },
    },
  });
}
