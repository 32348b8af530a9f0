import type { RestRoute } from '../rest/route';
import { activityExportRoute } from './activity-export';
import { dealerExportRoute } from './dealer-export';
import { orderWebhookRoute } from './order-webhook';
import { payoutExportRoute } from './payout-export';

/**
 * The routes that cannot be procedures, in the REST table beside the generated ones (so OpenAPI and
 * the security suite see them): file downloads, and a webhook whose signature covers its raw body.
 */
export const handWrittenRoutes: RestRoute[] = [
  dealerExportRoute,
  orderWebhookRoute,
  payoutExportRoute,
  activityExportRoute,
];
