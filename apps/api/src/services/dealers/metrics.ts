import { dealerMetrics } from '@dn/db/queries/dealer-counts';
import type { Context } from '../../context';

/** The admin console's summary cards. */
export function getDealerMetrics(ctx: Context) {
  return dealerMetrics(ctx.db);
}
