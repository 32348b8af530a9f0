export type { LandingVideo } from './use-landing-videos';
export { useLandingVideos } from './use-landing-videos';
export { VideoFrame } from './VideoFrame';
