import type { WebhookOrder } from '@dn/schema';
import type { Context } from '../../context';
import { orderEvent, recordOrder } from './record';

/**
 * An order event from the signed orders webhook (docs/integrations.md), already verified and
 * parsed by its route (http/order-webhook.ts): recorded, idempotent on orderId.
 */
export async function receiveOrderEvent(ctx: Context, order: WebhookOrder) {
  const r = await recordOrder(ctx, orderEvent('webhook', order));
  return { ok: true as const, created: r.created, statusChanged: r.statusChanged, order: r.order };
}
