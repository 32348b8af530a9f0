import { sql } from 'kysely';
import { runView, viewOnce } from '../prepared';
import type { DealerStatus } from '../types';
import { type DealerListFilter, searchWindow } from './dealers';
import type { Executor } from './executor';

/** Dealers per status and tier, read from the trigger-kept dealer_counts table (migration 0303). */

export interface StatusCounts {
  counts: { status: DealerStatus; count: number }[];
  /** The search matched more dealers than its window: the counts are the window's (decision 0792). */
  capped: boolean;
}

/**
 * Counts per status under the search and tier filters (the status filter is what the counts
 * are for, so it is left out): the total and every tab's badge in one query. Without a search
 * they come from the trigger-kept counters (migration 0303), otherwise from the search's window
 * (its newest `window` matches and one more, which only says whether there are more).
 */
export async function countDealersByStatus(
  db: Executor,
  f: Pick<DealerListFilter, 'q' | 'tier'>,
  window: number,
): Promise<StatusCounts> {
  if (!f.q) {
    // The tier written in (one of three, or none): planned once per connection (runView).
    const counts = () => sql<{ status: DealerStatus; n: string }>`
      select status, sum(n) as n from dealer_counts
      ${f.tier ? sql`where tier = ${sql.lit(f.tier)}` : sql``}
      group by status`;
    const rows = await runView(db, viewOnce(db, `dealer-counts:${f.tier ?? ''}`, counts));
    return { counts: rows.map((row) => ({ status: row.status, count: Number(row.n) })), capped: false };
  }
  const matches = searchWindow(db, f, window + 1).select(['d.status', 'd.createdAt', 'd.id']);
  const { rows } = await sql<{ status: DealerStatus; n: string; more: boolean }>`
    select status, count(*) filter (where place <= ${window}) as n, bool_or(place > ${window}) as more
    from (select status, row_number() over (order by created_at desc, id desc) as place from (${matches}) w) p
    group by status`.execute(db);
  return {
    counts: rows.filter((r) => Number(r.n) > 0).map((r) => ({ status: r.status, count: Number(r.n) })),
    capped: rows.some((r) => r.more),
  };
}

/**
 * Median days from approval to first order (decision 0720), exactly what
 *   round(percentile_cont(0.5) within group (order by greatest(0, extract(epoch from first_order_at - approval_date))
 *     / 86400)::numeric, 1) from dealers where first_order_at is not null and approval_date is not null
 * returns, without sorting every dealer (that was 346 ms at 50,000 dealers on every poll). The
 * trigger-kept histogram first_order_days (migration 0750: dealers per whole day, floor of those
 * seconds / 86400) gives the count n and, by running sums, the day and the place in it of the middle
 * ranks (n + 1) / 2 and n / 2 + 1 (1-based; one rank when n is odd), each read once. A place among
 * the day's at_start dealers (exactly on the day's first second, e.g. every order placed before the
 * approval) is that whole day; any other is read from the index dealers_first_order_seconds on that
 * very expression (index-only), walking the day from its nearer end. Then percentile_cont's own
 * interpolation, lo + 0.5 * (hi - lo) in double precision (the mean of the two middle values when n
 * is even), unrounded (dealerMetrics rounds it as before). null when no dealer has both dates.
 * The seconds expression must stay written exactly as in the migration's index.
 */
const SECONDS = sql`greatest(0, extract(epoch from d.first_order_at - d.approval_date))`;
export const medianDaysToFirstOrder = sql<number | null>`
  with h as (
    select days, dealers, at_start, (sum(dealers) over (order by days))::bigint as upto
    from first_order_days where dealers > 0
  ),
  n as (select max(upto) as n from h),
  ranks as (
    select (n + 1) / 2 as k from n where n > 0
    union
    select n / 2 + 1 from n where n > 0
  ),
  picks as materialized (
    select p.v
    from ranks r
    cross join lateral (select days, dealers, at_start, upto from h where upto >= r.k order by days limit 1) b
    cross join lateral (select r.k - (b.upto - b.dealers) - 1 as m) i
    cross join lateral (
      select case
        when i.m < b.at_start then b.days::float8
        when i.m - b.at_start < (b.dealers - b.at_start) / 2 then (
          select (${SECONDS} / 86400)::float8 from dealers d
          where d.first_order_at is not null and d.approval_date is not null
            and ${SECONDS} > b.days::numeric * 86400 and ${SECONDS} < (b.days::numeric + 1) * 86400
          order by ${SECONDS}
          offset i.m - b.at_start limit 1)
        else (
          select (${SECONDS} / 86400)::float8 from dealers d
          where d.first_order_at is not null and d.approval_date is not null
            and ${SECONDS} > b.days::numeric * 86400 and ${SECONDS} < (b.days::numeric + 1) * 86400
          order by ${SECONDS} desc
          offset b.dealers - 1 - i.m limit 1)
      end as v
    ) p
  )
  select min(v) + 0.5 * (max(v) - min(v)) from picks`;

/**
 * The summary cards in one round trip, from the trigger-kept counters: dealers (dealer_counts), calls
 * (call_counts, migration 0900) and the median from the kept histogram of first-order days.
 */
export async function dealerMetrics(db: Executor) {
  const r = await sql<{
    total: string;
    preferred: string;
    authorized: string;
    affiliate: string;
    pending: string;
    approved: string;
    active: string;
    activationRate: string | null;
    medianDays: string | null;
    callsScheduled: string;
  }>`
    select coalesce(sum(n), 0) as total,
      coalesce(sum(n) filter (where tier = 'Preferred'), 0) as preferred,
      coalesce(sum(n) filter (where tier = 'Authorized'), 0) as authorized,
      coalesce(sum(n) filter (where tier = 'Affiliate'), 0) as affiliate,
      coalesce(sum(n) filter (where status = 'pending'), 0) as pending,
      coalesce(sum(n) filter (where status in ('approved', 'active')), 0) as approved,
      coalesce(sum(n) filter (where status = 'active'), 0) as active,
      round(100.0 * sum(n) filter (where status = 'active')
        / nullif(sum(n) filter (where status in ('approved', 'active')), 0), 1) as activation_rate,
      round((${medianDaysToFirstOrder})::numeric, 1) as median_days,
      (select coalesce(sum(n), 0) from call_counts where status = 'scheduled') as calls_scheduled
    from dealer_counts`.execute(db);
  const row = r.rows[0]!;
  return {
    totalDealers: Number(row.total),
    byTier: {
      Preferred: Number(row.preferred),
      Authorized: Number(row.authorized),
      Affiliate: Number(row.affiliate),
    },
    pendingApplications: Number(row.pending),
    approvedDealers: Number(row.approved),
    /** Approved -> active (decision 0720): active / (approved + active), percent with one decimal; null with none. */
    activeDealers: Number(row.active),
    activationRate: row.activationRate === null ? null : Number(row.activationRate),
    /** Median days from approval to first order over dealers with both (an earlier order counts 0 days). */
    medianDaysToFirstOrder: row.medianDays === null ? null : Number(row.medianDays),
    scheduledCalls: Number(row.callsScheduled),
  };
}
