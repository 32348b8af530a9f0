import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { DB } from '../types';
import type { Executor } from './executor';

/**
 * Issue 50 (decision 1101): the homeowner's reviews and the installer's scorecard, the display
 * figures, written once for one installer (the dashboard, the dealer's page in the console) and for
 * every installer (the console's sortable table):
 *
 *   - averageRating (two decimals, null without reviews) and reviewCount: every review of theirs;
 *   - received, accepted, declined, expired: the offers made to them in the `days` before `now`
 *     (received counts every offer but an admin's assignment, so withdrawn and open ones too);
 *   - acceptanceRate: accepted / (accepted + declined + expired), 0 to 1, null with none of those;
 *   - medianAnswerMinutes: the median of (answered - offered) over the accepted and declined offers
 *     of the window, in minutes (one decimal), null with none;
 *   - jobsCompleted: their jobs that are installed and were marked installed in the window.
 *
 * A tier's medians are the medians of those figures over the tier's installers in standing
 * (approved or active): the counts over all of them, zeros included; the rating, the rate and the
 * answer time over those that have one. Routing's own score (issue 50's routing part) is not here.
 */

export type Tier = 'Authorized' | 'Preferred';

export interface ScorecardFigures {
  averageRating: number | null;
  reviewCount: number;
  received: number;
  accepted: number;
  declined: number;
  expired: number;
  acceptanceRate: number | null;
  medianAnswerMinutes: number | null;
  jobsCompleted: number;
}

export interface ScorecardRow extends ScorecardFigures {
  dealerId: string;
  fullName: string;
  companyName: string | null;
  tier: Tier;
  status: string;
}

export const SCORECARD_PAGE = 50;

const SORT_SQL = {
  name: sql`lower(coalesce(company_name, full_name))`,
  tier: sql`tier`,
  averageRating: sql`average_rating`,
  reviewCount: sql`review_count`,
  received: sql`received`,
  accepted: sql`accepted`,
  declined: sql`declined`,
  expired: sql`expired`,
  acceptanceRate: sql`acceptance_rate`,
  medianAnswerMinutes: sql`median_answer_minutes`,
  jobsCompleted: sql`jobs_completed`,
} as const;
export type ScorecardSortKey = keyof typeof SORT_SQL;

interface Window {
  now: Date;
  days: number;
}

/**
 * The `card` common table: a row of figures per installer-tier dealer (`only`: one dealer's, read
 * through the per-dealer indexes). Every figure is computed in this one statement.
 */
function cardsWith(w: Window, only: string | null, tier: Tier | null = null): RawBuilder<unknown> {
  const since = new Date(w.now.getTime() - w.days * 24 * 60 * 60 * 1000);
  const one = (col: string) => (only ? sql`and ${sql.ref(col)} = ${only}::uuid` : sql``);
  const ofTier = tier ? sql`and d.tier = ${tier}` : sql``;
  return sql`
    with inst as (
      select d.id, d.full_name, d.company_name, d.tier, d.status
      from dealers d
      where d.tier in ('Authorized', 'Preferred') ${ofTier} ${one('d.id')}
    ),
    o as (
      select o.dealer_id,
        count(*) filter (where o.status <> 'assigned')::int as received,
        count(*) filter (where o.status = 'accepted')::int as accepted,
        count(*) filter (where o.status = 'declined')::int as declined,
        count(*) filter (where o.status = 'expired')::int as expired,
        percentile_cont(0.5) within group (order by extract(epoch from (o.responded_at - o.offered_at)) / 60.0)
          filter (where o.status in ('accepted', 'declined') and o.responded_at is not null) as median_answer
      from job_offers o
      where o.offered_at > ${since}::timestamptz and o.offered_at <= ${w.now}::timestamptz ${one('o.dealer_id')}
      group by o.dealer_id
    ),
    r as (
      select r.installer_id as dealer_id, avg(r.rating) as average, count(*)::int as n
      from job_reviews r
      where r.installer_id is not null and r.created_at <= ${w.now}::timestamptz ${one('r.installer_id')}
      group by r.installer_id
    ),
    c as (
      select j.installer_id as dealer_id, count(*)::int as n
      from jobs j
      where j.status = 'installed' and j.installer_id is not null ${one('j.installer_id')}
        and exists (
          select 1 from job_events e
          where e.job_id = j.id and e.kind = 'installed'
            and e.created_at > ${since}::timestamptz and e.created_at <= ${w.now}::timestamptz
        )
      group by j.installer_id
    ),
    card as (
      select inst.id as dealer_id, inst.full_name, inst.company_name, inst.tier, inst.status,
        inst.status in ('approved', 'active') as in_standing,
        round(r.average, 2)::float8 as average_rating,
        coalesce(r.n, 0) as review_count,
        coalesce(o.received, 0) as received,
        coalesce(o.accepted, 0) as accepted,
        coalesce(o.declined, 0) as declined,
        coalesce(o.expired, 0) as expired,
        case when coalesce(o.accepted + o.declined + o.expired, 0) = 0 then null
             else o.accepted::float8 / (o.accepted + o.declined + o.expired) end as acceptance_rate,
        round(o.median_answer::numeric, 1)::float8 as median_answer_minutes,
        coalesce(c.n, 0) as jobs_completed
      from inst
      left join o on o.dealer_id = inst.id
      left join r on r.dealer_id = inst.id
      left join c on c.dealer_id = inst.id
    )`;
}

type CardRow = ScorecardRow & { inStanding: boolean };

const strip = ({ inStanding: _, ...row }: CardRow): ScorecardRow => row;

/** One installer-tier dealer's figures (any status), or undefined for a dealer of another tier. */
export async function installerScorecard(db: Executor, dealerId: string, w: Window) {
  const result = await sql<CardRow>`${cardsWith(w, dealerId)} select * from card`.execute(db);
  const row = result.rows[0];
  return row ? strip(row) : undefined;
}

/** The medians of a tier's installers in standing (see above); every figure null for an empty tier. */
export async function tierMedians(
  db: Executor,
  tier: Tier,
  w: Window,
): Promise<ScorecardFigures & { installers: number }> {
  const median = (col: string, digits: number) =>
    sql`round((percentile_cont(0.5) within group (order by ${sql.ref(col)}))::numeric, ${sql.lit(digits)})::float8`;
  const result = await sql<ScorecardFigures & { installers: number }>`
    ${cardsWith(w, null, tier)}
    select count(*)::int as installers,
      ${median('average_rating', 2)} as average_rating,
      ${median('review_count', 1)} as review_count,
      ${median('received', 1)} as received,
      ${median('accepted', 1)} as accepted,
      ${median('declined', 1)} as declined,
      ${median('expired', 1)} as expired,
      ${median('acceptance_rate', 4)} as acceptance_rate,
      ${median('median_answer_minutes', 1)} as median_answer_minutes,
      ${median('jobs_completed', 1)} as jobs_completed
    from card where in_standing`.execute(db);
  const row = result.rows[0]!;
  return row;
}

/**
 * Every installer's figures for the console, sorted by `sort` (nulls last either way, then by name),
 * a page at a time: the installers in standing, and any other installer-tier dealer with reviews,
 * offers or completed jobs in the window. `total` counts them all.
 */
export async function listScorecards(
  db: Executor,
  w: Window & { sort: ScorecardSortKey; dir: 'asc' | 'desc'; page: number },
) {
  const by = SORT_SQL[w.sort];
  const dir = w.dir === 'asc' ? sql`asc` : sql`desc`;
  const result = await sql<CardRow & { total: number }>`
    ${cardsWith(w, null)}
    select *, (count(*) over ())::int as total
    from card
    where in_standing or review_count > 0 or received > 0 or jobs_completed > 0
    order by ${by} ${dir} nulls last, lower(coalesce(company_name, full_name)), dealer_id
    limit ${SCORECARD_PAGE} offset ${(w.page - 1) * SCORECARD_PAGE}`.execute(db);
  const total = result.rows[0]?.total ?? 0;
  return { total, items: result.rows.map(({ total: _, ...r }) => strip(r)) };
}

/** The latest reviews of an installer, newest first (the scorecard's list; the job's place, no homeowner). */
export function latestReviews(db: Executor, dealerId: string, limit: number) {
  return db
    .selectFrom('jobReviews as r')
    .innerJoin('jobs as j', 'j.id', 'r.jobId')
    .select(['r.jobId', 'r.rating', 'r.comment', 'r.publicConsent', 'r.createdAt', 'j.city', 'j.state'])
    .where('r.installerId', '=', dealerId)
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.jobId')
    .limit(limit)
    .execute();
}

/** A job's review, if the homeowner gave one. */
export function findJobReview(db: Executor, jobId: string) {
  return db.selectFrom('jobReviews').selectAll().where('jobId', '=', jobId).executeTakeFirst();
}

/** Records a job's review; undefined when the job has one already (its primary key: one a job). */
export function insertJobReview(db: Executor, values: Insertable<DB['jobReviews']>) {
  return db
    .insertInto('jobReviews')
    .values(values)
    .onConflict((oc) => oc.column('jobId').doNothing())
    .returningAll()
    .executeTakeFirst();
}
