import { prepareQuery } from '../prepared';
import type { Executor } from './executor';

/** The landing page's videos: a title and the Vimeo player URL the admin pasted an embed code for. */

// Polled every 30 s by every landing visitor: compiled once.
const landingVideosQuery = prepareQuery([], (db) =>
  db.selectFrom('landingVideos').select(['id', 'videoKey', 'title', 'isActive', 'vimeoEmbedCode']).orderBy('videoKey'),
);

/** Landing videos for the public page; the raw embed code is for the caller to reduce to a player URL. */
export async function listLandingVideos(db: Executor) {
  return (await landingVideosQuery(db, {})).rows;
}

export function listLandingVideosForAdmin(db: Executor) {
  return db
    .selectFrom('landingVideos')
    .select(['id', 'videoKey', 'title', 'vimeoEmbedCode', 'isActive', 'updatedAt'])
    .orderBy('videoKey')
    .execute();
}

/** A video locked for the transaction that changes it. */
export function lockLandingVideo(db: Executor, id: string) {
  return db
    .selectFrom('landingVideos')
    .select(['id', 'videoKey', 'title', 'vimeoEmbedCode'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function updateLandingVideo(db: Executor, id: string, video: { title: string; vimeoEmbedCode: string | null }) {
  return db
    .updateTable('landingVideos')
    .set({ ...video, updatedAt: new Date() })
    .where('id', '=', id)
    .returning(['id', 'videoKey', 'title', 'vimeoEmbedCode', 'isActive', 'updatedAt'])
    .executeTakeFirstOrThrow();
}
