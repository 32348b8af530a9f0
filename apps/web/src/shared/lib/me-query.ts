import type { PublicUser } from '@dn/api';
import { USER_STALE_TIME_MS } from '@dn/schema';
import { queryOptions } from '@tanstack/react-query';
import { getOrNull } from './api';
import { ME_QUERY_KEY } from './query-keys';

/**
 * GET /api/auth/user as SPEC section 7 describes it: a 401 is "nobody" (null), no retry, no
 * refetch on mount or focus, fresh 10 minutes. REST rather than tRPC: every page asks it first.
 * Its own module: the router context (in the app shell) reads it without the auth hooks.
 */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: ME_QUERY_KEY,
    queryFn: () => getOrNull<PublicUser>('/api/auth/user'),
    staleTime: USER_STALE_TIME_MS,
    retry: false,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
  });
