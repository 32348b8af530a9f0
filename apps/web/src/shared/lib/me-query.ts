import type { PublicUser } from '@dn/api';
import { USER_STALE_TIME_MS } from '@dn/schema';
import { queryOptions } from '@tanstack/react-query';
import { getSession } from './api';
import { ME_QUERY_KEY } from './query-keys';

/**
 * Who is signed in, as SPEC section 7 describes GET /api/auth/user: nobody is null, no retry, no
 * refetch on mount or focus, fresh 10 minutes. Asked as `auth.me` (200 with null for a visitor, no
 * console error) by a plain GET, without the tRPC client: every page asks it first.
 * Its own module: the router context (in the app shell) reads it without the auth hooks.
 */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: ME_QUERY_KEY,
    queryFn: () => getSession<PublicUser>(),
    staleTime: USER_STALE_TIME_MS,
    retry: false,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
  });
