import type { RouterContext } from './router-context';
import { getTrpc } from './trpc';

// One module for the routes' prefetches (issue 47; decision 1221): the loaders import it on demand,
// one chunk (the app shell's budget counts each import site's list of chunks).
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
  void import('../features/jobs/JobsCard');
  void import('../features/onboarding/OnboardingCard');
  void import('../features/payees/PayoutsCard');
  const trpc = getTrpc(context);
  const q = context.queryClient;
  const installs = user.tier !== 'Affiliate';
  await Promise.allSettled([
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

/**
 * The Payouts section's data and lazy cards, asked for by its route's loader as soon as the session
 * is known, beside the console's code (issue 47: a cold Payouts page took ~3.6 s, its queries waiting
 * on the layout's and the section's chunks). One tick: one batched request.
 */
export async function prefetchPayouts(context: Ctx) {
  const user = await context.auth.user();
  if (user?.role !== 'admin') return;
  void import('../features/payees/PaymentSettingsCard');
  void import('../features/payees/TaxCard');
  void import('../features/payees/RiskPanel');
  const trpc = getTrpc(context);
  const q = context.queryClient;
  const role = user.adminRole;
  await Promise.allSettled([
    q.prefetchQuery(trpc.commissions.payouts.queryOptions()),
    ...(role === 'owner' ? [q.prefetchQuery(trpc.payees.settings.queryOptions())] : []),
    q.prefetchQuery(trpc.payees.threshold.queryOptions({ year: new Date().getFullYear() })),
    ...(role === 'owner' || role === 'reviewer'
      ? [q.prefetchQuery(trpc.risk.list.queryOptions({ status: 'open' }))]
      : []),
  ]);
}
