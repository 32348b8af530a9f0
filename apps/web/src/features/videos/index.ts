export type { LandingVideo } from './player';
export { useLandingVideos } from './use-landing-videos';
export { VideoFrame } from './VideoFrame';
