import type { AppRouter } from '@dn/api';
import { TRPC_MAX_BATCH } from '@dn/schema';
import type { QueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
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

const sameOrigin = (url: URL | RequestInfo, init?: RequestInit) => fetch(url, { ...init, credentials: 'same-origin' });

function createTrpc(queryClient: QueryClient): Trpc {
  const client = createTRPCClient<AppRouter>({
    // Queries go batched (one GET per screen's polls, at most the server's batch size); each
    // mutation goes alone, as the server requires of those that hash a password or send an email
    // (decision 0630), so two clicks in one tick are never refused as a batch.
    links: [
      splitLink({
        condition: (op) => op.type === 'mutation',
        true: httpLink({ url: '/trpc', fetch: sameOrigin }),
        false: httpBatchLink({ url: '/trpc', fetch: sameOrigin, maxItems: TRPC_MAX_BATCH }),
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
