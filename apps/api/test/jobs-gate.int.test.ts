import { currentAgreement, insertAgreementVersion, insertSignature } from '@dn/db/queries/agreements';
import { upsertCompliance } from '@dn/db/queries/dealer-compliance';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { createDealer, harnessForFile, signInAdmin, uniqueEmail } from './helpers';
import { serviceAreaAt } from './jobs-fixtures';

/**
 * Routing with the REAL job-offer gate (issue 38's installer_gate_ok, migration 2300; the
 * jobs-network files replace it with their own): an installer who signed the current agreement
 * of the tier and whose insurance and licence cover the clock's date gets the offer; with the
 * insurance expired on the routing's date, or a new agreement version unsigned, it is skipped and
 * the next eligible installer gets it.
 */

const clock = new ShiftedClock();
const h = harnessForFile({ clock });
const DAY = 24 * 60 * 60 * 1000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

let admin = '';
let preferred = '';
let authorized = '';

/** An installer passing the gate through `insuranceExpiresOn`, with a service area at `zip`. */
async function installer(tier: 'Authorized' | 'Preferred', zip: string, insuranceExpiresOn: string) {
  const d = await createDealer(h.db, { tier, status: 'approved', companyName: `${tier} gate ${zip}` });
  await serviceAreaAt(h.db, d.id, zip, 30);
  await sign(d.id, tier);
  await upsertCompliance(
    h.db,
    d.id,
    {
      insuranceCertUrl: 'https://certs.example.com/1',
      insurer: 'Acme Mutual',
      insuranceExpiresOn,
      licenseNumber: 'TX-1',
      licenseState: 'TX',
      licenseExpiresOn: '2099-12-31',
    },
    clock.now(),
  );
  return d.id;
}

async function sign(dealerId: string, tier: 'Authorized' | 'Preferred') {
  const current = (await currentAgreement(h.db, tier))!;
  await insertSignature(h.db, {
    dealerId,
    tier,
    version: current.version,
    textSha256: current.textSha256,
    signatureName: 'Jane Q Dealer',
    signedAt: clock.now(),
    ipAddress: '127.0.0.1',
    userAgent: null,
  });
}

/** An admin's job at the Preferred installer's ZIP: routed at once; returns who was offered it. */
async function routedTo() {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/admin/jobs',
    headers: { cookie: admin },
    payload: {
      homeowner: { fullName: 'Hanna Homeowner', email: uniqueEmail('gate'), phone: '512-555-0199' },
      street: '12 Elm St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const offer = await h.db
    .selectFrom('jobOffers')
    .select('dealerId')
    .where('jobId', '=', res.json().id)
    .executeTakeFirst();
  return offer?.dealerId;
}

beforeAll(async () => {
  admin = await signInAdmin(h.app);
  const today = utcDay(clock.now());
  // Preferred, at the job's ZIP, insured through today; Authorized, a few miles off, for a year.
  preferred = await installer('Preferred', '78701', today);
  authorized = await installer('Authorized', '78702', '2099-12-31');
});

describe('routing through the real installer gate', () => {
  it('offers the job to the installer passing the gate, and skips it once its insurance has expired', async () => {
    expect(await routedTo()).toBe(preferred);
    // The clock's next UTC day (the routing's date): the Preferred installer's cover has ended.
    const today = utcDay(clock.now());
    clock.advance(Date.parse(`${today}T00:00:00Z`) + DAY + 60_000 - clock.now().getTime());
    expect(await routedTo()).toBe(authorized);
    await upsertCompliance(
      h.db,
      preferred,
      {
        insuranceCertUrl: 'https://certs.example.com/2',
        insurer: 'Acme Mutual',
        insuranceExpiresOn: '2099-12-31',
        licenseNumber: 'TX-1',
        licenseState: 'TX',
        licenseExpiresOn: '2099-12-31',
      },
      clock.now(),
    );
    expect(await routedTo()).toBe(preferred);
  });

  it('skips an installer who has not signed a new agreement version of its tier, until it signs', async () => {
    await insertAgreementVersion(h.db, 'Preferred', '# Preferred Dealer Agreement v-next', 'gate-test');
    expect(await routedTo()).toBe(authorized);
    await sign(preferred, 'Preferred');
    expect(await routedTo()).toBe(preferred);
  });
});
