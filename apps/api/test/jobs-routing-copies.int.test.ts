import { randomUUID } from 'node:crypto';
import { nextInstaller } from '@dn/db/queries/jobs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipCentroid } from '../src/lib/zip';
import { weekStart } from '../src/services/jobs/offers';
import { createDealer, harnessForFile } from './helpers';
import { serviceAreaAt } from './jobs-fixtures';

/**
 * Decision 1300 (migration 4500): each service area carries its dealer's routable tier and its
 * score, kept by triggers, and the router reads only those. Every way they change moves the copy:
 * the dealer's tier and status, the score inserted, updated and removed, and an area written after
 * its score.
 */

const h = harnessForFile();
// The gate is issue 38's, tested there: here every installer passes it.
beforeAll(() =>
  sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$ select true $$`.execute(h.db),
);

const ZIP = '67901'; // Liberal, KS: no other installer of this file is near it.
const here = zipCentroid(ZIP)!;
const route = () => {
  const now = new Date();
  return nextInstaller(h.db, {
    jobId: randomUUID(),
    latitude: here.latitude,
    longitude: here.longitude,
    sellerId: null,
    now,
    weekStart: weekStart(now),
  });
};
const area = (dealerId: string) =>
  h.db
    .selectFrom('serviceAreas')
    .select(['routeTier', 'routeScore'])
    .where('dealerId', '=', dealerId)
    .executeTakeFirstOrThrow();
const setDealer = (
  id: string,
  values: { tier?: 'Affiliate' | 'Authorized' | 'Preferred'; status?: 'suspended' | 'active' },
) => h.db.updateTable('dealers').set(values).where('id', '=', id).execute();

describe('the routing copies on service_areas', () => {
  it("follow the dealer's tier and status, and the installer's score", async () => {
    const d = await createDealer(h.db, { tier: 'Authorized', status: 'approved', companyName: 'Copy Attics' });
    await serviceAreaAt(h.db, d.id, ZIP, 20);
    expect(await area(d.id)).toEqual({ routeTier: 'Authorized', routeScore: null });
    expect(await route()).toMatchObject({ dealerId: d.id, tier: 'Authorized', cold: true });

    await h.db
      .insertInto('installerScores')
      .values({ dealerId: d.id, score: '4.250', offers: 5, computedAt: new Date() })
      .execute();
    expect((await area(d.id)).routeScore).toBe('4.250');
    expect(await route()).toMatchObject({ dealerId: d.id, score: '4.250', cold: false });
    await h.db.updateTable('installerScores').set({ score: '3.125' }).where('dealerId', '=', d.id).execute();
    expect((await area(d.id)).routeScore).toBe('3.125');
    await h.db.updateTable('installerScores').set({ score: null }).where('dealerId', '=', d.id).execute();
    expect((await area(d.id)).routeScore).toBeNull();
    await h.db.updateTable('installerScores').set({ score: '2.000' }).where('dealerId', '=', d.id).execute();
    await h.db.deleteFrom('installerScores').where('dealerId', '=', d.id).execute();
    expect((await area(d.id)).routeScore).toBeNull();

    await setDealer(d.id, { status: 'suspended' });
    expect((await area(d.id)).routeTier).toBeNull();
    expect(await route()).toBeUndefined();
    await setDealer(d.id, { status: 'active' });
    expect((await area(d.id)).routeTier).toBe('Authorized');
    await setDealer(d.id, { tier: 'Preferred' });
    expect(await route()).toMatchObject({ dealerId: d.id, tier: 'Preferred' });
    await setDealer(d.id, { tier: 'Affiliate' });
    expect((await area(d.id)).routeTier).toBeNull();
    expect(await route()).toBeUndefined();
  });

  it('an area written after its score, and moved to another dealer, reads its own dealer', async () => {
    const d = await createDealer(h.db, { tier: 'Preferred', status: 'active' });
    await h.db
      .insertInto('installerScores')
      .values({ dealerId: d.id, score: '4.900', offers: 5, computedAt: new Date() })
      .execute();
    await serviceAreaAt(h.db, d.id, '66044', 20);
    expect(await area(d.id)).toEqual({ routeTier: 'Preferred', routeScore: '4.900' });

    const pending = await createDealer(h.db, { tier: 'Authorized', status: 'pending' });
    await h.db.updateTable('serviceAreas').set({ dealerId: pending.id }).where('dealerId', '=', d.id).execute();
    expect(await area(pending.id)).toEqual({ routeTier: null, routeScore: null });
  });
});
