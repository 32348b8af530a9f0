import { DEFAULT_VIDEO_TITLES, POLL_MS } from '@dn/schema';
import { getOrNull } from '../shared/lib/api';
import { PLAYER_FRAME, playerUrlOf } from '../site/videos/player';
import type { LandingVideo } from '../site/videos/use-landing-videos';
import classes from '../site/videos/videos.module.css';

type VideoKey = keyof typeof DEFAULT_VIDEO_TITLES;

/** Where each video sits in the prerendered landing (site/marketing/Landing.tsx). */
const SLOTS: { key: VideoKey; section: string; heading?: string }[] = [
  { key: 'intro_video', section: 'home' },
  { key: 'demo_video', section: 'demo', heading: 'demo-title' },
];

/**
 * The landing videos without the app, as VideoFrame renders them: GET /api/landing-videos, polled
 * every 30 s (SPEC section 9). Only a checked player.vimeo.com URL ever becomes an iframe's src,
 * titles are set as text, and the 16:9 box is already reserved, so nothing shifts.
 */
export function watchLandingVideos() {
  const slots = SLOTS.flatMap((s) => {
    const frame = document.querySelector(`#${s.section} .${classes.frame}`);
    const placeholder = frame?.firstElementChild;
    return frame && placeholder instanceof HTMLElement ? [{ ...s, frame, placeholder }] : [];
  });
  let shown: LandingVideo[] | undefined;

  const show = (videos: LandingVideo[]) => {
    for (const slot of slots) {
      const video = videos.find((v) => v.videoKey === slot.key);
      const title = video?.title || DEFAULT_VIDEO_TITLES[slot.key];
      if (slot.heading) {
        const heading = document.getElementById(slot.heading);
        if (heading) heading.textContent = title;
      }
      const src = playerUrlOf(video);
      if (src) {
        const current = slot.frame.querySelector('iframe');
        if (current?.getAttribute('src') === src) current.title = title;
        else slot.frame.replaceChildren(playerFrame(src, title, slot.key));
        continue;
      }
      const label = slot.placeholder.querySelector('p');
      if (label) label.textContent = title;
      slot.placeholder.dataset.testid = `video-placeholder-${video?.videoKey ?? DEFAULT_VIDEO_TITLES[slot.key]}`;
      if (slot.frame.firstElementChild !== slot.placeholder) slot.frame.replaceChildren(slot.placeholder);
    }
    shown = videos;
  };

  // A failed poll keeps what is shown, as the app's query does.
  const refresh = () =>
    getOrNull<LandingVideo[]>('/api/landing-videos').then(
      (videos) => {
        show(videos ?? []);
        return shown;
      },
      () => shown,
    );
  let latest = refresh();
  const timer = setInterval(() => {
    latest = refresh();
  }, POLL_MS.landingVideos);

  return {
    /** The list on screen once the request in flight has settled (undefined if none arrived yet). */
    current: () => latest,
    stop: () => clearInterval(timer),
  };
}

function playerFrame(src: string, title: string, key: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  // The sandbox and policies are set before src, so the first load already has them.
  frame.setAttribute('sandbox', PLAYER_FRAME.sandbox);
  frame.allow = PLAYER_FRAME.allow;
  frame.allowFullscreen = true;
  frame.referrerPolicy = PLAYER_FRAME.referrerPolicy;
  frame.loading = 'lazy';
  frame.title = title;
  frame.className = classes.iframe ?? '';
  frame.dataset.testid = `video-${key}`;
  frame.src = src;
  return frame;
}
