import { prepareQuery } from '../prepared';
import type { Executor } from './executor';

// Polled every 30 s by every landing visitor: compiled once.
const landingVideosQuery = prepareQuery([], (db) =>
  db.selectFrom('landingVideos').select(['videoKey', 'title', 'isActive', 'vimeoEmbedCode']).orderBy('videoKey'),
);

/** Landing videos for the public page; the raw embed code is for the caller to reduce to a player URL. */
export async function listLandingVideos(db: Executor) {
  return (await landingVideosQuery(db, {})).rows;
}
