import {
  JOB_STATUS_LINK_NOT_FOUND,
  RATING_INVALID,
  REVIEW_ALREADY_GIVEN,
  REVIEW_COMMENT_NO_LINKS,
  REVIEW_NOT_INSTALLED,
  SCORECARD_INSTALLERS_ONLY,
} from '@dn/schema';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { sha256 } from '../src/lib/tokens';
import { createDealer, harnessForFile, signInAdmin, signInDealer, uniqueEmail } from './helpers';
import { serviceAreaAt } from './jobs-fixtures';

/**
 * Issue 50 (decisions 1100-1102): a homeowner rates an installed job once from the status link
 * (and only once it is installed; 400s name the field and store nothing), and each installer's
 * scorecard reads its reviews and its offers: exact figures from a seeded history, for the
 * installer, for the console's table and for the dealer's page, and their tier's medians.
 */

const clock = new ShiftedClock();
const h = harnessForFile({ clock }, 240_000);

let owner = '';

beforeAll(async () => {
  owner = await signInAdmin(h.app, 'reviews-owner');
  // Everyone passes the installer gate here (the gate has its own tests: jobs-evidence, jobs-gate).
  await sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$ select true $$`.execute(h.db);
});

const inject = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: unknown) =>
  h.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const review = (token: string, payload: unknown) =>
  inject('POST', `/api/installation-status/${token}/review`, undefined, payload);
const reviewsOf = (jobId: string) => h.db.selectFrom('jobReviews').selectAll().where('jobId', '=', jobId).execute();

/** A job sold by an Affiliate and accepted by an Authorized installer; `install()` marks it installed. */
async function acceptedJob(zip: string) {
  const seller = await createDealer(h.db, { tier: 'Affiliate', status: 'approved' });
  const sellerCookie = await signInDealer(h.app, seller.email);
  const inst = await createDealer(h.db, { tier: 'Authorized', status: 'approved', companyName: `Attic ${zip}` });
  await serviceAreaAt(h.db, inst.id, zip, 30);
  const instCookie = await signInDealer(h.app, inst.email);
  const created = await inject('POST', '/api/dealer/jobs', sellerCookie, {
    homeowner: { fullName: 'Hanna Homeowner', email: uniqueEmail('home'), phone: '512-555-0199' },
    street: '12 Elm St',
    city: 'Austin',
    state: 'TX',
    zipCode: zip,
    amount: '1500.00',
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const offer = await h.db
    .selectFrom('jobOffers')
    .selectAll()
    .where('jobId', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  expect(offer.dealerId).toBe(inst.id);
  expect((await inject('POST', `/api/dealer/job-offers/${offer.id}/accept`, instCookie)).statusCode).toBe(200);
  const token = `tok_${id.replaceAll('-', '')}`;
  await h.db
    .updateTable('jobs')
    .set({ statusTokenHash: sha256(token) })
    .where('id', '=', id)
    .execute();
  const install = async () => {
    const res = await inject('POST', `/api/dealer/jobs/${id}/status`, instCookie, { status: 'installed' });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { id, token, inst, instCookie, install };
}

describe('the homeowner reviews an installed job once', () => {
  it('before installation it is 409; bad input is a 400 naming the field and stores nothing; an unknown link is 404', async () => {
    const j = await acceptedJob('78701');
    const early = await review(j.token, { rating: 5 });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: REVIEW_NOT_INSTALLED });
    expect((await inject('GET', `/api/installation-status/${j.token}`)).json()).toMatchObject({
      review: null,
      canReview: false,
    });
    await j.install();

    for (const rating of [0, 6, 4.5, -1, '5', null, 'five']) {
      const res = await review(j.token, { rating, comment: 'Fine' });
      expect(res.statusCode, String(rating)).toBe(400);
      expect(res.json().fieldErrors).toEqual({ rating: RATING_INVALID });
    }
    const missing = await review(j.token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual({ rating: RATING_INVALID });
    for (const comment of ['Great, see https://evil.example/deal', 'call www.cheap-fans.biz', 'joe@example.com']) {
      const res = await review(j.token, { rating: 5, comment });
      expect(res.statusCode, comment).toBe(400);
      expect(res.json().fieldErrors).toEqual({ comment: REVIEW_COMMENT_NO_LINKS });
    }
    const long = await review(j.token, { rating: 5, comment: 'x'.repeat(2001) });
    expect(long.json().fieldErrors).toEqual({ comment: 'Comment must be at most 2000 characters' });
    const consent = await review(j.token, { rating: 5, publicConsent: 'yes' });
    expect(consent.json().fieldErrors).toEqual({ publicConsent: 'Public consent must be true or false' });
    const unknown = await review('not-a-real-token', { rating: 5 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: JOB_STATUS_LINK_NOT_FOUND });
    expect(await reviewsOf(j.id)).toEqual([]);
    expect((await inject('GET', `/api/installation-status/${j.token}`)).json()).toMatchObject({
      review: null,
      canReview: true,
    });
  });

  it('ten reviews at once: exactly one 201, nine 409, no 500; it names the installer and shows on the status page, the timeline and the scorecard', async () => {
    const j = await acceptedJob('97201');
    await j.install();
    const all = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        review(j.token, { rating: (i % 5) + 1, comment: `  Crew ${i} was on time.  `, publicConsent: i % 2 === 0 }),
      ),
    );
    const codes = all.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(all.find((r) => r.statusCode === 409)!.json()).toMatchObject({ message: REVIEW_ALREADY_GIVEN });
    const won = all.find((r) => r.statusCode === 201)!;
    expect(won.headers['referrer-policy']).toBe('no-referrer');
    const stored = await reviewsOf(j.id);
    expect(stored).toHaveLength(1);
    const row = stored[0]!;
    expect(row).toMatchObject({ installerId: j.inst.id, rating: won.json().rating, comment: won.json().comment });
    expect(row.comment).toMatch(/^Crew \d was on time\.$/);
    expect(won.json()).toMatchObject({ publicConsent: row.publicConsent });

    const page = (await inject('GET', `/api/installation-status/${j.token}`)).json();
    expect(page).toMatchObject({ canReview: false, review: { rating: row.rating, comment: row.comment } });
    // Another later: still 409, and the confirmation is its own answer (not blocked by the review).
    expect((await review(j.token, { rating: 1 })).statusCode).toBe(409);
    const confirmed = await inject('POST', `/api/installation-status/${j.token}/confirm`, undefined, {
      confirmed: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const timeline = await inject('GET', `/api/admin/jobs/${j.id}/timeline`, owner);
    expect(JSON.stringify(timeline.json())).toContain(`The homeowner rated the installation ${row.rating} of 5 stars`);

    // The installer reads it on their scorecard; no homeowner name, no consent flag.
    const card = await inject('GET', '/api/dealer/scorecard', j.instCookie);
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json()).toMatchObject({ averageRating: row.rating, reviewCount: 1, tier: 'Authorized' });
    expect(card.json().latestReviews).toEqual([
      { rating: row.rating, comment: row.comment, createdAt: row.createdAt.toISOString(), city: 'Austin', state: 'TX' },
    ]);
  });

  it('the tRPC procedure answers as the REST path does', async () => {
    const j = await acceptedJob('30303');
    await j.install();
    const bad = await h.app.inject({
      method: 'POST',
      url: '/trpc/jobs.reviewInstallation',
      payload: { token: j.token, rating: 9 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.data.fieldErrors).toEqual({ rating: RATING_INVALID });
    const ok = await h.app.inject({
      method: 'POST',
      url: '/trpc/jobs.reviewInstallation',
      payload: { token: j.token, rating: 4 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['referrer-policy']).toBe('no-referrer');
    expect(await reviewsOf(j.id)).toMatchObject([{ rating: 4, comment: null, publicConsent: false }]);
  });
});

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** A job of `installerId` written directly (the history's jobs; the flow has its own tests above). */
async function seededJob(installerId: string | null, status: 'offered' | 'accepted' | 'installed' = 'offered') {
  const row = await h.db
    .insertInto('jobs')
    .values({
      origin: 'admin',
      installerId,
      status,
      homeownerName: 'Seeded Homeowner',
      homeownerEmail: uniqueEmail('seeded'),
      homeownerPhone: '+15125550100',
      street: '1 Main St',
      city: 'Tulsa',
      state: 'OK',
      zipCode: '74103',
      latitude: 36.15,
      longitude: -95.99,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An offer made `ago` before `now`, answered (or closed) `after` later. */
async function seededOffer(
  dealerId: string,
  now: Date,
  status: 'open' | 'accepted' | 'declined' | 'expired' | 'withdrawn' | 'assigned',
  ago: number,
  after: number | null,
) {
  const jobId = await seededJob(null);
  const offeredAt = new Date(now.getTime() - ago);
  await h.db
    .insertInto('jobOffers')
    .values({
      jobId,
      dealerId,
      status,
      distanceMiles: '3.0',
      offeredAt,
      expiresAt: new Date(offeredAt.getTime() + DAY),
      respondedAt: after === null ? null : new Date(offeredAt.getTime() + after),
    })
    .execute();
}

/** A job the installer completed `ago` before `now` (its `installed` step then). */
async function completedJob(dealerId: string, now: Date, ago: number) {
  const id = await seededJob(dealerId, 'installed');
  await h.db
    .insertInto('jobEvents')
    .values({
      jobId: id,
      kind: 'installed',
      actor: 'seed',
      message: 'Installed',
      dealerId,
      createdAt: new Date(now.getTime() - ago),
    })
    .execute();
  return id;
}

async function seededReview(jobId: string, installerId: string, rating: number, at: Date, comment: string | null) {
  await h.db
    .insertInto('jobReviews')
    .values({ jobId, installerId, rating, comment, publicConsent: rating === 5, createdAt: at })
    .execute();
}

describe('the scorecard from a seeded history', () => {
  const ids = { p1: '', p2: '', p3: '', p4: '', affiliate: '' };
  const cookies = { p1: '', affiliate: '' };
  let t0 = new Date();

  beforeAll(async () => {
    // The Preferred tier is this history's alone (the review tests above use Authorized installers).
    const before = await h.db
      .selectFrom('dealers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tier', '=', 'Preferred')
      .executeTakeFirstOrThrow();
    expect(Number(before.n)).toBe(0);
    t0 = clock.now();
    const dealer = (companyName: string, status: 'approved' | 'active' | 'suspended' = 'approved') =>
      createDealer(h.db, { tier: 'Preferred', status, companyName });
    const [p1, p2, p3, p4] = await Promise.all([
      dealer('Prime Attic'),
      dealer('Second Attic', 'active'),
      dealer('Quiet Attic'),
      dealer('Suspended Attic', 'suspended'),
    ]);
    Object.assign(ids, { p1: p1!.id, p2: p2!.id, p3: p3!.id, p4: p4!.id });
    const aff = await createDealer(h.db, { tier: 'Affiliate', status: 'approved' });
    ids.affiliate = aff.id;
    cookies.p1 = await signInDealer(h.app, p1!.email);
    cookies.affiliate = await signInDealer(h.app, aff.email);

    // P1: 2 accepted (30, 90 min), 2 declined (60, 240 min), 1 expired, 1 open, 1 withdrawn, 1
    // assigned (not an offer), and one accepted 100 days ago (outside the 90 days).
    await seededOffer(ids.p1, t0, 'accepted', 10 * DAY, 30 * MIN);
    await seededOffer(ids.p1, t0, 'accepted', 20 * DAY, 90 * MIN);
    await seededOffer(ids.p1, t0, 'declined', 5 * DAY, 60 * MIN);
    await seededOffer(ids.p1, t0, 'declined', 6 * DAY, 240 * MIN);
    await seededOffer(ids.p1, t0, 'expired', 3 * DAY, DAY);
    await seededOffer(ids.p1, t0, 'open', 60 * MIN, null);
    await seededOffer(ids.p1, t0, 'withdrawn', 2 * DAY, 5 * MIN);
    await seededOffer(ids.p1, t0, 'assigned', 4 * DAY, 0);
    await seededOffer(ids.p1, t0, 'accepted', 100 * DAY, 5 * MIN);
    // Two jobs completed in the window, one 120 days ago; 5, 4 and 4 stars (the newest last).
    const done1 = await completedJob(ids.p1, t0, 10 * DAY);
    const done2 = await completedJob(ids.p1, t0, 40 * DAY);
    const old = await completedJob(ids.p1, t0, 120 * DAY);
    await seededJob(ids.p1, 'accepted');
    await seededReview(old, ids.p1, 4, new Date(t0.getTime() - 119 * DAY), 'Solid work.');
    await seededReview(done2, ids.p1, 5, new Date(t0.getTime() - 39 * DAY), 'Excellent, tidy crew.');
    await seededReview(done1, ids.p1, 4, new Date(t0.getTime() - 9 * DAY), null);

    // P2: 1 accepted in 10 min, 1 expired; one completed job rated 3.
    await seededOffer(ids.p2, t0, 'accepted', 7 * DAY, 10 * MIN);
    await seededOffer(ids.p2, t0, 'expired', 8 * DAY, DAY);
    await seededReview(await completedJob(ids.p2, t0, 5 * DAY), ids.p2, 3, new Date(t0.getTime() - 4 * DAY), 'OK.');
    // P3: nothing. P4 (suspended, not in the tier's medians): one expired offer.
    await seededOffer(ids.p4, t0, 'expired', 2 * DAY, DAY);
  });

  const P1 = {
    tier: 'Preferred',
    days: 90,
    averageRating: 4.33,
    reviewCount: 3,
    received: 7,
    accepted: 2,
    declined: 2,
    expired: 1,
    acceptanceRate: 0.4,
    medianAnswerMinutes: 75,
    jobsCompleted: 2,
  };
  // Over P1, P2 and P3 (P4 is suspended): counts with zeros, the rest over those that have one.
  const PREFERRED_MEDIANS = {
    installers: 3,
    averageRating: 3.67,
    reviewCount: 1,
    received: 2,
    accepted: 1,
    declined: 0,
    expired: 1,
    acceptanceRate: 0.45,
    medianAnswerMinutes: 42.5,
    jobsCompleted: 1,
  };

  it("the installer's card: exact figures, the tier's medians, the latest reviews newest first", async () => {
    const res = await inject('GET', '/api/dealer/scorecard', cookies.p1);
    expect(res.statusCode, res.body).toBe(200);
    const card = res.json();
    expect(card).toMatchObject(P1);
    expect(card.tierMedians).toEqual(PREFERRED_MEDIANS);
    expect(card.latestReviews).toEqual([
      {
        rating: 4,
        comment: null,
        createdAt: new Date(t0.getTime() - 9 * DAY).toISOString(),
        city: 'Tulsa',
        state: 'OK',
      },
      {
        rating: 5,
        comment: 'Excellent, tidy crew.',
        createdAt: new Date(t0.getTime() - 39 * DAY).toISOString(),
        city: 'Tulsa',
        state: 'OK',
      },
      {
        rating: 4,
        comment: 'Solid work.',
        createdAt: new Date(t0.getTime() - 119 * DAY).toISOString(),
        city: 'Tulsa',
        state: 'OK',
      },
    ]);
  });

  it('401 signed out, 403 with why for a dealer who does not install, 403 for a dealer on the console', async () => {
    expect((await inject('GET', '/api/dealer/scorecard')).statusCode).toBe(401);
    const affiliate = await inject('GET', '/api/dealer/scorecard', cookies.affiliate);
    expect(affiliate.statusCode).toBe(403);
    expect(affiliate.json()).toMatchObject({ message: SCORECARD_INSTALLERS_ONLY });
    for (const url of ['/api/admin/scorecards', `/api/admin/dealers/${ids.p1}/scorecard`]) {
      expect((await inject('GET', url)).statusCode, url).toBe(401);
      expect((await inject('GET', url, cookies.p1)).statusCode, url).toBe(403);
    }
  });

  it("the dealer's page in the console: the same card with each review's job and consent; none for an Affiliate", async () => {
    const res = await inject('GET', `/api/admin/dealers/${ids.p1}/scorecard`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().card).toMatchObject(P1);
    expect(res.json().card.tierMedians).toEqual(PREFERRED_MEDIANS);
    expect(res.json().card.latestReviews.map((r: { publicConsent: boolean }) => r.publicConsent)).toEqual([
      false,
      true,
      false,
    ]);
    expect(res.json().card.latestReviews[0].jobId).toMatch(/^[0-9a-f-]{36}$/);
    const p3 = (await inject('GET', `/api/admin/dealers/${ids.p3}/scorecard`, owner)).json().card;
    expect(p3).toMatchObject({
      averageRating: null,
      reviewCount: 0,
      received: 0,
      acceptanceRate: null,
      medianAnswerMinutes: null,
      jobsCompleted: 0,
      latestReviews: [],
    });
    expect((await inject('GET', `/api/admin/dealers/${ids.affiliate}/scorecard`, owner)).json()).toEqual({
      card: null,
    });
    const bad = await inject('GET', '/api/admin/dealers/not-an-id/scorecard', owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ id: 'Dealer id must be a valid id' });
  });

  it("the console's table: every installer (a suspended one with offers too), sorted by any figure, nulls last", async () => {
    const mine = (items: { dealerId: string }[]) =>
      items.filter((r) => Object.values(ids).includes(r.dealerId)).map((r) => r.dealerId);
    const get = async (query: string) => {
      const res = await inject('GET', `/api/admin/scorecards${query}`, owner);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const rated = await get('');
    expect(rated.tierMedians.Preferred).toEqual(PREFERRED_MEDIANS);
    // By rating, highest first; the unrated after, by name.
    expect(mine(rated.items)).toEqual([ids.p1, ids.p2, ids.p3, ids.p4]);
    const { days: _, ...figures } = P1;
    expect(rated.items.find((r: { dealerId: string }) => r.dealerId === ids.p1)).toMatchObject({
      ...figures,
      companyName: 'Prime Attic',
      status: 'approved',
    });
    const ascending = await get('?sort=averageRating&dir=asc');
    expect(mine(ascending.items).slice(0, 2)).toEqual([ids.p2, ids.p1]);
    expect(mine((await get('?sort=received&dir=desc')).items)).toEqual([ids.p1, ids.p2, ids.p4, ids.p3]);
    expect(mine((await get('?sort=medianAnswerMinutes&dir=asc')).items).slice(0, 2)).toEqual([ids.p2, ids.p1]);
    expect(mine((await get('?sort=name&dir=asc')).items)).toEqual([ids.p1, ids.p3, ids.p2, ids.p4]);
    // No Affiliate is listed.
    expect(mine(rated.items)).not.toContain(ids.affiliate);

    for (const [query, field, message] of [
      ['?sort=rank', 'sort', /^Sort must be one of name, tier, averageRating/],
      ['?dir=up', 'dir', /^Direction must be asc or desc$/],
      ['?page=0', 'page', /^Page must be 1 or more$/],
    ] as const) {
      const res = await inject('GET', `/api/admin/scorecards${query}`, owner);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().fieldErrors[field]).toMatch(message);
    }
  });
});
