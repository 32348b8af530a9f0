import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * Installers' scores (issue 50, decisions 1120-1124). The score of each installer is kept by
 * triggers (migration 4100: an offer answered or expired, a review written) in installer_scores;
 * what moves with time alone (the 90-day window) and each tier's median (an installer without history
 * starts there) are the `jobs.installer-scores` sweep's.
 */

/** Offers that expire one after another, with no accept or decline between, before the area is paused. */
export const EXPIRED_IN_A_ROW_PAUSE = 3;

/** Recomputes up to `limit` scores last computed more than a day before `now`; how many. */
export async function refreshStaleScores(db: Executor, now: Date, limit: number) {
  const r = await sql<{ n: number }>`
    select count(refresh_installer_score(t.dealer_id, ${now}::timestamptz))::int as n
    from (select dealer_id from installer_scores
          where computed_at < ${now}::timestamptz - interval '1 day'
          order by computed_at limit ${limit}) t`.execute(db);
  return r.rows[0]?.n ?? 0;
}

/** The median score of each installer tier's installers with a score (with history), as now kept. */
export async function refreshTierMedians(db: Executor, now: Date) {
  await sql`
    insert into installer_tier_medians (tier, median_score, installers, refreshed_at)
    select t.tier, m.median, coalesce(m.n, 0), ${now}::timestamptz
    from (values ('Preferred'), ('Authorized')) t(tier)
    left join lateral (
      select round(percentile_cont(0.5) within group (order by s.score)::numeric, 3) as median, count(*)::int as n
      from installer_scores s join dealers d on d.id = s.dealer_id
      where d.tier::text = t.tier and d.status in ('approved', 'active') and s.score is not null
    ) m on true
    on conflict (tier) do update set median_score = excluded.median_score, installers = excluded.installers,
      refreshed_at = excluded.refreshed_at`.execute(db);
}

/** Each tier's kept median (null: no installer of the tier has a score). */
export async function tierMedians(db: Executor) {
  const rows = await db.selectFrom('installerTierMedians').select(['tier', 'medianScore']).execute();
  const of = (tier: string) => rows.find((r) => r.tier === tier)?.medianScore ?? null;
  return { Preferred: of('Preferred'), Authorized: of('Authorized') };
}

export function findInstallerScore(db: Executor, dealerId: string) {
  return db.selectFrom('installerScores').selectAll().where('dealerId', '=', dealerId).executeTakeFirst();
}

/**
 * Pauses the installer's area for offers that expired in a row (decision 1123), unless it is paused
 * already; the area when this call paused it (so the email is queued once).
 */
export function pauseForExpiries(db: Executor, dealerId: string, now: Date) {
  return db
    .updateTable('serviceAreas')
    .set({ paused: true, pausedUntil: null, pausedReason: 'expired_offers', updatedAt: now })
    .where('dealerId', '=', dealerId)
    .where(sql<boolean>`not ((paused and paused_until is null) or coalesce(paused_until > ${now}::timestamptz, false))`)
    .returningAll()
    .executeTakeFirst();
}

/** The installer answers again (resuming their area): the count of offers expired in a row starts over. */
export async function resetExpiredInARow(db: Executor, dealerId: string) {
  await db.updateTable('installerScores').set({ expiredStreak: 0 }).where('dealerId', '=', dealerId).execute();
}

/** Unpauses the installer's area (their own Resume); the area, or undefined without one. */
export function resumeServiceArea(db: Executor, dealerId: string, now: Date) {
  return db
    .updateTable('serviceAreas')
    .set({ paused: false, pausedUntil: null, pausedReason: null, updatedAt: now })
    .where('dealerId', '=', dealerId)
    .returningAll()
    .executeTakeFirst();
}

export interface TierReviewRow {
  dealerId: string;
  name: string;
  email: string;
  tier: 'Preferred' | 'Authorized';
  score: string;
  ratingAverage: string | null;
  reviewCount: number;
  offers: number;
  accepted: number;
  declined: number;
  expired: number;
  responseSeconds: number | null;
}

/**
 * The tier review (decision 1124): approved or active Preferred installers whose score is below the
 * Authorized median, and Authorized ones above the Preferred median, with at least `minOffers` offers
 * answered or expired in the 90 days; lowest Preferred first, then highest Authorized.
 */
export async function tierReviewCandidates(
  db: Executor,
  medians: { Preferred: number | null; Authorized: number | null },
  minOffers: number,
) {
  const r = await sql<TierReviewRow>`
    select d.id as dealer_id, coalesce(nullif(d.company_name, ''), d.full_name) as name, d.email, d.tier::text as tier,
      s.score::text as score, s.rating_average::text as rating_average, s.review_count, s.offers, s.accepted,
      s.declined, s.expired, s.response_seconds
    from installer_scores s
    join dealers d on d.id = s.dealer_id
    where s.score is not null and s.offers >= ${minOffers}
      and d.status in ('approved', 'active')
      and ((d.tier = 'Preferred' and s.score < ${medians.Authorized}::numeric)
        or (d.tier = 'Authorized' and s.score > ${medians.Preferred}::numeric))
    order by d.tier = 'Preferred' desc, case when d.tier = 'Preferred' then s.score else -s.score end, d.id
    limit 500`.execute(db);
  return r.rows;
}

/** The medians of the tiers' scores now (the tier review reads them live, as the sweep computes them). */
export async function liveTierMedians(db: Executor) {
  const r = await sql<{ tier: string; median: string | null }>`
    select d.tier::text as tier, round(percentile_cont(0.5) within group (order by s.score)::numeric, 3)::text as median
    from installer_scores s join dealers d on d.id = s.dealer_id
    where d.tier in ('Preferred', 'Authorized') and d.status in ('approved', 'active') and s.score is not null
    group by d.tier`.execute(db);
  const of = (tier: string) => {
    const m = r.rows.find((x) => x.tier === tier)?.median;
    return m == null ? null : Number(m);
  };
  return { Preferred: of('Preferred'), Authorized: of('Authorized') };
}
