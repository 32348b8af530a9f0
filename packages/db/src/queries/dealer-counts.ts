import { type ExpressionBuilder, sql } from 'kysely';
import type { DB, DealerStatus } from '../types';
import { type DealerListFilter, filteredDealers } from './dealers';
import type { Executor } from './executor';

/** Dealers per status and tier, read from the trigger-kept dealer_counts table (migration 0303). */

/**
 * Counts per status under the search and tier filters (the status filter is what the counts
 * are for, so it is left out): the total and every tab's badge in one query. Without a search
 * they come from the trigger-kept counters (migration 0303), otherwise from one grouped count.
 */
export async function countDealersByStatus(db: Executor, f: Pick<DealerListFilter, 'q' | 'tier'>) {
  if (!f.q) {
    const r = await sql<{ status: DealerStatus; n: string }>`
      select status, sum(n) as n from dealer_counts
      ${f.tier ? sql`where tier = ${f.tier}` : sql``}
      group by status`.execute(db);
    return r.rows.map((row) => ({ status: row.status, count: Number(row.n) }));
  }
  const rows = await filteredDealers(db, f)
    .select(['d.status', (eb: ExpressionBuilder<DB & { d: DB['dealers'] }, 'd'>) => eb.fn.countAll<string>().as('n')])
    .groupBy('d.status')
    .execute();
  return rows.map((r) => ({ status: r.status as DealerStatus, count: Number(r.n) }));
}

/** The summary cards in one round trip, from the trigger-kept counters. */
export async function dealerMetrics(db: Executor) {
  const r = await sql<{
    total: string;
    preferred: string;
    authorized: string;
    affiliate: string;
    pending: string;
    approved: string;
    callsScheduled: string;
  }>`
    select coalesce(sum(n), 0) as total,
      coalesce(sum(n) filter (where tier = 'Preferred'), 0) as preferred,
      coalesce(sum(n) filter (where tier = 'Authorized'), 0) as authorized,
      coalesce(sum(n) filter (where tier = 'Affiliate'), 0) as affiliate,
      coalesce(sum(n) filter (where status = 'pending'), 0) as pending,
      coalesce(sum(n) filter (where status in ('approved', 'active')), 0) as approved,
      (select count(*) from call_schedules where status = 'scheduled') as calls_scheduled
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
    scheduledCalls: Number(row.callsScheduled),
  };
}
