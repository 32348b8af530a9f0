import { insertAgreementVersion } from '@dn/db/queries/agreements';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { createDealer, harnessForFile, signInAdmin, uniqueEmail } from './helpers';
import { passGate, serviceAreaAt, signCurrentAgreement } from './jobs-fixtures';
import { complianceDocument } from './onboarding-fixtures';

/**
 * Routing with the REAL job-offer gate (issue 38's installer_gate_ok, migration 2300, reading
 * verified documents since issue 45's migration 3100; the jobs-network files replace it with their
 * own): an installer who signed the current agreement of the tier and whose VERIFIED insurance and
 * licence cover the clock's date gets the offer; with the insurance expired on the routing's date,
 * only pending, rejected or typed without a file, or a new agreement version unsigned, it is
 * skipped and the next eligible installer gets it.
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
  await passGate(h.db, d.id, tier, { insuranceExpiresOn, licenceExpiresOn: '2099-12-31', signedAt: clock.now() });
  return d.id;
}

const sign = (dealerId: string, tier: 'Authorized' | 'Preferred') =>
  signCurrentAgreement(h.db, dealerId, tier, clock.now());

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
    // A renewal uploaded but not yet checked opens nothing; verified, it does.
    const renewal = await complianceDocument(h.db, preferred, 'insurance', '2099-12-31', 'pending');
    expect(await routedTo()).toBe(authorized);
    await h.db.updateTable('complianceDocuments').set({ status: 'verified' }).where('id', '=', renewal).execute();
    expect(await routedTo()).toBe(preferred);
  });

  it('skips an installer who has not signed a new agreement version of its tier, until it signs', async () => {
    await insertAgreementVersion(h.db, 'Preferred', '# Preferred Dealer Agreement v-next', 'gate-test');
    expect(await routedTo()).toBe(authorized);
    await sign(preferred, 'Preferred');
    expect(await routedTo()).toBe(preferred);
  });
});

describe('only a verified, unexpired insurance document opens the gate', () => {
  it('refuses a typed date, a pending, a rejected and an expired certificate; opens on the verified one', async () => {
    const today = utcDay(clock.now());
    const d = await createDealer(h.db, { tier: 'Preferred', status: 'approved', companyName: 'Only Evidence Co' });
    await sign(d.id, 'Preferred');
    await complianceDocument(h.db, d.id, 'licence', '2099-12-31');
    const gate = async () =>
      (await sql<{ ok: boolean }>`select installer_gate_ok(${d.id}::uuid, ${today}::date) as ok`.execute(h.db)).rows[0]!
        .ok;
    expect(await gate()).toBe(false); // no insurance at all
    // A date typed before documents (migration 3100 made these): pending, no file.
    await h.db
      .insertInto('complianceDocuments')
      .values({ dealerId: d.id, kind: 'insurance', expiresOn: '2099-12-31', note: 'Typed before documents' })
      .execute();
    expect(await gate()).toBe(false);
    await complianceDocument(h.db, d.id, 'insurance', '2099-12-31', 'pending');
    expect(await gate()).toBe(false);
    await complianceDocument(h.db, d.id, 'insurance', '2099-12-31', 'rejected');
    expect(await gate()).toBe(false);
    await complianceDocument(h.db, d.id, 'insurance', '2020-01-01', 'verified'); // verified, expired
    expect(await gate()).toBe(false);
    await complianceDocument(h.db, d.id, 'insurance', today, 'verified'); // verified, last day of cover
    expect(await gate()).toBe(true);
    // The licence counts the same way: only its verified document.
    await h.db.deleteFrom('complianceDocuments').where('dealerId', '=', d.id).where('kind', '=', 'licence').execute();
    await complianceDocument(h.db, d.id, 'licence', '2099-12-31', 'pending');
    expect(await gate()).toBe(false);
  });
});
