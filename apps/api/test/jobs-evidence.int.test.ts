import { recruiterNets } from '@dn/db/queries/net-payable';
import {
  INSTALLATION_ALREADY_ANSWERED,
  INSTALLATION_NOT_INSTALLED,
  JOB_SELF_INSTALL_NOT_READY,
  OFFER_NOT_ELIGIBLE,
} from '@dn/schema';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { sha256 } from '../src/lib/tokens';
import { SWEEPS } from '../src/services/scheduler/sweeps';
import { createDealer, harnessForFile, signInAdmin, signInDealer, uniqueEmail } from './helpers';
import { serviceAreaAt } from './jobs-fixtures';
import { setRuleForEveryTier } from './partner-fixtures';

/**
 * Issue 45, findings 1 and 8 (decisions 1000-1002): a job's amount and its commission rest on
 * evidence (an owner for an amount above the job's, the homeowner's confirmation, self-dealing in
 * Risk), a self-installed job passes the installer gate, and an installer is checked again when it
 * accepts and loses its open offers when it no longer qualifies.
 */

const clock = new ShiftedClock();
const h = harnessForFile({ clock }, 240_000);
const REVIEW_AMOUNT = '99999999.99';

/** The installer gate as most of these tests set it: the dealers in `failing` fail it, everyone else passes. */
const stubGate = (failing: string[] = []) => {
  const list = failing.length
    ? failing.map((id) => `'${id}'::uuid`).join(', ')
    : `'00000000-0000-0000-0000-000000000000'::uuid`;
  return sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as ${sql.raw(`$$ select p_dealer not in (${list}) $$`)}`.execute(h.db);
};

let owner = '';
let reviewer = '';

beforeAll(async () => {
  owner = await signInAdmin(h.app, 'evidence-owner');
  reviewer = await signInAdmin(h.app, 'evidence-reviewer');
  await h.db.updateTable('admins').set({ role: 'reviewer' }).where('username', '=', 'evidence-reviewer').execute();
  await setRuleForEveryTier(h, owner, { type: 'percent', value: '10', appliesTo: 'all', holdDays: 0 });
});

type Tier = 'Affiliate' | 'Authorized' | 'Preferred';

/** A recruiter and a dealer it referred (signed in), with a service area at `zip` when it installs. */
async function referred(tier: Tier, zip: string | null = null) {
  const recruiter = await createDealer(h.db, { status: 'active', fullName: 'Rita Recruiter' });
  await h.db
    .updateTable('dealers')
    .set({ recruiterId: `rita${Math.random().toString(36).slice(2, 10)}` })
    .where('id', '=', recruiter.id)
    .execute();
  const dealer = await createDealer(h.db, {
    tier,
    status: 'approved',
    referredBy: recruiter.id,
    companyName: `${tier} ${Math.random().toString(36).slice(2, 6)}`,
  });
  await h.db.updateTable('dealers').set({ approvalDate: clock.now() }).where('id', '=', dealer.id).execute();
  if (zip) await serviceAreaAt(h.db, dealer.id, zip, 30);
  return { recruiter, dealer, cookie: await signInDealer(h.app, dealer.email) };
}

async function installer(tier: 'Authorized' | 'Preferred', zip: string) {
  const d = await createDealer(h.db, { tier, status: 'approved', companyName: `${tier} ${zip}` });
  await serviceAreaAt(h.db, d.id, zip, 30);
  return { ...d, cookie: await signInDealer(h.app, d.email) };
}

const job = (zipCode: string, over: Record<string, unknown> = {}) => ({
  homeowner: { fullName: 'Hanna Homeowner', email: uniqueEmail('home'), phone: '512-555-0199' },
  street: '12 Elm St',
  city: 'Austin',
  state: 'TX',
  zipCode,
  ...over,
});

const inject = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: unknown) =>
  h.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const jobRow = (id: string) => h.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const countJobs = async () =>
  Number(
    (
      await h.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const commissionsOf = (recruiterDealerId: string) =>
  h.db.selectFrom('commissions').selectAll().where('recruiterDealerId', '=', recruiterDealerId).execute();
const ordersOf = (dealerId: string) => h.db.selectFrom('orders').selectAll().where('dealerId', '=', dealerId).execute();
const openOffer = (jobId: string) =>
  h.db.selectFrom('jobOffers').selectAll().where('jobId', '=', jobId).where('status', '=', 'open').executeTakeFirst();
const offersOf = (jobId: string) =>
  h.db.selectFrom('jobOffers').selectAll().where('jobId', '=', jobId).orderBy('offeredAt').orderBy('id').execute();

/** Gives the job a status link we know (the real one is only in the homeowner's email). */
async function statusToken(jobId: string) {
  const token = `tok_${jobId.replaceAll('-', '')}`;
  await h.db
    .updateTable('jobs')
    .set({ statusTokenHash: sha256(token) })
    .where('id', '=', jobId)
    .execute();
  return token;
}

const answer = (token: string, payload: unknown) =>
  inject('POST', `/api/installation-status/${token}/confirm`, undefined, payload);

/** What the recruiter could be paid now: its payable (approved, unbatched) net. */
async function payableTo(recruiterDealerId: string) {
  const nets = await recruiterNets(h.db, 'payable');
  return nets.find((n) => n.recruiterDealerId === recruiterDealerId)?.amount ?? '0.00';
}

/** Approves every pending commission of the recruiter it can; returns what was skipped. */
async function approveAll(recruiterDealerId: string) {
  const ids = (await commissionsOf(recruiterDealerId)).map((c) => c.id);
  const res = await inject('POST', '/api/admin/commissions/approve', owner, { ids });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { approved: string[]; skipped: { id: string; reason: string }[] };
}

const riskOf = async (referredDealerId: string) => {
  const res = await inject('GET', '/api/admin/risk?status=open', owner);
  expect(res.statusCode).toBe(200);
  return (
    res.json() as { id: string; signals: string[]; reason: string; referred: { id: string }; held: { count: number } }[]
  ).find((f) => f.referred.id === referredDealerId);
};

/** A job sold by a referred Affiliate, accepted by an installer, ready to be marked installed. */
async function acceptedJob(zip: string, amount: string | null = '1500.00') {
  const seller = await referred('Affiliate');
  const inst = await installer('Authorized', zip);
  const created = await inject('POST', '/api/dealer/jobs', seller.cookie, job(zip, amount ? { amount } : {}));
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const offer = await openOffer(id);
  expect(offer?.dealerId).toBe(inst.id);
  expect((await inject('POST', `/api/dealer/job-offers/${offer!.id}/accept`, inst.cookie)).statusCode).toBe(200);
  const install = (payload: object = {}) =>
    inject('POST', `/api/dealer/jobs/${id}/status`, inst.cookie, { status: 'installed', ...payload });
  return { id, seller, inst, install, token: await statusToken(id) };
}

describe('finding 1: the review scenario, with the real installer gate', () => {
  it('a brand-new Authorized dealer cannot register a job it installs itself, so its recruiter earns nothing', async () => {
    const { recruiter, dealer, cookie } = await referred('Authorized', '78701');
    const before = await countJobs();
    const res = await inject('POST', '/api/dealer/jobs', cookie, job('78701', { amount: REVIEW_AMOUNT }));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ message: JOB_SELF_INSTALL_NOT_READY });
    expect(await countJobs()).toBe(before);
    // Handed off, it is the network's to install (nobody passes the gate here: unrouted).
    const handed = await inject('POST', '/api/dealer/jobs', cookie, job('78701', { amount: '900.00', handOff: true }));
    expect(handed.statusCode, handed.body).toBe(201);
    expect((await jobRow(handed.json().id)).installerId).toBeNull();
    expect(await commissionsOf(recruiter.id)).toEqual([]);
    expect(await ordersOf(dealer.id)).toEqual([]);
    expect(await payableTo(recruiter.id)).toBe('0.00');
  });
});

describe('finding 1: amounts and commissions on evidence', () => {
  beforeAll(() => stubGate());

  it('an onboarded dealer installing its own job at 99,999,999.99: an owner decides the amount, the commission is held as self-dealing in Risk, nothing is payable', async () => {
    const { recruiter, dealer, cookie } = await referred('Authorized', '78701');
    const created = await inject('POST', '/api/dealer/jobs', cookie, job('78701', { amount: '1000.00' }));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ status: 'accepted' });
    const id = created.json().id as string;
    const token = await statusToken(id);

    const installed = await inject('POST', `/api/dealer/jobs/${id}/status`, cookie, {
      status: 'installed',
      amount: REVIEW_AMOUNT,
    });
    expect(installed.statusCode, installed.body).toBe(200);
    expect(installed.json()).toMatchObject({ status: 'installed', amountReview: 'pending', installedAmount: null });
    expect(await ordersOf(dealer.id)).toEqual([]);
    expect(await commissionsOf(recruiter.id)).toEqual([]);
    // The homeowner is not asked while the amount is being checked.
    expect((await inject('GET', `/api/installation-status/${token}`)).json().installation).toMatchObject({
      canAnswer: false,
      amount: null,
    });
    expect((await answer(token, { confirmed: true })).statusCode).toBe(409);

    const listed = (await inject('GET', '/api/admin/jobs?status=installed', owner)).json().items;
    expect(listed.find((j: { id: string }) => j.id === id)).toMatchObject({
      amount: '1000.00',
      requestedAmount: REVIEW_AMOUNT,
      amountReview: 'pending',
      selfInstalled: true,
    });

    const decide = (payload: object, c?: string) => inject('POST', `/api/admin/jobs/${id}/amount`, c, payload);
    expect((await decide({ decision: 'approve' })).statusCode).toBe(401);
    expect((await decide({ decision: 'approve' }, cookie)).statusCode).toBe(403);
    expect((await decide({ decision: 'approve' }, reviewer)).statusCode).toBe(403);
    const bad = await decide({ decision: 'maybe' }, owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ decision: 'Decision must be approve or reject' });
    expect((await inject('POST', '/api/admin/jobs/not-an-id/amount', owner, { decision: 'reject' })).statusCode).toBe(
      400,
    );
    expect(await ordersOf(dealer.id)).toEqual([]);

    const rejected = await decide({ decision: 'reject' }, owner);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ amountReview: 'rejected', installedAmount: '1000.00' });
    expect((await decide({ decision: 'approve' }, owner)).statusCode).toBe(409);
    expect((await ordersOf(dealer.id)).map((o) => [o.source, o.amount])).toEqual([['job', '1000.00']]);

    const [entry] = await commissionsOf(recruiter.id);
    expect(entry).toMatchObject({ status: 'held', releaseNeeds: 'owner', amount: '100.00' });
    const flag = await riskOf(dealer.id);
    expect(flag?.signals).toContain('self_installed');
    expect(flag?.reason).toMatch(/self-dealing/);
    expect(flag?.held.count).toBe(1);

    expect((await approveAll(recruiter.id)).approved).toEqual([]);
    expect(await payableTo(recruiter.id)).toBe('0.00');
    // The homeowner's word does not release a self-dealt commission (the seller typed the homeowner's email).
    expect((await answer(token, { confirmed: true })).statusCode).toBe(200);
    expect((await commissionsOf(recruiter.id))[0]).toMatchObject({ status: 'held' });
    expect(await payableTo(recruiter.id)).toBe('0.00');

    // The owner decides in Risk.
    const cleared = await inject('POST', `/api/admin/risk/${flag!.id}/clear`, owner, { reason: 'Checked the invoice' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await commissionsOf(recruiter.id))[0]).toMatchObject({ status: 'pending', releaseNeeds: null });
    expect((await approveAll(recruiter.id)).approved).toHaveLength(1);
    expect(await payableTo(recruiter.id)).toBe('100.00');
  });

  it("an amount above the job's that an owner approves becomes the order's; one at or below it needs nobody", async () => {
    const above = await acceptedJob('97201', '1000.00');
    expect((await above.install({ amount: '1200.00' })).json()).toMatchObject({ amountReview: 'pending' });
    const approved = await inject('POST', `/api/admin/jobs/${above.id}/amount`, owner, { decision: 'approve' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await ordersOf(above.seller.dealer.id)).map((o) => o.amount)).toEqual(['1200.00']);
    expect(await commissionsOf(above.seller.recruiter.id)).toMatchObject([
      { status: 'held', releaseNeeds: 'installation', amount: '120.00' },
    ]);

    const same = await acceptedJob('85004', '1000.00');
    expect((await same.install()).json()).toMatchObject({ amountReview: null, installedAmount: '1000.00' });
    const lower = await acceptedJob('80202', '1000.00');
    expect((await lower.install({ amount: '999.99' })).json()).toMatchObject({ installedAmount: '999.99' });
    // A job registered without an amount: any amount is the installer's word, for an owner.
    const none = await acceptedJob('84101', null);
    expect((await none.install({ amount: '10.00' })).json()).toMatchObject({ amountReview: 'pending' });
    expect(await ordersOf(none.seller.dealer.id)).toEqual([]);
  });

  it("a job's commission is held until the homeowner confirms the installation, once, from the status link", async () => {
    const j = await acceptedJob('30303');
    const page = await inject('GET', `/api/installation-status/${j.token}`);
    expect(page.json().installation).toMatchObject({ canAnswer: false, answer: null });
    const early = await answer(j.token, { confirmed: true });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: INSTALLATION_NOT_INSTALLED });

    expect((await j.install({ amount: '1450.00' })).statusCode).toBe(200);
    expect(await commissionsOf(j.seller.recruiter.id)).toMatchObject([
      { status: 'held', releaseNeeds: 'installation', amount: '145.00' },
    ]);
    expect((await approveAll(j.seller.recruiter.id)).approved).toEqual([]);
    expect((await inject('GET', `/api/installation-status/${j.token}`)).json().installation).toEqual({
      amount: '1450.00',
      answer: null,
      answeredAt: null,
      canAnswer: true,
    });

    for (const payload of [{}, { confirmed: 'yes' }, { confirmed: null }]) {
      const res = await answer(j.token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().fieldErrors).toEqual({ confirmed: 'Confirmed must be true or false' });
    }
    expect((await answer('not-a-real-token', { confirmed: true })).statusCode).toBe(404);
    expect((await jobRow(j.id)).homeownerAnswer).toBeNull();

    // Eight answers at once: one counts.
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => answer(j.token, { confirmed: i % 2 === 0 })));
    const codes = all.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const won = all.find((r) => r.statusCode === 200)!;
    expect(won.headers['referrer-policy']).toBe('no-referrer');
    expect((await inject('GET', `/api/installation-status/${j.token}`)).headers['referrer-policy']).toBe('no-referrer');
    expect(all.find((r) => r.statusCode === 409)!.json()).toMatchObject({ message: INSTALLATION_ALREADY_ANSWERED });
    const row = await jobRow(j.id);
    expect(row.homeownerAnswer).toBe(won.json().answer);
    if (row.homeownerAnswer === 'confirmed') {
      expect((await commissionsOf(j.seller.recruiter.id))[0]).toMatchObject({ status: 'pending', releaseNeeds: null });
      expect((await approveAll(j.seller.recruiter.id)).approved).toHaveLength(1);
      expect(await payableTo(j.seller.recruiter.id)).toBe('145.00');
    } else {
      expect((await commissionsOf(j.seller.recruiter.id))[0]).toMatchObject({ status: 'held', releaseNeeds: 'owner' });
    }
    expect((await inject('GET', `/api/installation-status/${j.token}`)).json().installation).toMatchObject({
      canAnswer: false,
      answer: row.homeownerAnswer,
    });
  });

  it('a dispute keeps the commission held for an owner and raises a Risk entry', async () => {
    const j = await acceptedJob('60601');
    await j.install();
    const res = await answer(j.token, { confirmed: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ answer: 'disputed' });
    expect(await commissionsOf(j.seller.recruiter.id)).toMatchObject([{ status: 'held', releaseNeeds: 'owner' }]);
    const flag = await riskOf(j.seller.dealer.id);
    expect(flag?.signals).toEqual(['installation_disputed']);
    expect(flag?.reason).toMatch(/disputed the installation/);
    // Released from Jobs, it still waits for the owner's decision in Risk; voided there, it is never paid.
    const released = await inject('POST', `/api/admin/jobs/${j.id}/release-commission`, owner);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ status: 'held' });
    const voided = await inject('POST', `/api/admin/risk/${flag!.id}/void`, owner, { reason: 'Not installed' });
    expect(voided.statusCode).toBe(200);
    expect(await commissionsOf(j.seller.recruiter.id)).toMatchObject([{ status: 'voided' }]);
    expect(await payableTo(j.seller.recruiter.id)).toBe('0.00');
  });

  it('an owner releases a commission waiting for the homeowner; reviewers, dealers and anonymous cannot', async () => {
    const j = await acceptedJob('02108');
    await j.install();
    const url = `/api/admin/jobs/${j.id}/release-commission`;
    expect((await inject('POST', url)).statusCode).toBe(401);
    expect((await inject('POST', url, j.inst.cookie)).statusCode).toBe(403);
    expect((await inject('POST', url, reviewer)).statusCode).toBe(403);
    expect((await inject('POST', '/api/admin/jobs/nope/release-commission', owner)).statusCode).toBe(400);
    expect((await commissionsOf(j.seller.recruiter.id))[0]).toMatchObject({ status: 'held' });
    const twice = await Promise.all([inject('POST', url, owner), inject('POST', url, owner)]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await commissionsOf(j.seller.recruiter.id))[0]).toMatchObject({ status: 'pending', releaseNeeds: null });
    // A job with no held commission (no seller) answers 409, not 500.
    const quote = await inject('POST', '/api/admin/jobs', owner, job('02108'));
    expect((await inject('POST', `/api/admin/jobs/${quote.json().id}/release-commission`, owner)).statusCode).toBe(409);
  });
});

describe('finding 8: eligibility re-checked when it matters', () => {
  beforeAll(() => stubGate());

  /** A job offered to a Preferred installer (`first`), with an Authorized one (`next`) farther off. */
  async function offered(zip: string, nearZip: string, farZip: string) {
    const first = await installer('Preferred', nearZip);
    const next = await installer('Authorized', farZip);
    const res = await inject('POST', '/api/admin/jobs', owner, job(zip));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    const offer = (await openOffer(id))!;
    expect(offer.dealerId).toBe(first.id);
    return { id, offer, first, next };
  }

  it('an installer downgraded to Affiliate cannot accept: 409, no homeowner contact, the job goes to the next installer', async () => {
    const o = await offered('77002', '77002', '77019');
    // Changed behind the console's back (no hook): the accept itself checks.
    await h.db.updateTable('dealers').set({ tier: 'Affiliate' }).where('id', '=', o.first.id).execute();
    const res = await inject('POST', `/api/dealer/job-offers/${o.offer.id}/accept`, o.first.cookie);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ message: OFFER_NOT_ELIGIBLE('your tier does not install jobs') });
    expect(res.body).not.toContain('Hanna');
    expect((await offersOf(o.id)).map((x) => [x.dealerId, x.status])).toEqual([
      [o.first.id, 'withdrawn'],
      [o.next.id, 'open'],
    ]);
    expect(await jobRow(o.id)).toMatchObject({ status: 'offered', installerId: null });
  });

  it('an installer whose gate closed cannot accept', async () => {
    const o = await offered('75201', '75201', '75204');
    await stubGate([o.first.id]);
    try {
      const res = await inject('POST', `/api/dealer/job-offers/${o.offer.id}/accept`, o.first.cookie);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/agreement, insurance or licence/);
      expect((await openOffer(o.id))?.dealerId).toBe(o.next.id);
    } finally {
      await stubGate();
    }
  });

  it('suspending an installer in the console withdraws its open offer and passes the job on at once', async () => {
    const o = await offered('63101', '63101', '63104');
    const res = await inject('POST', `/api/admin/dealers/${o.first.id}/status`, owner, { status: 'suspended' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await offersOf(o.id)).map((x) => [x.dealerId, x.status])).toEqual([
      [o.first.id, 'withdrawn'],
      [o.next.id, 'open'],
    ]);
  });

  it('downgrading an installer to Affiliate in the console does the same; an Authorized to Preferred change does not', async () => {
    const o = await offered('78201', '78201', '78209');
    const up = await inject('POST', `/api/admin/dealers/${o.next.id}/upgrade-tier`, owner, { tier: 'Preferred' });
    expect(up.statusCode, up.body).toBe(200);
    expect((await openOffer(o.id))?.dealerId).toBe(o.first.id);
    const down = await inject('POST', `/api/admin/dealers/${o.first.id}/upgrade-tier`, owner, { tier: 'Affiliate' });
    expect(down.statusCode, down.body).toBe(200);
    expect((await openOffer(o.id))?.dealerId).toBe(o.next.id);
  });

  it("an accept racing the installer's suspension: one outcome, no error", async () => {
    for (const [zip, near, far] of [
      ['97401', '97401', '97402'],
      ['99201', '99201', '99205'],
    ] as const) {
      const o = await offered(zip, near, far);
      const [accept, suspend] = await Promise.all([
        inject('POST', `/api/dealer/job-offers/${o.offer.id}/accept`, o.first.cookie),
        inject('POST', `/api/admin/dealers/${o.first.id}/status`, owner, { status: 'suspended' }),
      ]);
      expect(suspend.statusCode, suspend.body).toBe(200);
      expect([200, 401, 409]).toContain(accept.statusCode);
      const offers = await offersOf(o.id);
      const mine = offers.find((x) => x.dealerId === o.first.id)!;
      if (accept.statusCode === 200) {
        expect(mine.status).toBe('accepted');
        expect(await jobRow(o.id)).toMatchObject({ status: 'accepted', installerId: o.first.id });
      } else {
        expect(mine.status).toBe('withdrawn');
        expect((await openOffer(o.id))?.dealerId).toBe(o.next.id);
      }
    }
  });

  it('an installer whose compliance lapsed loses its open offer to the sweep, which passes the job on', async () => {
    const o = await offered('79901', '79901', '79912');
    const sweep = SWEEPS.find((s) => s.name === 'jobs.ineligible-offers')!;
    expect(await sweep.run(h.app.deps)).toBe(0);
    await stubGate([o.first.id]);
    try {
      expect(await sweep.run(h.app.deps)).toBe(1);
      expect(await sweep.run(h.app.deps)).toBe(0);
      expect((await openOffer(o.id))?.dealerId).toBe(o.next.id);
      const events = (await inject('GET', `/api/admin/jobs/${o.id}/timeline`, owner)).json().items;
      expect(events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'offered', 'withdrawn', 'offered']);
    } finally {
      await stubGate();
    }
  });
});
