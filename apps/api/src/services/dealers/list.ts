import { countDealersByStatus } from '@dn/db/queries/dealer-counts';
import { dealerPageJson, searchDealerOptions } from '@dn/db/queries/dealers';
import {
  ADMIN_DEALERS_PAGE_SIZE,
  ADMIN_SEARCH_WINDOW,
  DEALER_STATUSES,
  type DealerListQuery,
  type DealerStatus,
} from '@dn/schema';
import type { Context, User } from '../../context';
import { adminVersion } from '../accounts/users';

/** The admin's dealer table with its tab counts, and the dealer picker of the Link Referral dialog. */

/**
 * What every page of the table below is made of (decision 0791): the dealers and their links,
 * whatever the search, filter, sort or page.
 */
export function dealerListVersion(ctx: Context & { user: User }): string | null {
  return adminVersion(ctx.user, 'dealers');
}

/**
 * A page of the table and every tab's count. With a search they cover its newest
 * ADMIN_SEARCH_WINDOW matches; `capped` says there were more (decision 0792). The first page at
 * the console's page size is a view, planned once per connection (decision 0504).
 */
export async function listDealers(ctx: Context, query: DealerListQuery) {
  const [items, { counts, capped }] = await Promise.all([
    dealerPageJson(ctx.db, query, ADMIN_SEARCH_WINDOW, ADMIN_DEALERS_PAGE_SIZE),
    countDealersByStatus(ctx.db, query, ADMIN_SEARCH_WINDOW),
  ]);
  const byStatus = Object.fromEntries(DEALER_STATUSES.map((s) => [s, 0])) as Record<DealerStatus, number>;
  for (const c of counts) byStatus[c.status] = c.count;
  const all = counts.reduce((sum, c) => sum + c.count, 0);
  return {
    items,
    total: query.status ? byStatus[query.status] : all,
    page: query.page,
    pageSize: query.pageSize,
    counts: { all, ...byStatus },
    capped,
  };
}

export async function dealerOptions(ctx: Context, q: string | undefined, only?: 'referrers') {
  return { items: await searchDealerOptions(ctx.db, q, 20, only === 'referrers') };
}
