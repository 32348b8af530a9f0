import { dealerMetrics } from '@dn/db/queries/dealer-counts';
import type { Context, User } from '../../context';
import { adminVersion } from '../accounts/users';

/** The admin console's summary cards. */
export function getDealerMetrics(ctx: Context) {
  return dealerMetrics(ctx.db);
}

/** The cards are read from the dealers' kept counts and the calls' (decision 0791). */
export function dealerMetricsVersion(ctx: Context & { user: User }): string | null {
  return adminVersion(ctx.user, 'dealers', 'calls');
}
