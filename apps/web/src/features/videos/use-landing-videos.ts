import { POLL_MS } from '@dn/schema';
import { useQuery } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';

/** Landing videos, polled every 30 s (SPEC section 9). */
export function useLandingVideos() {
  const q = useQuery(trpc.site.landingVideos.queryOptions(undefined, { refetchInterval: POLL_MS.landingVideos }));
  return (key: string) => q.data?.find((v) => v.videoKey === key);
}
