import type { AppRouter } from '@dn/api';
import { POLL_MS } from '@dn/schema';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { getOrNull } from '../../shared/lib/api';
import { LANDING_VIDEOS_QUERY_KEY } from '../../shared/lib/query-keys';

export type LandingVideo = inferRouterOutputs<AppRouter>['site']['landingVideos'][number];

/** GET /api/landing-videos (REST, so the landing page needs no tRPC client). */
export const landingVideosQueryOptions = () =>
  queryOptions({
    queryKey: LANDING_VIDEOS_QUERY_KEY,
    queryFn: async () => (await getOrNull<LandingVideo[]>('/api/landing-videos')) ?? [],
  });

/** Landing videos, polled every 30 s (SPEC section 9). */
export function useLandingVideos() {
  const q = useQuery({ ...landingVideosQueryOptions(), refetchInterval: POLL_MS.landingVideos });
  return (key: string) => q.data?.find((v) => v.videoKey === key);
}
