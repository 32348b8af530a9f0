import { AspectRatio, Center, Stack, Text } from '@mantine/core';
import { PLAYER_FRAME, playerUrlOf } from './player';
import type { LandingVideo } from './use-landing-videos';
import classes from './videos.module.css';

/**
 * A landing video: our own iframe on https://player.vimeo.com (the server sends only the
 * extracted player URL, and we check it again), or the titled placeholder. The 16:9 box is
 * reserved either way so nothing shifts when the video list arrives.
 */
export function VideoFrame({ video, fallbackTitle }: { video: LandingVideo | undefined; fallbackTitle: string }) {
  const title = video?.title || fallbackTitle;
  const src = playerUrlOf(video);
  return (
    <AspectRatio ratio={16 / 9} className={classes.frame}>
      {src ? (
        <iframe
          src={src}
          title={title}
          loading="lazy"
          allow={PLAYER_FRAME.allow}
          allowFullScreen
          referrerPolicy={PLAYER_FRAME.referrerPolicy}
          sandbox={PLAYER_FRAME.sandbox}
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
