import type { AppRouter } from '@dn/api';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { ApiError } from './api';
import { queryClient } from './query-client';

export { httpStatusOf, queryClient } from './query-client';

/** Field errors the server sent with a 400, keyed like the form's fields. */
export function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  if (error instanceof TRPCClientError) return (error.data as { fieldErrors?: Record<string, string> })?.fieldErrors;
  if (error instanceof ApiError) return error.body?.fieldErrors;
  return undefined;
}

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
