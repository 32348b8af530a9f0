import { listLandingVideos } from '@dn/db/queries/landing-videos-read';
import { listPublicDealers } from '@dn/db/queries/site-signup';
import { extractVimeoPlayerUrl } from '@dn/schema';
import type { Context } from '../trpc/context';

/** Approved and active dealers for the referral picker: id, fullName, companyName only. */
export function publicDealers(ctx: Context) {
  return listPublicDealers(ctx.db);
}

/**
 * The landing videos. The admin's embed code never leaves the server: only the Vimeo player
 * URL extracted from it (https://player.vimeo.com, id and privacy hash) is sent.
 */
export async function landingVideos(ctx: Context) {
  const rows = await listLandingVideos(ctx.db);
  return rows.map((v) => ({
    videoKey: v.videoKey,
    title: v.title,
    isActive: v.isActive,
    playerUrl: v.isActive ? extractVimeoPlayerUrl(v.vimeoEmbedCode) : null,
  }));
}
