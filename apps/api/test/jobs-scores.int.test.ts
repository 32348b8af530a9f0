import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { SWEEPS } from '../src/services/scheduler/sweeps';
import { createDealer, mailHarnessForFile, signInAdmin, signInDealer, uniqueEmail } from './helpers';
import { serviceAreaAt } from './jobs-fixtures';

/**
 * Issue 50: installers' scores kept from their offers and reviews (decision 1120), the pause after
 * three offers expired in a row and the installer's own resume (1123), and the owners' tier review
 * (1124), whose one action is the existing tier change.
 */

const clock = new ShiftedClock();
const h = mailHarnessForFile({ clock });
const HOUR = 60 * 60 * 1000;
beforeAll(() =>
  sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$ select true $$`.execute(h.db),
);

const expirySweep = SWEEPS.find((s) => s.name === 'jobs.offer-expiry')!;
const scoresSweep = SWEEPS.find((s) => s.name === 'jobs.installer-scores')!;

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: unknown) =>
  h.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

let ownerCookie = '';
const owner = async () => {
  ownerCookie ||= await signInAdmin(h.app, `owner${Math.random().toString(36).slice(2, 8)}`);
  return ownerCookie;
};
async function adminAs(role: 'viewer' | 'reviewer') {
  const name = `${role}${Math.random().toString(36).slice(2, 8)}`;
  const cookie = await signInAdmin(h.app, name);
  await h.db.updateTable('admins').set({ role }).where('username', '=', name).execute();
  return cookie;
}

async function installer(tier: 'Authorized' | 'Preferred', zip: string, radius = 30) {
  const companyName = `${tier} Attics ${Math.random().toString(36).slice(2, 6)}`;
  const d = await createDealer(h.db, { tier, status: 'approved', companyName });
  await serviceAreaAt(h.db, d.id, zip, radius);
  return { ...d, companyName, cookie: await signInDealer(h.app, d.email) };
}

async function adminJob(zipCode: string, state: string, city: string) {
  const res = await inject('POST', '/api/admin/jobs', await owner(), {
    homeowner: { fullName: 'Hanna Homeowner', email: uniqueEmail('home'), phone: '512-555-0199' },
    street: '12 Elm St',
    city,
    state,
    zipCode,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; status: string };
}

const openOfferOf = (jobId: string) =>
  h.db.selectFrom('jobOffers').selectAll().where('jobId', '=', jobId).where('status', '=', 'open').executeTakeFirst();
const scoreOf = (dealerId: string) =>
  h.db.selectFrom('installerScores').selectAll().where('dealerId', '=', dealerId).executeTakeFirst();
const areaOf = (dealerId: string) =>
  h.db.selectFrom('serviceAreas').selectAll().where('dealerId', '=', dealerId).executeTakeFirstOrThrow();
const pausedMails = (to: string) =>
  h.db
    .selectFrom('emailOutbox')
    .selectAll()
    .where('toAddress', '=', to)
    .where('kind', '=', 'job_offers_paused')
    .execute();

/** A job in Billings offered to `who` (the only installer there), expired by the sweep a day later. */
async function expireOne(zip: string, state: string, city: string, who: string) {
  const { id } = await adminJob(zip, state, city);
  expect((await openOfferOf(id))?.dealerId).toBe(who);
  clock.advance(24 * HOUR + 60_000);
  expect(await expirySweep.run(h.app.deps)).toBeGreaterThanOrEqual(1);
  return id;
}

describe('the score', () => {
  it('is kept from the offers answered and expired in 90 days and every review; the timeline says why', async () => {
    const inst = await installer('Preferred', '59101'); // Billings, MT
    // Accepted after an hour.
    const a = await adminJob('59102', 'MT', 'Billings');
    const offerA = (await openOfferOf(a.id))!;
    expect(offerA.dealerId).toBe(inst.id);
    const timeline = await inject('GET', `/api/admin/jobs/${a.id}/timeline`, await owner());
    const offered = timeline.json().items.find((e: { kind: string }) => e.kind === 'offered');
    // No history yet: the Preferred median (none kept yet: 2.5).
    expect(offered.message).toMatch(
      new RegExp(
        `^Offered to ${inst.companyName}: Preferred, score 2\\.5 \\(the Preferred median: no history yet\\), \\d+\\.\\d miles; open for 24 hours$`,
      ),
    );
    clock.advance(HOUR);
    expect((await inject('POST', `/api/dealer/job-offers/${offerA.id}/accept`, inst.cookie)).statusCode).toBe(200);
    // Declined after three hours.
    const b = await adminJob('59102', 'MT', 'Billings');
    const offerB = (await openOfferOf(b.id))!;
    clock.advance(3 * HOUR);
    const declined = await inject('POST', `/api/dealer/job-offers/${offerB.id}/decline`, inst.cookie, {
      reason: 'Booked that week',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    // Expired after 24 hours.
    await expireOne('59102', 'MT', 'Billings', inst.id);

    // 1 of 3 accepted; median answer 3 h: 5 x (0.3 x 1/3 + 0.2 x (1 - 3/24)) / 0.5 = 2.75 (the shifted
    // clock runs on between steps: a few seconds more).
    let s = (await scoreOf(inst.id))!;
    expect(s).toMatchObject({ offers: 3, accepted: 1, declined: 1, expired: 1 });
    expect(s.responseSeconds).toBeGreaterThanOrEqual(3 * 3600);
    expect(s.responseSeconds).toBeLessThan(3 * 3600 + 60);
    expect(Number(s.score)).toBeCloseTo(2.75, 2);
    expect(s.reviewCount).toBe(0);
    expect(s.ratingAverage).toBeNull();

    // A 5-star review of the installed job: 5 x (0.5 x 1 + 0.3 / 3 + 0.2 x 0.875) = 3.875.
    await h.db
      .insertInto('jobReviews')
      .values({ jobId: a.id, installerId: inst.id, rating: 5, createdAt: clock.now() })
      .execute();
    s = (await scoreOf(inst.id))!;
    expect(s).toMatchObject({ reviewCount: 1, ratingAverage: '5.00' });
    expect(Number(s.score)).toBeCloseTo(3.875, 2);

    // The next offer says so, with one decimal.
    const c = await adminJob('59102', 'MT', 'Billings');
    const again = await inject('GET', `/api/admin/jobs/${c.id}/timeline`, await owner());
    expect(again.json().items.find((e: { kind: string }) => e.kind === 'offered').message).toMatch(
      new RegExp(`^Offered to ${inst.companyName}: Preferred, score 3\\.9, \\d+\\.\\d miles; open for 24 hours$`),
    );

    // 91 days on, the offers left the window: the daily sweep recomputes (the review stays).
    clock.advance(91 * 24 * HOUR);
    await expirySweep.run(h.app.deps);
    // c expired too (93 days back by the refresh): only the review is left.
    clock.advance(2 * 24 * HOUR);
    expect(await scoresSweep.run(h.app.deps)).toBeGreaterThanOrEqual(1);
    s = (await scoreOf(inst.id))!;
    expect(s).toMatchObject({ offers: 0, expired: 0, reviewCount: 1, score: '5.000' });
    const medians = await h.db.selectFrom('installerTierMedians').selectAll().execute();
    expect(medians.map((m) => m.tier).sort()).toEqual(['Authorized', 'Preferred']);
  });
});

describe('three offers expired in a row', () => {
  it('pause the area once, with one email; an answer between starts the count over; the installer resumes', async () => {
    const inst = await installer('Authorized', '04101'); // Portland, ME
    await expireOne('04102', 'ME', 'Portland', inst.id);
    await expireOne('04102', 'ME', 'Portland', inst.id);
    expect((await scoreOf(inst.id))?.expiredStreak).toBe(2);
    // An accept between: the count starts over.
    const between = await adminJob('04102', 'ME', 'Portland');
    const offer = (await openOfferOf(between.id))!;
    expect((await inject('POST', `/api/dealer/job-offers/${offer.id}/accept`, inst.cookie)).statusCode).toBe(200);
    expect((await scoreOf(inst.id))?.expiredStreak).toBe(0);
    await expireOne('04102', 'ME', 'Portland', inst.id);
    await expireOne('04102', 'ME', 'Portland', inst.id);
    expect((await areaOf(inst.id)).paused).toBe(false);
    expect(await pausedMails(inst.email)).toHaveLength(0);

    // Two offers open at once, both expiring in one sweep: the third pauses, the fourth finds it paused.
    const x = await adminJob('04102', 'ME', 'Portland');
    const y = await adminJob('04102', 'ME', 'Portland');
    expect((await openOfferOf(x.id))?.dealerId).toBe(inst.id);
    expect((await openOfferOf(y.id))?.dealerId).toBe(inst.id);
    clock.advance(24 * HOUR + 60_000);
    expect(await expirySweep.run(h.app.deps)).toBe(2);
    expect((await scoreOf(inst.id))?.expiredStreak).toBe(4);
    const area = await areaOf(inst.id);
    expect(area).toMatchObject({ paused: true, pausedUntil: null, pausedReason: 'expired_offers' });
    const mails = await pausedMails(inst.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your job offers are paused: 3 offers expired without an answer');
    expect(mails[0]!.textBody).toContain('press Resume under your service area');
    expect(mails[0]!.textBody).toContain('/dashboard');

    // Offers stop: a new job nearby finds nobody.
    const none = await adminJob('04102', 'ME', 'Portland');
    expect(none.status).toBe('unrouted');
    const seen = await inject('GET', '/api/dealer/service-area', inst.cookie);
    expect(seen.json().area).toMatchObject({ paused: true, pausedReason: 'expired_offers' });

    // Others may not resume it for them; a dealer without an area has nothing to resume.
    expect((await inject('POST', '/api/dealer/service-area/resume')).statusCode).toBe(401);
    const affiliate = await createDealer(h.db, { tier: 'Affiliate', status: 'approved' });
    const affCookie = await signInDealer(h.app, affiliate.email);
    expect((await inject('POST', '/api/dealer/service-area/resume', affCookie)).statusCode).toBe(403);
    const bare = await createDealer(h.db, { tier: 'Authorized', status: 'approved' });
    const bareCookie = await signInDealer(h.app, bare.email);
    const nothing = await inject('POST', '/api/dealer/service-area/resume', bareCookie);
    expect(nothing.statusCode).toBe(404);
    expect(nothing.json().message).toBe('Set your service area first');
    expect((await inject('POST', '/api/dealer/service-area/resume', await owner())).statusCode).toBe(403);
    expect((await areaOf(inst.id)).paused).toBe(true);

    // The installer resumes: unpaused, the count starts over, offers come again; no second email.
    const resumed = await inject('POST', '/api/dealer/service-area/resume', inst.cookie);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().area).toMatchObject({ paused: false, pausedUntil: null, pausedReason: null });
    expect((await scoreOf(inst.id))?.expiredStreak).toBe(0);
    const back = await adminJob('04102', 'ME', 'Portland');
    expect((await openOfferOf(back.id))?.dealerId).toBe(inst.id);
    expect(await pausedMails(inst.email)).toHaveLength(1);
  });

  it('end with the installer unpausing through the service area form too', async () => {
    const inst = await installer('Preferred', '83702'); // Boise, ID
    for (let k = 0; k < 3; k++) await expireOne('83702', 'ID', 'Boise', inst.id);
    expect((await areaOf(inst.id)).pausedReason).toBe('expired_offers');
    // Saving the form still paused keeps the reason; unticking "Not taking work" resumes.
    const still = await inject('PUT', '/api/dealer/service-area', inst.cookie, {
      zipCode: '83702',
      radiusMiles: 40,
      paused: true,
    });
    expect(still.json().area).toMatchObject({ paused: true, pausedReason: 'expired_offers', radiusMiles: 40 });
    const saved = await inject('PUT', '/api/dealer/service-area', inst.cookie, {
      zipCode: '83702',
      radiusMiles: 40,
      paused: false,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().area).toMatchObject({ paused: false, pausedReason: null });
    expect((await scoreOf(inst.id))?.expiredStreak).toBe(0);
    expect(await pausedMails(inst.email)).toHaveLength(1);
  });
});

describe('GET /api/admin/tier-reviews', () => {
  it('lists Preferred installers below the Authorized median and Authorized ones above the Preferred median, with evidence', async () => {
    const now = clock.now();
    const scored = async (tier: 'Authorized' | 'Preferred', score: string, offers = 8) => {
      const d = await createDealer(h.db, { tier, status: 'approved', companyName: `${tier} ${score} Co` });
      await h.db
        .insertInto('installerScores')
        .values({
          dealerId: d.id,
          score,
          offers,
          accepted: Math.floor(offers / 2),
          declined: 1,
          expired: offers - Math.floor(offers / 2) - 1,
          responseSeconds: 7200,
          ratingAverage: '3.50',
          reviewCount: 2,
          computedAt: now,
        })
        .execute();
      return d;
    };
    // The medians come from many: Preferred around 4.2, Authorized around 3.3.
    for (const s of ['4.100', '4.200', '4.300', '4.250', '4.150']) await scored('Preferred', s);
    for (const s of ['3.200', '3.300', '3.400', '3.350', '3.250']) await scored('Authorized', s);
    const weak = await scored('Preferred', '0.400');
    const strong = await scored('Authorized', '4.990');
    const thin = await scored('Preferred', '0.300', 4); // too few offers to judge

    const reviewer = await adminAs('reviewer');
    const res = await inject('GET', '/api/admin/tier-reviews', reviewer);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.month).toMatch(/^[A-Z][a-z]+ \d{4}$/);
    expect(body.medians.Preferred).toBeGreaterThan(4);
    expect(body.medians.Authorized).toBeLessThan(4);
    const ids = body.items.map((i: { dealerId: string }) => i.dealerId);
    expect(ids).toContain(weak.id);
    expect(ids).toContain(strong.id);
    expect(ids).not.toContain(thin.id);
    const w = body.items.find((i: { dealerId: string }) => i.dealerId === weak.id);
    expect(w).toMatchObject({
      tier: 'Preferred',
      suggestedTier: 'Authorized',
      score: 0.4,
      averageRating: 3.5,
      reviewCount: 2,
      offers: 8,
      accepted: 4,
      declined: 1,
      expired: 3,
      acceptanceRate: 0.5,
      medianResponseSeconds: 7200,
    });
    expect(body.items.find((i: { dealerId: string }) => i.dealerId === strong.id).suggestedTier).toBe('Preferred');

    // The action is the existing tier change: audited, the dealer's tier changed, the row gone.
    const applied = await inject('POST', `/api/admin/dealers/${weak.id}/upgrade-tier`, reviewer, {
      tier: 'Authorized',
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const dealer = await h.db.selectFrom('dealers').select('tier').where('id', '=', weak.id).executeTakeFirstOrThrow();
    expect(dealer.tier).toBe('Authorized');
    const audit = await h.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('dealerId', '=', weak.id)
      .where('eventType', '=', 'dealer.tier_changed')
      .execute();
    expect(audit).toHaveLength(1);
    const after = await inject('GET', '/api/admin/tier-reviews', reviewer);
    expect(after.json().items.map((i: { dealerId: string }) => i.dealerId)).not.toContain(weak.id);

    // Viewers and dealers are refused (403); anonymous is 401.
    expect((await inject('GET', '/api/admin/tier-reviews')).statusCode).toBe(401);
    expect((await inject('GET', '/api/admin/tier-reviews', await adminAs('viewer'))).statusCode).toBe(403);
    const d = await createDealer(h.db, { tier: 'Preferred', status: 'approved' });
    expect((await inject('GET', '/api/admin/tier-reviews', await signInDealer(h.app, d.email))).statusCode).toBe(403);
  });
});
