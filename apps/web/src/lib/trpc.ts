import type { AppRouter } from '@dn/api';
import type { QueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { ApiError } from './api';
import type { RouterContext, Trpc } from './router-context';

export { httpStatusOf } from './query-client';

/** Field errors the server sent with a 400, keyed like the form's fields. */
export function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  if (error instanceof TRPCClientError) return (error.data as { fieldErrors?: Record<string, string> })?.fieldErrors;
  if (error instanceof ApiError) return error.body?.fieldErrors;
  return undefined;
}

function createTrpc(queryClient: QueryClient): Trpc {
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: '/trpc',
        fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
      }),
    ],
  });
  return createTRPCOptionsProxy<AppRouter>({ client, queryClient });
}

export type { Trpc } from './router-context';

/**
 * The app's tRPC options proxy (over its query client), kept in the router context: made on first
 * use, so this module stays out of the first download and is only loaded by the code that calls
 * tRPC. For loaders and beforeLoad.
 */
export function getTrpc(context: Pick<RouterContext, 'queryClient' | 'trpc'>): Trpc {
  context.trpc.proxy ??= createTrpc(context.queryClient);
  return context.trpc.proxy;
}

/**
 * The same, for components: the root context the router was created with. (`useRouter`, not
 * `useRouteContext`: no subscription to the matches, and 0.3 KB less in the app shell.)
 */
export function useTrpc(): Trpc {
  return getTrpc(useRouter().options.context);
}
