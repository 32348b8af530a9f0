export { useLandingVideos } from './use-landing-videos';
export { type LandingVideo, VideoFrame } from './VideoFrame';
