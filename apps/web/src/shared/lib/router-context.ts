import type { AppRouter, PublicUser } from '@dn/api';
import type { QueryClient } from '@tanstack/react-query';
import type { TRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { meQueryOptions } from './me-query';

/** The tRPC options proxy over the app's query client (made in lib/trpc.ts). */
export type Trpc = TRPCOptionsProxy<AppRouter>;

/**
 * Where the app's one tRPC client lives. Empty until a page or dialog that calls tRPC first asks
 * for it (lib/trpc.ts: useTrpc, getTrpc), which creates it: its code is not in the landing page's
 * or the app shell's first download (docs/decisions/0502, 0503, 0600).
 */
export interface TrpcSlot {
  proxy?: Trpc;
}

export interface Auth {
  /** The signed-in user (null: nobody), from the current-user query's cache or asked once. */
  user(): Promise<PublicUser | null>;
}

/** What every route's `beforeLoad`, `loader` and component can read (createRootRouteWithContext). */
export interface RouterContext {
  queryClient: QueryClient;
  trpc: TrpcSlot;
  auth: Auth;
}

export function createRouterContext(queryClient: QueryClient): RouterContext {
  return {
    queryClient,
    trpc: {},
    auth: {
      // A failed read counts as nobody, as the pages' useAuth reads it.
      user: () => queryClient.ensureQueryData(meQueryOptions()).catch(() => null),
    },
  };
}
