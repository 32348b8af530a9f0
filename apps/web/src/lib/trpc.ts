import type { AppRouter } from '@dn/api';
import { STALE_TIME_MS } from '@dn/schema';
import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';

/** The HTTP status behind a failed call, when there is one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof TRPCClientError) return (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  return undefined;
}

/** Field errors the server sent with a 400, keyed like the form's fields. */
export function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  if (error instanceof TRPCClientError) return (error.data as { fieldErrors?: Record<string, string> })?.fieldErrors;
  return undefined;
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
          if (status === 401 || status === 403) return false;
          if (status && status >= 400 && status < 500) return false;
          return count < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: '/trpc',
      fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
    }),
  ],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
