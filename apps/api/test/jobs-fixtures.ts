import { currentAgreement, insertSignature } from '@dn/db/queries/agreements';
import { zipCentroid } from '../src/lib/zip';
import type { Harness } from './helpers';
import { verifiedCompliance } from './onboarding-fixtures';

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

/**
 * What the real installer gate (installer_gate_ok) asks of an installer since issue 45: the current
 * agreement of its tier signed, a VERIFIED insurance document expiring on or after the routing's
 * date (`insuranceExpiresOn`) and a verified licence (written directly: the upload and review have
 * their own tests, test/compliance-documents.int.test.ts).
 */
export async function passGate(
  db: Harness['db'],
  dealerId: string,
  tier: 'Authorized' | 'Preferred',
  o: { insuranceExpiresOn: string; licenceExpiresOn?: string; signedAt?: Date },
) {
  await signCurrentAgreement(db, dealerId, tier, o.signedAt ?? new Date());
  await verifiedCompliance(db, dealerId, o);
}

/** Signs the current agreement version of `tier` as the dealer. */
export async function signCurrentAgreement(
  db: Harness['db'],
  dealerId: string,
  tier: 'Authorized' | 'Preferred',
  at: Date,
) {
  const current = (await currentAgreement(db, tier))!;
  await insertSignature(db, {
    dealerId,
    tier,
    version: current.version,
    textSha256: current.textSha256,
    signatureName: 'Jane Q Dealer',
    signedAt: at,
    ipAddress: '127.0.0.1',
    userAgent: null,
  });
}
