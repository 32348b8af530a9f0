import { webhookOrder } from '@dn/schema';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { orderEvent, recordOrder } from './record';

/**
 * The signed orders webhook (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature
 * over "id.timestamp.body"), docs/integrations.md. The signature is checked on the raw bytes
 * before anything is parsed; a timestamp more than 5 minutes off is refused by the library, so a
 * captured request cannot be replayed later, and within the window a replay is the same order.
 */

export const WEBHOOK_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

export function verifyOrderWebhook(
  secret: string | undefined,
  raw: Buffer,
  headers: Record<string, string | string[] | undefined>,
): void {
  if (!secret) throw new AppError('UNAUTHORIZED', 'The orders webhook is not configured');
  const h: Record<string, string> = {};
  for (const name of WEBHOOK_HEADERS) {
    const v = headers[name];
    if (typeof v !== 'string' || v.length === 0) throw new AppError('UNAUTHORIZED', `Missing ${name} header`);
    h[name] = v;
  }
  try {
    new Webhook(secret).verify(raw, h, { jsonParse: false });
  } catch (err) {
    if (err instanceof WebhookVerificationError) {
      throw new AppError(
        'UNAUTHORIZED',
        /timestamp/i.test(err.message) ? 'Webhook timestamp is too old or too new' : 'Invalid webhook signature',
      );
    }
    throw new AppError('UNAUTHORIZED', 'Invalid webhook signature');
  }
}

/** A verified body: parsed, validated, recorded (idempotent on orderId). */
export async function receiveOrderWebhook(ctx: Context, raw: Buffer) {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('INVALID_INPUT', 'The request body is not valid JSON');
  }
  const r = await recordOrder(ctx, orderEvent('webhook', webhookOrder.parse(body)));
  return { ok: true as const, created: r.created, statusChanged: r.statusChanged, order: r.order };
}
