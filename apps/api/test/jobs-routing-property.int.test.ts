import { createRequire } from 'node:module';
import { NEAR_TIE, nextInstaller } from '@dn/db/queries/jobs';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { zipCentroid } from '../src/lib/zip';
import { weekStart } from '../src/services/jobs/offers';
import { createDealer, harnessForFile, signInAdmin } from './helpers';

/**
 * Issue 37's property, with issue 50's scores: for random installers (random scores, some without
 * history, so at their tier's median) and a random job, the installer offered the job is the first
 * eligible one by the rule (decisions 0911 and 1120-1122: Preferred first; within the tier the best
 * score, and the nearest of those within NEAR_TIE of it), computed here independently with the
 * haversine distance on earthdistance's sphere; and passed on and on, a job is never offered to a
 * lower-scored installer before a higher-scored one of the same tier except inside the near-tie, nor
 * to an Authorized installer before an eligible Preferred one. Kansas ZIP codes only: the other test
 * files route elsewhere.
 */

const clock = new ShiftedClock();
const h = harnessForFile({ clock });
// The installer gate is the onboarding issue's (38), tested there: here every installer passes it.
beforeAll(() =>
  sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$ select true $$`.execute(h.db),
);
const DAY = 24 * 60 * 60 * 1000;
const EARTH_MILES = 6378168 / 1609.344;
const KS: string[] = (createRequire(import.meta.url)('zipcodes') as { lookupByState(s: string): { zip: string }[] })
  .lookupByState('KS')
  .map((z) => z.zip)
  .filter((z) => zipCentroid(z))
  .sort();

const rad = (d: number) => (d * Math.PI) / 180;
function miles(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const s =
    Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_MILES * Math.asin(Math.sqrt(s));
}

const installerArb = fc.record({
  /** Miles north and east of the job's ZIP centre: near enough for ties within 5 miles to happen. */
  north: fc.integer({ min: -10, max: 10 }),
  east: fc.integer({ min: -10, max: 10 }),
  tier: fc.constantFrom('Affiliate', 'Authorized', 'Authorized', 'Preferred', 'Preferred' as const),
  status: fc.constantFrom('approved', 'active', 'approved', 'active', 'pending' as const),
  radius: fc.integer({ min: 5, max: 20 }),
  pause: fc.constantFrom('none', 'none', 'none', 'none', 'flag', 'untilFuture', 'untilPast', 'flagUntilPast' as const),
  capacity: fc.integer({ min: 1, max: 4 }),
  takenThisWeek: fc.integer({ min: 0, max: 2 }),
  /** Offers of other jobs open now: they count against the week's capacity (decision 1125). */
  openNow: fc.integer({ min: 0, max: 2 }),
  declinedRecently: fc.integer({ min: 0, max: 3 }),
  /** Thousandths, 4.000 to 5.000 in steps of 0.05 (near-ties and exact ties happen), or no history. */
  score: fc.option(
    fc.integer({ min: 0, max: 20 }).map((k) => 4000 + 50 * k),
    { nil: null, freq: 3 },
  ),
});
/** The tiers' medians (thousandths), or none kept yet (DEFAULT_MEDIAN). */
const mediansArb = fc.record({
  Preferred: fc.option(
    fc.integer({ min: 80, max: 100 }).map((k) => 50 * k),
    { nil: null },
  ),
  Authorized: fc.option(
    fc.integer({ min: 80, max: 100 }).map((k) => 50 * k),
    { nil: null },
  ),
});
type Medians = { Preferred: number | null; Authorized: number | null };
const TIE = Math.round(NEAR_TIE * 1000);

let admin = '';
let shared = '';
type Spec = typeof installerArb extends fc.Arbitrary<infer T> ? T : never;
type Point = { zip: string; latitude: number; longitude: number; city?: string };
async function pastJob() {
  const c = zipCentroid('66044')!;
  const row = await h.db
    .insertInto('jobs')
    .values({
      origin: 'admin',
      status: 'cancelled',
      homeownerName: 'Past',
      homeownerEmail: 'past@example.com',
      homeownerPhone: '+15551230000',
      street: '1 Past St',
      city: 'Lawrence',
      state: 'KS',
      zipCode: '66044',
      latitude: c.latitude,
      longitude: c.longitude,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An installer of the spec near `point`, with its past offers; returns what the reference needs. */
async function seedInstaller(s: Spec, point: Point, now: Date) {
  const d = await createDealer(h.db, { tier: s.tier, status: s.status, password: null });
  const centre = {
    latitude: point.latitude + s.north / 69,
    longitude: point.longitude + s.east / (69 * Math.cos(rad(point.latitude))),
  };
  const pausedUntil =
    s.pause === 'untilFuture'
      ? new Date(now.getTime() + 3 * DAY)
      : s.pause === 'untilPast' || s.pause === 'flagUntilPast'
        ? new Date(now.getTime() - DAY)
        : null;
  await h.db
    .insertInto('serviceAreas')
    .values({
      dealerId: d.id,
      zipCode: point.zip,
      state: 'KS',
      ...centre,
      radiusMiles: s.radius,
      weeklyCapacity: s.capacity,
      paused: s.pause === 'flag' || s.pause === 'flagUntilPast',
      pausedUntil,
    })
    .execute();
  if (s.score !== null) {
    await h.db
      .insertInto('installerScores')
      .values({ dealerId: d.id, score: (s.score / 1000).toFixed(3), offers: 5, computedAt: now })
      .execute();
  }
  // Taken this week (one job each: a job has one holder), and declined within the last 30 days.
  const takenAt = new Date(Math.max(weekStart(now).getTime(), now.getTime() - DAY));
  const declinedAt = new Date(now.getTime() - 10 * DAY);
  const past = [
    ...Array.from({ length: s.takenThisWeek }, () => ({ status: 'accepted' as const, at: takenAt })),
    ...Array.from({ length: s.declinedRecently }, () => ({ status: 'declined' as const, at: declinedAt })),
    ...Array.from({ length: s.openNow }, () => ({ status: 'open' as const, at: now })),
  ];
  for (const p of past) {
    await h.db
      .insertInto('jobOffers')
      .values({
        // One job each for a taken or open offer (a job has one holder and one open offer).
        jobId: p.status === 'declined' ? shared : await pastJob(),
        dealerId: d.id,
        distanceMiles: '1.0',
        status: p.status,
        offeredAt: p.at,
        expiresAt: p.status === 'open' ? new Date(p.at.getTime() + DAY) : p.at,
        respondedAt: p.status === 'open' ? null : p.at,
      })
      .execute();
  }
  return { ...s, id: d.id, centre };
}

type Seeded = Awaited<ReturnType<typeof seedInstaller>>;

/** An installer's score in thousandths: their own, else their tier's median, else DEFAULT_MEDIAN (2.5). */
const scoreOf = (m: Seeded, medians: Medians) =>
  m.score ?? (m.tier === 'Preferred' || m.tier === 'Authorized' ? medians[m.tier] : null) ?? 2500;

/** The installers who may be offered the job, with their distance and score. */
function eligibleOf(made: Seeded[], point: Point, seller: string | null, medians: Medians) {
  return made
    .map((m) => ({ ...m, miles: miles(m.centre, point), points: scoreOf(m, medians) }))
    .filter(
      (m) =>
        m.tier !== 'Affiliate' &&
        m.status !== 'pending' &&
        m.miles <= m.radius &&
        m.pause !== 'flag' &&
        m.pause !== 'untilFuture' &&
        m.takenThisWeek + m.openNow < m.capacity &&
        m.id !== seller,
    );
}

/** The rule (decisions 0911, 1120-1122), computed here without the database. */
function firstEligible(made: Seeded[], point: Point, seller: string | null, medians: Medians) {
  const eligible = eligibleOf(made, point, seller, medians);
  const preferred = eligible.filter((m) => m.tier === 'Preferred');
  const tier = preferred.length > 0 ? preferred : eligible;
  const best = Math.max(...tier.map((m) => m.points));
  return tier
    .filter((m) => m.points >= best - TIE)
    .sort((a, b) => a.miles - b.miles || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
}

/** The tiers' medians as routing reads them (installer_tier_medians), for this run. */
async function setMedians(medians: Medians) {
  await h.db.deleteFrom('installerTierMedians').execute();
  for (const tier of ['Preferred', 'Authorized'] as const) {
    const m = medians[tier];
    if (m !== null) {
      await h.db
        .insertInto('installerTierMedians')
        .values({ tier, medianScore: (m / 1000).toFixed(3), installers: 1, refreshedAt: clock.now() })
        .execute();
    }
  }
}

/** Seeds the installers and the medians, runs `body`, clears Kansas. */
async function withInstallers(
  specs: Spec[],
  jobZip: number,
  medians: Medians,
  body: (made: Seeded[], point: Point) => Promise<void>,
) {
  const now = clock.now();
  const point = zipCentroid(KS[jobZip]!)!;
  const made: Seeded[] = [];
  try {
    await setMedians(medians);
    for (const s of specs) made.push(await seedInstaller(s, point, now));
    await body(made, point);
  } finally {
    // The next run starts with no installers in Kansas, whatever this one found.
    if (made.length > 0) {
      await h.db
        .deleteFrom('serviceAreas')
        .where(
          'dealerId',
          'in',
          made.map((m) => m.id),
        )
        .execute();
    }
  }
}

/** Seeds the installers, asks `route` for the job's installer, compares with the reference. */
function check(
  specs: Spec[],
  jobZip: number,
  sellerIndex: number | null,
  medians: Medians,
  route: (point: Point, seller: string | null) => Promise<string | null>,
) {
  return withInstallers(specs, jobZip, medians, async (made, point) => {
    const seller = sellerIndex !== null && sellerIndex < made.length ? made[sellerIndex]!.id : null;
    const expected = firstEligible(made, point, seller, medians);
    expect(await route(point, seller)).toBe(expected?.id ?? null);
  });
}

const specsArb = fc.array(installerArb, { minLength: 3, maxLength: 8 });
const zipArb = fc.integer({ min: 0, max: KS.length - 1 });
const sellerArb = fc.option(fc.nat(7), { nil: null });

it('offers the job to the first eligible installer by the rule', async () => {
  admin = await signInAdmin(h.app);
  shared = await pastJob();
  await fc.assert(
    fc.asyncProperty(specsArb, zipArb, sellerArb, mediansArb, (specs, jobZip, sellerIndex, medians) =>
      check(specs, jobZip, sellerIndex, medians, async (point, seller) => {
        const res = await h.app.inject({
          method: 'POST',
          url: '/api/admin/jobs',
          headers: { cookie: admin },
          payload: {
            homeowner: { fullName: 'Prop Owner', email: 'prop@example.com', phone: '785-555-0100' },
            street: '1 Prop St',
            city: point.city,
            state: 'KS',
            zipCode: point.zip,
            ...(seller ? { sellerId: seller } : {}),
          },
        });
        expect(res.statusCode, res.body).toBe(201);
        const offer = await h.db
          .selectFrom('jobOffers')
          .select('dealerId')
          .where('jobId', '=', res.json().id)
          .where('status', '=', 'open')
          .executeTakeFirst();
        expect(res.json().status).toBe(offer ? 'offered' : 'unrouted');
        if (offer) {
          // Why, on the timeline (decision 1122): the tier, the score with one decimal, the distance.
          const event = await h.db
            .selectFrom('jobEvents')
            .select('message')
            .where('jobId', '=', res.json().id)
            .where('kind', '=', 'offered')
            .executeTakeFirstOrThrow();
          expect(event.message).toMatch(
            /^Offered to .+: (Preferred|Authorized), score \d\.\d\b.*, \d+\.\d miles; open for \d+ hours$/,
          );
        }
        return offer?.dealerId ?? null;
      }),
    ),
    { numRuns: 30 },
  );
  // A limit for a hang: a busy machine takes several times as long (issue 46).
}, 300_000);

// Passed on and on (each installer in turn declines), the job goes down the tiers and the scores:
// never to an Authorized installer while a Preferred one is eligible, and within a tier never to a
// lower-scored installer before a higher-scored one except inside the near-tie (decision 1121).
it('offers a job in tier and score order as it is passed on, but for the near-tie', async () => {
  await fc.assert(
    fc.asyncProperty(specsArb, zipArb, mediansArb, (specs, jobZip, medians) =>
      withInstallers(specs, jobZip, medians, async (made, point) => {
        const job = await pastJob();
        const now = clock.now();
        const offered: { id: string; tier: string; points: number }[] = [];
        for (;;) {
          const next = await nextInstaller(h.db, {
            jobId: job,
            latitude: point.latitude,
            longitude: point.longitude,
            sellerId: null,
            now,
            weekStart: weekStart(now),
          });
          const expected = firstEligible(
            made.filter((m) => !offered.some((o) => o.id === m.id)),
            point,
            null,
            medians,
          );
          expect(next?.dealerId ?? null).toBe(expected?.id ?? null);
          if (!next || !expected) break;
          // The score it reports is the one it ranked by (its own, or the tier's median).
          expect(Math.round(Number(next.score) * 1000)).toBe(expected.points);
          expect(next.cold).toBe(expected.score === null);
          offered.push({ id: next.dealerId, tier: next.tier, points: expected.points });
          await h.db
            .insertInto('jobOffers')
            .values({
              jobId: job,
              dealerId: next.dealerId,
              distanceMiles: '1.0',
              status: 'declined',
              offeredAt: now,
              expiresAt: now,
              respondedAt: now,
            })
            .execute();
        }
        const rank = (t: string) => (t === 'Preferred' ? 0 : 1);
        for (let i = 0; i < offered.length; i++) {
          for (let j = i + 1; j < offered.length; j++) {
            const [a, b] = [offered[i]!, offered[j]!];
            expect(rank(a.tier)).toBeLessThanOrEqual(rank(b.tier));
            if (a.tier === b.tier) expect(b.points).toBeLessThanOrEqual(a.points + TIE);
          }
        }
        // Everyone eligible was offered it in the end.
        expect(offered.length).toBe(eligibleOf(made, point, null, medians).length);
      }),
    ),
    { numRuns: 30 },
  );
  // A limit for a hang: a busy machine takes several times as long (issue 46).
}, 300_000);
