import type { Kysely } from 'kysely';
import type { DB, Tier } from './types';

export const DEFAULT_VIDEOS = [
  { videoKey: 'intro_video', title: '60-Second Intro Video' },
  { videoKey: 'demo_video', title: 'Full Product Demo' },
] as const;

const FORM_TIERS: Tier[] = ['Affiliate', 'Authorized', 'Preferred'];

/** What a fresh install needs. Safe to run on every start: existing rows are left alone. */
export async function seed(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto('landingVideos')
    .values(DEFAULT_VIDEOS.map((v) => ({ ...v, updatedAt: new Date() })))
    .onConflict((oc) => oc.column('videoKey').doNothing())
    .execute();
  await db
    .insertInto('firstOrderForms')
    .values(FORM_TIERS.map((tier) => ({ tier, isRequired: true, formUrl: null, updatedAt: new Date() })))
    .onConflict((oc) => oc.column('tier').doNothing())
    .execute();
}
