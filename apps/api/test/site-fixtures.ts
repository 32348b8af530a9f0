import { createTestDatabase, testDbKind } from '@dn/db/testing';
import { createHarness, type Harness } from './helpers';

/** A complete, valid application for a tier, with overrides. */
export function application(tier: 'Affiliate' | 'Authorized' | 'Preferred', over: Record<string, unknown> = {}) {
  const installer = tier !== 'Affiliate';
  return {
    tier,
    fullName: 'Jane Applicant',
    companyName: 'Attic Pros LLC',
    email: `jane.${Math.random().toString(36).slice(2)}@example.com`,
    phoneE164: '(512) 555-0142',
    addressJson: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
    ...(installer
      ? {
          entityType: 'LLC',
          licensedInstallers: true,
          crewCount: 3,
          insuranceCertUrl: 'https://example.com/cert.pdf',
          maintainInventory: true,
          salesReps: 2,
          monthlyVolume: 5000,
        }
      : {}),
    ...(tier === 'Preferred' ? { permittingCapable: true, homePerformance: true } : {}),
    crmName: 'HubSpot',
    productVerticals: ['Solar: Residential', 'Healthy Food & Water: Water'],
    onboardingCallOk: true,
    referredBy: 'none',
    ...over,
  };
}

/** An affiliate link owned by an approved dealer. */
export async function createLink(db: Harness['db'], dealerId: string, recruiterId: string, isActive = true) {
  return db
    .insertInto('affiliateLinks')
    .values({ recruiterId, dealerId, affiliateCode: `code-${recruiterId}`, isActive, updatedAt: new Date() })
    .returning(['id', 'recruiterId'])
    .executeTakeFirstOrThrow();
}

/**
 * An app for race tests on its own database. PGlite is one session behind a socket that can
 * interleave the protocol messages of concurrent connections outside a transaction, so there it
 * gets one connection (the requests still race in the app); PostgreSQL gets a real pool.
 */
export async function raceHarness() {
  const database = await createTestDatabase(testDbKind(), testDbKind() === 'pglite' ? 1 : 10);
  const h = await createHarness({ database });
  return {
    ...h,
    async close() {
      await h.close();
      await database.close();
    },
  };
}
