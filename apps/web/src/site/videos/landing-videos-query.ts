import type { AppRouter } from '@dn/api';
import { queryOptions } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { getOrNull } from '../../shared/lib/api';
import { LANDING_VIDEOS_QUERY_KEY } from '../../shared/lib/query-keys';

export type LandingVideo = inferRouterOutputs<AppRouter>['site']['landingVideos'][number];

/**
 * GET /api/landing-videos (REST, so the landing page needs no tRPC client). Its own module, without
 * the hook: the landing route's loader (in the app shell) reads it, and `useQuery` would bring
 * TanStack Query into the shell with it (decision 1310).
 */
export const landingVideosQueryOptions = () =>
  queryOptions({
    queryKey: LANDING_VIDEOS_QUERY_KEY,
    queryFn: async () => (await getOrNull<LandingVideo[]>('/api/landing-videos')) ?? [],
  });
