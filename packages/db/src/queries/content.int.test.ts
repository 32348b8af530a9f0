import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { findFirstOrderForm, listFirstOrderForms, upsertFirstOrderForm } from './first-order-forms';
import { listLandingVideos, listLandingVideosForAdmin, lockLandingVideo, updateLandingVideo } from './landing-videos';

/** The site content an admin edits: landing videos and first-order forms (both seeded). */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

describe(`landing-videos and first-order-forms queries on ${process.env.TEST_DB}`, () => {
  it('updates a landing video and the public list sees it', async () => {
    const [demo] = await listLandingVideosForAdmin(t.db);
    expect(demo?.videoKey).toBe('demo_video');
    const url = 'https://player.vimeo.com/video/123456789?h=abc';
    const row = await t.db.transaction().execute(async (trx) => {
      const before = await lockLandingVideo(trx, demo!.id);
      expect(before).toMatchObject({ id: demo!.id, videoKey: 'demo_video' });
      return updateLandingVideo(trx, demo!.id, { title: 'New demo', vimeoEmbedCode: url });
    });
    expect(row).toMatchObject({ id: demo!.id, title: 'New demo', vimeoEmbedCode: url });
    expect(row.updatedAt).toBeInstanceOf(Date);
    // The compiled public statement, twice: the same rows each time.
    for (let i = 0; i < 2; i++) {
      expect(await listLandingVideos(t.db)).toEqual([
        { id: expect.any(String), videoKey: 'demo_video', title: 'New demo', isActive: true, vimeoEmbedCode: url },
        expect.objectContaining({ videoKey: 'intro_video' }),
      ]);
    }
    expect(await lockLandingVideo(t.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it("replaces a tier's first-order form and reads it back", async () => {
    expect((await listFirstOrderForms(t.db)).map((f) => f.tier)).toEqual(['Affiliate', 'Authorized', 'Preferred']);
    const url = 'https://docs.google.com/forms/d/e/abc/viewform';
    const row = await upsertFirstOrderForm(t.db, { tier: 'Affiliate', formUrl: url, isRequired: false });
    expect(row).toMatchObject({ tier: 'Affiliate', formUrl: url, isRequired: false });
    expect(await findFirstOrderForm(t.db, 'Affiliate')).toEqual({ tier: 'Affiliate', formUrl: url, isRequired: false });
    await upsertFirstOrderForm(t.db, { tier: 'Affiliate', formUrl: null, isRequired: true });
    expect(await findFirstOrderForm(t.db, 'Affiliate')).toEqual({ tier: 'Affiliate', formUrl: null, isRequired: true });
    expect(await listFirstOrderForms(t.db)).toHaveLength(3);
  });
});
