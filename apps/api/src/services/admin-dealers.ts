import {
  countDealersByStatus,
  dealerMetrics,
  findDealerForAdmin,
  listDealersPage,
  searchDealerOptions,
} from '@dn/db/queries/admin-dealers';
import { dealerTimeline, recentTrackingEvents, recruiterFunnel } from '@dn/db/queries/admin-insights';
import { DEALER_STATUSES, type DealerListQuery, type DealerStatus } from '@dn/schema';
import { AppError } from '../lib/app-error';
import type { Context } from '../trpc/context';

/** Reads of the admin console: the dealer table, the cards, a dealer's timeline, the referral funnel. */

export async function listDealers(ctx: Context, query: DealerListQuery) {
  const [items, counts] = await Promise.all([listDealersPage(ctx.db, query), countDealersByStatus(ctx.db, query)]);
  const byStatus = Object.fromEntries(DEALER_STATUSES.map((s) => [s, 0])) as Record<DealerStatus, number>;
  for (const c of counts) byStatus[c.status] = c.count;
  const all = counts.reduce((sum, c) => sum + c.count, 0);
  return {
    items,
    total: query.status ? byStatus[query.status] : all,
    page: query.page,
    pageSize: query.pageSize,
    counts: { all, ...byStatus },
  };
}

export function getDealerMetrics(ctx: Context) {
  return dealerMetrics(ctx.db);
}

export async function dealerOptions(ctx: Context, q: string | undefined) {
  return { items: await searchDealerOptions(ctx.db, q, 20) };
}

export async function getDealerTimeline(ctx: Context, id: string) {
  const dealer = await findDealerForAdmin(ctx.db, id);
  if (!dealer) throw new AppError('NOT_FOUND', 'Dealer not found');
  const entries = await dealerTimeline(ctx.db, dealer.id, dealer.email, 200);
  return { dealer, entries };
}

export async function affiliateTracking(ctx: Context) {
  const [recruiters, events] = await Promise.all([recruiterFunnel(ctx.db, 50), recentTrackingEvents(ctx.db, 50)]);
  return { recruiters, events };
}
