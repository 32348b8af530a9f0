import type { Executor } from './executor';

/** Landing videos for the public page; the raw embed code is for the caller to reduce to a player URL. */
export async function listLandingVideos(db: Executor) {
  return db
    .selectFrom('landingVideos')
    .select(['videoKey', 'title', 'isActive', 'vimeoEmbedCode'])
    .orderBy('videoKey')
    .execute();
}
