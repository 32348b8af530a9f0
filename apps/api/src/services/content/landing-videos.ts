import {
  listLandingVideos,
  lockLandingVideo,
  listLandingVideosForAdmin as readLandingVideosForAdmin,
  updateLandingVideo,
} from '@dn/db/queries/landing-videos';
import { extractVimeoPlayerUrl, type updateLandingVideo as updateLandingVideoInput } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';

/**
 * The landing videos for the public page. The admin's embed code never leaves the server: only the Vimeo player
 * URL extracted from it (https://player.vimeo.com, id and privacy hash) is sent.
 */
export async function landingVideos(ctx: Context) {
  const rows = await listLandingVideos(ctx.db);
  return rows.map((v) => ({
    id: v.id,
    videoKey: v.videoKey,
    title: v.title,
    isActive: v.isActive,
    playerUrl: v.isActive ? extractVimeoPlayerUrl(v.vimeoEmbedCode) : null,
  }));
}

export function listLandingVideosForAdmin(ctx: Context) {
  return readLandingVideosForAdmin(ctx.db);
}

/**
 * Stores the player URL extracted from the pasted embed code, never the HTML. A blank title
 * keeps the current one; a blank embed code keeps the current video.
 */
export async function updateLandingVideoConfig(
  ctx: Context & { user: User },
  input: z.output<typeof updateLandingVideoInput>,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockLandingVideo(trx, input.videoId);
    if (!before) throw new AppError('NOT_FOUND', 'Video not found');
    const title = input.title?.trim() || before.title;
    const playerUrl = input.vimeoEmbedCode?.trim()
      ? extractVimeoPlayerUrl(input.vimeoEmbedCode)
      : before.vimeoEmbedCode;
    const row = await updateLandingVideo(trx, input.videoId, { title, vimeoEmbedCode: playerUrl });
    await audit(trx, ctx, {
      eventType: 'landing_video.updated',
      category: 'admin',
      message: `${ctx.user.username} updated the ${before.videoKey} video`,
      details: {
        videoKey: before.videoKey,
        before: { title: before.title, vimeoEmbedCode: before.vimeoEmbedCode },
        after: { title, vimeoEmbedCode: playerUrl },
      },
    });
    return row;
  });
}
