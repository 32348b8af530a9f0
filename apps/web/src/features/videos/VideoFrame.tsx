import { AspectRatio, Center, Stack, Text } from '@mantine/core';
import classes from './videos.module.css';

export interface LandingVideo {
  videoKey: string;
  title: string;
  isActive: boolean;
  playerUrl: string | null;
}

const isVimeoPlayer = (url: string | null): url is string => {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname === 'player.vimeo.com' && /^\/video\/\d+$/.test(u.pathname);
  } catch {
    return false;
  }
};

/**
 * A landing video: our own iframe on https://player.vimeo.com (the server sends only the
 * extracted player URL, and we check it again), or the titled placeholder. The 16:9 box is
 * reserved either way so nothing shifts when the video list arrives.
 */
export function VideoFrame({ video, fallbackTitle }: { video: LandingVideo | undefined; fallbackTitle: string }) {
  const title = video?.title || fallbackTitle;
  const src = video?.isActive && isVimeoPlayer(video.playerUrl) ? video.playerUrl : null;
  return (
    <AspectRatio ratio={16 / 9} className={classes.frame}>
      {src ? (
        <iframe
          src={src}
          title={title}
          loading="lazy"
          allow="autoplay; fullscreen; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
          className={classes.iframe}
          data-testid={`video-${video?.videoKey}`}
        />
      ) : (
        <Center className={classes.placeholder} data-testid={`video-placeholder-${video?.videoKey ?? fallbackTitle}`}>
          <Stack gap={4} align="center">
            <span className={classes.play} aria-hidden />
            <Text fw={600} c="white">
              {title}
            </Text>
          </Stack>
        </Center>
      )}
    </AspectRatio>
  );
}
