import type { RouterContext } from '../shared/lib/router-context';
import { getTrpc } from '../shared/lib/trpc';

// The dealer dashboard's prefetch (issue 47; decision 1221), imported on demand by its route's loader: its own
// chunk, so the app shell carries only the import. Beside the route (the '-' keeps it out of the
// route tree), since it loads the surface's cards, which only a route may compose (decision 1140).
type Ctx = Pick<RouterContext, 'queryClient' | 'trpc' | 'auth'>;

/**
 * The dealer dashboard's data and card code, asked for by the route's loader while the page's own
 * code loads (issue 47: the first card took ~3 s, each card asking once the one above had answered).
 * Every query goes in the same tick, so the batch link sends them as one request; the keys are the
 * cards' own (same procedure and input), so the cards find their data already there.
 */
export async function prefetchDashboard(context: Ctx) {
  const user = await context.auth.user();
  if (user?.role !== 'dealer') return;
  // The cards that load with their own chunks: fetched beside the data, not after it.
  void import('../portal/jobs/JobsCard');
  void import('../portal/onboarding/OnboardingCard');
  void import('../portal/payees/PayoutsCard');
  const trpc = getTrpc(context);
  const q = context.queryClient;
  const installs = user.tier !== 'Affiliate';
  // Sent, not awaited: the loader waits for this dispatch only, so the page's own queries find
  // theirs in flight (rendered first, the page sent its cards' queries in a batch of their own, and
  // under load that batch answered before this chunk had loaded: a waterfall; issue 46).
  void Promise.allSettled([
    q.prefetchQuery(trpc.account.info.queryOptions()),
    q.prefetchQuery(trpc.account.firstOrderForm.queryOptions()),
    q.prefetchQuery(trpc.account.orders.queryOptions({ page: 1 })),
    q.prefetchQuery(trpc.onboarding.mine.queryOptions()),
    q.prefetchQuery(trpc.jobs.mine.queryOptions()),
    ...(installs ? [q.prefetchQuery(trpc.jobs.offers.queryOptions())] : []),
    q.prefetchQuery(trpc.account.affiliateStats.queryOptions()),
    q.prefetchQuery(trpc.account.referrals.queryOptions({ page: 1 })),
    q.prefetchQuery(trpc.account.referralFunnel.queryOptions()),
    q.prefetchQuery(trpc.commissions.own.queryOptions({ page: 1 })),
    q.prefetchQuery(trpc.payees.profile.queryOptions()),
    q.prefetchQuery(trpc.payees.statement.queryOptions({ year: new Date().getFullYear() })),
    q.prefetchQuery(trpc.account.profile.queryOptions()),
    q.prefetchQuery(trpc.account.sessions.queryOptions()),
    q.prefetchQuery(trpc.account.devices.queryOptions()),
  ]);
}
