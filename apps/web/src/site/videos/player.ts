import type { LandingVideo } from './use-landing-videos';

/**
 * What a landing video frame may show, shared by the React VideoFrame and the prerendered landing's
 * script: only our own iframe on https://player.vimeo.com/video/<id> (the server sends only the
 * extracted player URL, and we check it again), with these attributes.
 */
export const PLAYER_FRAME = {
  allow: 'autoplay; fullscreen; picture-in-picture',
  referrerPolicy: 'strict-origin-when-cross-origin',
  sandbox: 'allow-scripts allow-same-origin allow-presentation allow-popups',
} as const;

export const isVimeoPlayer = (url: string | null): url is string => {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname === 'player.vimeo.com' && /^\/video\/\d+$/.test(u.pathname);
  } catch {
    return false;
  }
};

/** The player URL to frame, or null for the titled placeholder. */
export const playerUrlOf = (video: LandingVideo | undefined): string | null =>
  video?.isActive && isVimeoPlayer(video.playerUrl) ? video.playerUrl : null;
