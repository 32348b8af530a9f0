import { insertWebhookDelivery, listWebhookDeliveries } from '@dn/db/queries/webhook-deliveries';
import type { Context, Deps } from '../../context';
import { AppError, HTTP_STATUS, INTERNAL_MESSAGE } from '../../lib/app-error';

/**
 * The orders webhook as owners see it (issue 36, decision 0995): its URL, whether a secret is set
 * (never the secret), and its newest deliveries with the status each was answered.
 */
export async function ordersWebhookStatus(ctx: Context) {
  const deliveries = await listWebhookDeliveries(ctx.db, 20);
  return {
    url: new URL('/api/integrations/orders', ctx.config.publicUrl).toString(),
    secretSet: Boolean(ctx.config.ordersWebhookSecret),
    deliveries: deliveries.map((d) => ({
      id: String(d.id),
      receivedAt: d.receivedAt.toISOString(),
      webhookId: d.webhookId,
      statusCode: d.statusCode,
      result: d.result,
      orderId: d.orderId,
    })),
  };
}

/**
 * Records how a delivery was answered. A failure to record is logged, never the caller's answer:
 * the webhook's sender gets the same response either way.
 */
export async function recordWebhookDelivery(
  deps: Pick<Deps, 'db' | 'log'>,
  webhookId: string | undefined,
  outcome: { ok: true; orderId: string; created: boolean } | { ok: false; error: unknown },
) {
  const known = outcome.ok ? null : outcome.error instanceof AppError ? outcome.error : null;
  const row = outcome.ok
    ? { statusCode: 200, result: outcome.created ? 'Recorded' : 'Already recorded (no change)' }
    : known
      ? { statusCode: HTTP_STATUS[known.code], result: known.message }
      : { statusCode: 500, result: INTERNAL_MESSAGE };
  try {
    await insertWebhookDelivery(deps.db, {
      webhookId: webhookId?.slice(0, 200) ?? null,
      statusCode: row.statusCode,
      result: row.result.slice(0, 300),
      orderId: outcome.ok ? outcome.orderId.slice(0, 200) : null,
    });
  } catch (err) {
    deps.log.error({ err }, 'could not record a webhook delivery');
  }
}
