import { POLL_MS } from '@dn/schema';
import { useQuery } from '@tanstack/react-query';
import { landingVideosQueryOptions } from './landing-videos-query';

export { type LandingVideo, landingVideosQueryOptions } from './landing-videos-query';

/** Landing videos, polled every 30 s (SPEC section 9). */
export function useLandingVideos() {
  const q = useQuery({ ...landingVideosQueryOptions(), refetchInterval: POLL_MS.landingVideos });
  return (key: string) => q.data?.find((v) => v.videoKey === key);
}
