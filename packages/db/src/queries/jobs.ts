import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import { type AsJson, isoTimestamp } from '../json-text';
import { prepareQuery } from '../prepared';
import type { DB } from '../types';
import type { Executor } from './executor';

/**
 * The installation network (issue 37): jobs, their offers (one open at a time: the partial unique
 * index), their timeline, and the routing rule (nextInstaller, its only definition). Distances are
 * earthdistance's, in meters, found through the GiST index on service_areas.point (ll_to_earth's
 * formula, stored: migration 2900).
 */

export type Job = Selectable<DB['jobs']>;
export type JobOffer = Selectable<DB['jobOffers']>;
export type JobStatus = Job['status'];
export type ServiceArea = Selectable<DB['serviceAreas']>;

export const METERS_PER_MILE = 1609.344;

export function findServiceArea(db: Executor, dealerId: string) {
  return db.selectFrom('serviceAreas').selectAll().where('dealerId', '=', dealerId).executeTakeFirst();
}

export function upsertServiceArea(db: Executor, values: Insertable<DB['serviceAreas']>) {
  const { dealerId: _, ...update } = values;
  return db
    .insertInto('serviceAreas')
    .values(values)
    .onConflict((oc) => oc.column('dealerId').doUpdateSet(update))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setOfferHours(db: Executor, hours: number, by: string, at: Date) {
  return db
    .updateTable('routingSettings')
    .set({ offerHours: hours, updatedBy: by, updatedAt: at })
    .returning(['offerHours', 'updatedBy', 'updatedAt'])
    .executeTakeFirstOrThrow();
}

/** The job, its row locked: every transition of a job (and of its offers) runs after this, one at a time. */
export function lockJob(db: Executor, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * The job's row lock, unless another transaction holds it (then undefined at once): for a caller that
 * already holds a dealer's row lock (a suspension withdrawing offers, decision 1002), which must not
 * wait on a job whose holder may be waiting on that dealer. What it skips, the sweep does later.
 */
export function lockJobIfFree(db: Executor, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).forUpdate().skipLocked().executeTakeFirst();
}

/**
 * An installer's row, share-locked before the job's (accepting an offer, decision 1002): a status or
 * tier change in progress finishes first and the accept reads its outcome; dealers, then jobs, the
 * order the review's withdrawal takes them in.
 */
export async function shareLockDealer(db: Executor, id: string) {
  await db.selectFrom('dealers').select('id').where('id', '=', id).forShare().executeTakeFirst();
}

export function findJob(db: Executor, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findJobByStatusToken(db: Executor, hash: string) {
  return db.selectFrom('jobs').selectAll().where('statusTokenHash', '=', hash).executeTakeFirst();
}

export interface RoutingQuery {
  jobId: string;
  latitude: number;
  longitude: number;
  sellerId: string | null;
  now: Date;
  /** Start of the capacity week (decision 0912). */
  weekStart: Date;
}

type Tier = 'Preferred' | 'Authorized';

/**
 * The near-tie (decision 1121): installers of the chosen tier whose score is within this of the best
 * eligible score are a tie, and the nearest of them is offered the job first.
 */
export const NEAR_TIE = 0.1;
/** A tier's start when none of its installers has a score yet (the sweep has not run, or no history). */
export const DEFAULT_MEDIAN = 2.5;

/** Who routing chose, and why (the timeline's "Offered to X: Preferred, score 4.6, 8.3 miles"). */
export interface RoutedInstaller {
  dealerId: string;
  name: string;
  tier: Tier;
  distanceMiles: number;
  /** The installer's score, or their tier's median when they have no history yet (`cold`). */
  score: string;
  cold: boolean;
}

/**
 * The routing rule (decisions 0911 and 1120-1122): eligible installers are approved or active
 * Authorized and Preferred dealers whose area covers the point, not paused, under their weekly
 * capacity (the offers taken this week and those open now: decision 1125), not the seller, not
 * offered this job before, passing installer_gate_ok. Preferred first; within the tier, by score
 * (installer_scores; an installer without history has the tier's median, installer_tier_medians):
 * the best eligible score fixes the band, and of the tier's eligible installers scoring within
 * NEAR_TIE of it, the nearest is offered the job (then the id).
 *
 * Its one definition is the PL/pgSQL function route_installer (migration 4500, decision 1300): each
 * area carries its dealer's routable tier and its score (kept by triggers), so a tier's areas
 * covering the point come from that tier's GiST index on service_areas.reach without a join; they
 * are walked in rank order (score, distance, id) with the costly conditions (offered before,
 * capacity, then the gate) evaluated lazily until one passes, which fixes the band; then only the
 * band's installers nearer than that one and scoring below it are walked, nearest first. The
 * Authorized areas are read only when no Preferred installer is eligible. Its statements are planned
 * once per connection.
 */
export async function nextInstaller(db: Executor, q: RoutingQuery): Promise<RoutedInstaller | undefined> {
  const result = await sql<RoutedInstaller>`
    select dealer_id, name, tier, distance_miles, score::text as score, cold
    from route_installer(${q.jobId}::uuid, ${q.latitude}::float8, ${q.longitude}::float8, ${q.sellerId}::uuid,
      ${q.now}::timestamptz, ${q.weekStart}::timestamptz, ${NEAR_TIE}::numeric, ${DEFAULT_MEDIAN}::numeric)`.execute(
    db,
  );
  return result.rows[0];
}

/** The distance from a dealer's area centre to a point, in miles (an admin's assignment). */
export async function distanceFromArea(db: Executor, dealerId: string, latitude: number, longitude: number) {
  const result = await sql<{ miles: number }>`
    select earth_distance(point, service_point(${latitude}::float8, ${longitude}::float8)) / ${METERS_PER_MILE}::float8 as miles
    from service_areas where dealer_id = ${dealerId}::uuid`.execute(db);
  return result.rows[0]?.miles ?? null;
}

export function insertOffer(db: Executor, values: Insertable<DB['jobOffers']>) {
  return db.insertInto('jobOffers').values(values).returningAll().executeTakeFirstOrThrow();
}

/** An open offer whose deadline is the owners' offer hours after `offeredAt` (read in the same statement). */
export function insertOpenOffer(
  db: Executor,
  values: { jobId: string; dealerId: string; distanceMiles: string; offeredAt: Date },
) {
  return db
    .insertInto('jobOffers')
    .columns(['jobId', 'dealerId', 'distanceMiles', 'status', 'offeredAt', 'expiresAt', 'remindAt'])
    .expression((eb) =>
      eb.selectFrom('routingSettings').select([
        sql<string>`${values.jobId}::uuid`.as('jobId'),
        sql<string>`${values.dealerId}::uuid`.as('dealerId'),
        sql<string>`${values.distanceMiles}::numeric`.as('distanceMiles'),
        sql<string>`'open'`.as('status'),
        sql<Date>`${values.offeredAt}::timestamptz`.as('offeredAt'),
        sql<Date>`${values.offeredAt}::timestamptz + offer_hours * interval '1 hour'`.as('expiresAt'),
        // A quarter of the window left: the reminder (issue 47, decision 1060).
        sql<Date>`${values.offeredAt}::timestamptz + offer_hours * interval '45 minutes'`.as('remindAt'),
      ]),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findOffer(db: Executor, id: string) {
  return db.selectFrom('jobOffers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOpenOffer(db: Executor, jobId: string) {
  return db
    .selectFrom('jobOffers')
    .selectAll()
    .where('jobId', '=', jobId)
    .where('status', '=', 'open')
    .executeTakeFirst();
}

/** Closes an open offer (accepted, declined, expired, withdrawn); undefined when it was no longer open. */
export function closeOffer(
  db: Executor,
  id: string,
  to: 'accepted' | 'declined' | 'expired' | 'withdrawn',
  at: Date,
  reason: string | null = null,
) {
  return db
    .updateTable('jobOffers')
    .set({ status: to, respondedAt: at, declineReason: reason })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

/** Ends the taken offer of a job (an admin's reassignment): it no longer counts as the job's holder. */
export function releaseTakenOffer(db: Executor, jobId: string) {
  return db
    .updateTable('jobOffers')
    .set({ status: 'withdrawn' })
    .where('jobId', '=', jobId)
    .where('status', 'in', ['accepted', 'assigned'])
    .execute();
}

/** Open offers past their deadline, oldest first (the expiry sweep). */
export function dueOffers(db: Executor, now: Date, limit: number) {
  return db
    .selectFrom('jobOffers')
    .select(['id', 'jobId'])
    .where('status', '=', 'open')
    .where('expiresAt', '<=', now)
    .orderBy('expiresAt')
    .limit(limit)
    .execute();
}

/** One open offer as the offers poll answers it (its JSON shape): where and what, never who. */
export type OwnOfferJson = AsJson<
  Pick<JobOffer, 'id' | 'jobId' | 'expiresAt'> &
    Pick<Job, 'city' | 'state' | 'zipCode' | 'atticSqFt' | 'fans' | 'notes'> & { distanceMiles: number }
>;

type Contact = { fullName: string; email: string; phone: string; street: string };

/** One job as the dealer's job list answers it (its JSON shape; amounts as numeric text). */
export type OwnJobJson = AsJson<
  Pick<Job, 'id' | 'status' | 'city' | 'state' | 'zipCode' | 'atticSqFt' | 'fans' | 'notes' | 'createdAt'> &
    Pick<Job, 'amount' | 'scheduledFor' | 'installedAmount' | 'amountReview'> & {
      role: 'installer' | 'seller';
      installer: { company: string; phone: string } | null;
      offeredTo: { company: string; answerBy: string } | null;
      homeowner: Contact | null;
    }
>;

/**
 * The installer's open offers and the dealer's jobs (issue 49, decision 1320), each as the JSON array
 * PostgreSQL writes (decision 0800), in one statement compiled and prepared once (decision 0504): the
 * offers poll, the job list and the dashboard's batch of both read what they show here and nothing
 * else. A part not asked for (`offers` or `jobs` false) is null and not read: an uncorrelated
 * subquery under CASE runs only when reached. The job list is the newest 200 the dealer sold or
 * installs; a seller's offered job names the installer it waits on and by when (the open offer,
 * at most one a job), the installer sees the notes, and the installer's company and phone show once
 * they took it. It replaces three statements whose rows the services shaped in the process.
 */
const ownJobsJson = prepareQuery(['dealer', 'now', 'offers', 'jobs'], (db, p) => {
  const me = sql`${p.dealer}::uuid`;
  const iso = (column: string) => isoTimestamp(sql.ref(column));
  const offers = sql<string | null>`case when ${p.offers}::boolean then (
    select '[' || coalesce(string_agg(json_build_object(
        'id', o.id, 'jobId', o.job_id, 'city', j.city, 'state', j.state, 'zipCode', j.zip_code,
        'distanceMiles', o.distance_miles, 'expiresAt', ${iso('o.expires_at')}, 'atticSqFt', j.attic_sq_ft,
        'fans', j.fans, 'notes', j.notes)::text, ',' order by o.expires_at), '') || ']'
    from job_offers o join jobs j on j.id = o.job_id
    where o.dealer_id = ${me} and o.status = 'open' and o.expires_at > ${p.now}::timestamptz) end`;
  const jobs = sql<string | null>`case when ${p.jobs}::boolean then (
    select '[' || coalesce(string_agg(x.job::text, ',' order by x.created_at desc), '') || ']'
    from (
      select j.created_at, json_build_object(
        'id', j.id, 'status', j.status,
        'role', case when j.installer_id = ${me} then 'installer' else 'seller' end,
        'city', j.city, 'state', j.state, 'zipCode', j.zip_code, 'atticSqFt', j.attic_sq_ft, 'fans', j.fans,
        'amount', j.amount::text, 'scheduledFor', j.scheduled_for, 'installedAmount', j.installed_amount::text,
        'amountReview', j.amount_review,
        'notes', case when j.installer_id = ${me} then j.notes end,
        'createdAt', ${iso('j.created_at')},
        'installer', case when j.installer_id is not null and j.status in ('accepted', 'scheduled', 'installed')
          then json_build_object('company', coalesce(i.company_name, i.full_name, ''), 'phone', coalesce(i.phone_e164, '')) end,
        'offeredTo', case when w.expires_at is not null
          then json_build_object('company', coalesce(w.company_name, w.full_name), 'answerBy', ${iso('w.expires_at')}) end,
        'homeowner', case when j.installer_id = ${me} or j.seller_id = ${me}
          then json_build_object('fullName', j.homeowner_name, 'email', j.homeowner_email,
            'phone', j.homeowner_phone, 'street', j.street) end) as job
      from jobs j
      left join dealers i on i.id = j.installer_id
      left join lateral (
        select o.expires_at, d.company_name, d.full_name from job_offers o join dealers d on d.id = o.dealer_id
        where o.job_id = j.id and o.status = 'open' and j.status = 'offered' and j.seller_id = ${me} limit 1
      ) w on true
      where j.seller_id = ${me} or j.installer_id = ${me}
      order by j.created_at desc
      limit 200) x) end`;
  return db.selectNoFrom([offers.as('offers'), jobs.as('jobs')]);
});

/** ownJobsJson's parts: each the JSON text of its array, null when not asked for. */
export async function readOwnJobsJson(
  db: Kysely<DB>,
  dealerId: string,
  now: Date,
  want: { offers: boolean; jobs: boolean },
): Promise<{ offers: string | null; jobs: string | null }> {
  const { rows } = await ownJobsJson(db, { dealer: dealerId, now, offers: want.offers, jobs: want.jobs });
  return rows[0] ?? { offers: null, jobs: null };
}

export const ADMIN_JOBS_PAGE = 50;

/** The admin's queue: unrouted first, then newest first; filtered by status and state. */
export function listJobsForAdmin(
  db: Executor,
  f: { status?: JobStatus | undefined; state?: string | undefined; page: number },
) {
  let q = db
    .selectFrom('jobs as j')
    .leftJoin('dealers as s', 's.id', 'j.sellerId')
    .leftJoin('dealers as i', 'i.id', 'j.installerId')
    .select([
      'j.id',
      'j.origin',
      'j.status',
      'j.city',
      'j.state',
      'j.zipCode',
      'j.atticSqFt',
      'j.fans',
      'j.amount',
      'j.createdAt',
      's.companyName as sellerCompany',
      'i.id as installerId',
      'i.companyName as installerCompany',
      // Issue 47, item 7: an offered job waits on a named installer, its open offer's.
      (eb) =>
        eb
          .selectFrom('jobOffers as o')
          .innerJoin('dealers as od', 'od.id', 'o.dealerId')
          .select(sql<string>`coalesce(od.company_name, od.full_name)`.as('offeredTo'))
          .whereRef('o.jobId', '=', 'j.id')
          .where('o.status', '=', 'open')
          .limit(1)
          .as('offeredTo'),
    ]);
  if (f.status) q = q.where('j.status', '=', f.status);
  if (f.state) q = q.where('j.state', '=', f.state);
  return q
    .orderBy(sql`j.status = 'unrouted'`, 'desc')
    .orderBy('j.createdAt', 'desc')
    .orderBy('j.id')
    .limit(ADMIN_JOBS_PAGE + 1)
    .offset((f.page - 1) * ADMIN_JOBS_PAGE)
    .execute();
}

export function insertJobEvent(db: Executor, values: Insertable<DB['jobEvents']>) {
  return db.insertInto('jobEvents').values(values).execute();
}

type JobEventValues = Omit<Insertable<DB['jobEvents']>, 'jobId'>;

/** A new job and the first step of its timeline, in one statement (the event's foreign key is checked at its end). */
export function insertJobWithEvent(
  db: Executor,
  values: Insertable<DB['jobs']> & { id: string },
  event: JobEventValues,
) {
  return db
    .with('event', (w) => w.insertInto('jobEvents').values({ ...event, jobId: values.id }))
    .insertInto('jobs')
    .values(values)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A job's change and its step on the timeline, in one statement; the job as changed. */
export function updateJobWithEvent(db: Executor, id: string, values: Updateable<DB['jobs']>, event: JobEventValues) {
  return db
    .with('event', (w) => w.insertInto('jobEvents').values({ ...event, jobId: id }))
    .updateTable('jobs')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function listJobEvents(db: Executor, jobId: string) {
  return db
    .selectFrom('jobEvents')
    .select(['kind', 'actor', 'message', 'createdAt'])
    .where('jobId', '=', jobId)
    .orderBy('seq')
    .execute();
}

/** What routing and the screens need of a dealer. */
export function findDealerForJobs(db: Executor, id: string) {
  return db
    .selectFrom('dealers')
    .select(['id', 'email', 'fullName', 'companyName', 'phoneE164', 'tier', 'status', 'crewCount'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The addresses of the owners and reviewers who have one: told of a job nobody covers. */
export async function reviewerEmails(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('admins')
    .select('email')
    .where('role', 'in', ['owner', 'reviewer'])
    .where('email', 'is not', null)
    .execute();
  return rows.map((r) => r.email!).filter(Boolean);
}

/**
 * The coverage map's figures: jobs by state (demand), installers by their home ZIP's state, and the
 * ZIP codes whose requests found nobody in range (unrouted), most requests first.
 */
export async function coverage(db: Executor) {
  const [demand, installers, uncovered] = await Promise.all([
    db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<string>().as('jobs')])
      .groupBy('state')
      .execute(),
    db
      .selectFrom('serviceAreas as sa')
      .innerJoin('dealers as d', 'd.id', 'sa.dealerId')
      .select(['sa.state', (eb) => eb.fn.countAll<string>().as('installers')])
      .where('d.tier', 'in', ['Authorized', 'Preferred'])
      .where('d.status', 'in', ['approved', 'active'])
      .groupBy('sa.state')
      .execute(),
    db
      .selectFrom('jobs')
      .select(['zipCode', 'city', 'state', (eb) => eb.fn.countAll<string>().as('requests')])
      .where('status', '=', 'unrouted')
      .groupBy(['zipCode', 'city', 'state'])
      .orderBy('requests', 'desc')
      .orderBy('zipCode')
      .limit(200)
      .execute(),
  ]);
  return { demand, installers, uncovered };
}

/** A ZIP area: the ZIP code's first three digits (a USPS sectional center), the unit of the coverage map. */
const zipArea = (column: 'zip_code' | 'sa.zip_code') => sql<string>`left(${sql.raw(column)}, 3)`;

/**
 * Demand and coverage by ZIP area (issue 47, item 7): each area's jobs, those waiting with no
 * installer in range (unrouted), and the eligible installers based there; and the areas to recruit
 * in, ranked: the most requests waiting first, then the longest waiting.
 */
export async function coverageByArea(db: Executor) {
  const [demand, installers, recruit] = await Promise.all([
    db
      .selectFrom('jobs')
      .select([
        zipArea('zip_code').as('area'),
        sql<string>`min(state)`.as('state'),
        (eb) => eb.fn.countAll<string>().as('jobs'),
        sql<string>`count(*) filter (where status = 'unrouted')`.as('waiting'),
        sql<number>`avg(latitude)::float8`.as('latitude'),
        sql<number>`avg(longitude)::float8`.as('longitude'),
      ])
      .groupBy(zipArea('zip_code'))
      .execute(),
    db
      .selectFrom('serviceAreas as sa')
      .innerJoin('dealers as d', 'd.id', 'sa.dealerId')
      .select([
        zipArea('sa.zip_code').as('area'),
        (eb) => eb.fn.countAll<string>().as('installers'),
        sql<number>`avg(sa.latitude)::float8`.as('latitude'),
        sql<number>`avg(sa.longitude)::float8`.as('longitude'),
        sql<number>`max(sa.radius_miles)`.as('reachMiles'),
      ])
      .where('d.tier', 'in', ['Authorized', 'Preferred'])
      .where('d.status', 'in', ['approved', 'active'])
      .groupBy(zipArea('sa.zip_code'))
      .execute(),
    db
      .selectFrom('jobs')
      .select([
        zipArea('zip_code').as('area'),
        sql<string>`min(state)`.as('state'),
        (eb) => eb.fn.countAll<string>().as('requests'),
        sql<string[]>`array_agg(distinct city order by city)`.as('cities'),
        sql<string[]>`array_agg(distinct zip_code order by zip_code)`.as('zipCodes'),
        sql<Date>`min(created_at)`.as('oldest'),
      ])
      .where('status', '=', 'unrouted')
      .groupBy(zipArea('zip_code'))
      .orderBy('requests', 'desc')
      .orderBy('oldest')
      .orderBy('area')
      .limit(100)
      .execute(),
  ]);
  return { demand, installers, recruit };
}

/**
 * Whether a dealer may install now (issue 45, finding 8): the routing rule's installer condition
 * (an Authorized or Preferred dealer, approved or active) and installer_gate_ok on today's date, the
 * same gate routing uses. Read in the caller's transaction (an accept reads it under the job's lock).
 */
export async function installerEligibility(db: Executor, dealerId: string, now: Date) {
  const result = await sql<{ tier: string; status: string; gate: boolean }>`
    select d.tier, d.status, installer_gate_ok(d.id, (${now}::timestamptz at time zone 'UTC')::date) as gate
    from dealers d where d.id = ${dealerId}::uuid`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  const installs = row.tier === 'Authorized' || row.tier === 'Preferred';
  const standing = row.status === 'approved' || row.status === 'active';
  return { ...row, installs, standing, ok: installs && standing && row.gate };
}

/**
 * Open offers whose installer may no longer install (a suspension, a tier without installs, a gate
 * that closed: an expired or rejected document): the offers to withdraw. Only `dealerIds`' when given.
 */
export async function ineligibleOpenOffers(db: Executor, now: Date, dealerIds?: readonly string[], limit = 100) {
  if (dealerIds && dealerIds.length === 0) return [];
  const only = dealerIds ? sql`and o.dealer_id = any(${sql`${[...dealerIds]}::uuid[]`})` : sql``;
  const result = await sql<{ id: string; jobId: string; dealerId: string }>`
    select o.id, o.job_id, o.dealer_id
    from job_offers o
    join dealers d on d.id = o.dealer_id
    where o.status = 'open' ${only}
      and not (d.tier in ('Authorized', 'Preferred') and d.status in ('approved', 'active')
               and installer_gate_ok(d.id, (${now}::timestamptz at time zone 'UTC')::date))
    order by o.offered_at, o.id
    limit ${limit}`.execute(db);
  return result.rows;
}

/** The job whose order is `orderRef` (a job's installed order). */
export function findJobByOrder(db: Executor, orderRef: string) {
  return db.selectFrom('jobs').selectAll().where('orderId', '=', orderRef).executeTakeFirst();
}

/**
 * The money side of jobs for the console (issue 45): installed amounts waiting for an owner, and the
 * commission of each installed job's order (its status and what releases it).
 */
export function jobMoney(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('jobs as j')
    .leftJoin('commissions as c', (join) => join.onRef('c.orderRef', '=', 'j.orderId').on('c.kind', '=', 'commission'))
    .select([
      'j.id',
      'j.amount',
      'j.installedAmount',
      'j.requestedAmount',
      'j.amountReview',
      'j.homeownerAnswer',
      'j.sellerId',
      'j.installerId',
      'c.id as commissionId',
      'c.status as commissionStatus',
      'c.releaseNeeds',
      'c.amount as commissionAmount',
    ])
    .where('j.id', 'in', [...ids])
    .execute();
}
