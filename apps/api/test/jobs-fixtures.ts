import { zipCentroid } from '../src/lib/zip';
import type { Harness } from './helpers';

/** An installer's service area at a ZIP's centroid (written directly: the PUT endpoint has its own test). */
export async function serviceAreaAt(
  db: Harness['db'],
  dealerId: string,
  zip: string,
  radiusMiles: number,
  o: { capacity?: number; paused?: boolean; pausedUntil?: Date | null } = {},
) {
  const c = zipCentroid(zip);
  if (!c) throw new Error(`unknown ZIP ${zip}`);
  await db
    .insertInto('serviceAreas')
    .values({
      dealerId,
      zipCode: zip,
      state: c.state,
      latitude: c.latitude,
      longitude: c.longitude,
      radiusMiles,
      weeklyCapacity: o.capacity ?? 5,
      paused: o.paused ?? false,
      pausedUntil: o.pausedUntil ?? null,
    })
    .execute();
}
