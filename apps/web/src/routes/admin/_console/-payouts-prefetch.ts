import type { RouterContext } from '../../../shared/lib/router-context';
import { getTrpc } from '../../../shared/lib/trpc';

// The Payouts section's prefetch (issue 47; decision 1221), imported on demand by its route's loader: its own
// chunk, so the app shell carries only the import. Beside the route (the '-' keeps it out of the
// route tree), since it loads the surface's cards, which only a route may compose (decision 1140).
type Ctx = Pick<RouterContext, 'queryClient' | 'trpc' | 'auth'>;

/**
 * The Payouts section's data and lazy cards, asked for by its route's loader as soon as the session
 * is known, beside the console's code (issue 47: a cold Payouts page took ~3.6 s, its queries waiting
 * on the layout's and the section's chunks). One tick: one batched request.
 */
export async function prefetchPayouts(context: Ctx) {
  const user = await context.auth.user();
  if (user?.role !== 'admin') return;
  void import('../../../console/payees/PaymentSettingsCard');
  void import('../../../console/payees/TaxCard');
  void import('../../../console/payees/RiskPanel');
  const trpc = getTrpc(context);
  const q = context.queryClient;
  const role = user.adminRole;
  // Sent, not awaited: the loader waits for this dispatch only, so the page's own queries find
  // theirs in flight (rendered first, the page sent its cards' queries in a batch of their own, and
  // under load that batch answered before this chunk had loaded: a waterfall; issue 46).
  void Promise.allSettled([
    q.prefetchQuery(trpc.commissions.payouts.queryOptions()),
    ...(role === 'owner' ? [q.prefetchQuery(trpc.payees.settings.queryOptions())] : []),
    q.prefetchQuery(trpc.payees.threshold.queryOptions({ year: new Date().getFullYear() })),
    ...(role === 'owner' || role === 'reviewer'
      ? [q.prefetchQuery(trpc.risk.list.queryOptions({ status: 'open' }))]
      : []),
  ]);
}
