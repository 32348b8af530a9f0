import type { IncomingHttpHeaders } from 'node:http';
import { type WebhookOrder, webhookOrder } from '@dn/schema';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { AppError } from '../lib/app-error';
import { receiveOrderEvent } from '../services/orders/webhook';
import { recordWebhookDelivery } from '../services/orders/webhook-status';
import type { HttpRoute } from './route';

/**
 * POST /api/integrations/orders: the one route that needs its body's raw bytes (Standard Webhooks:
 * webhook-id, webhook-timestamp, webhook-signature over "id.timestamp.body"; docs/integrations.md).
 * The body arrives as bytes (`rawBody`), the signature is checked on them before anything is
 * parsed (a bad one is 401 whatever the body), then they are parsed once, validated, and the
 * service gets the typed event. A timestamp more than 5 minutes off is refused by the library, so
 * a captured request cannot be replayed later, and within the window a replay is the same order.
 */

const HEADERS = {
  'webhook-id': 'A unique id of this message (msg_…), part of what is signed',
  'webhook-timestamp':
    'Unix seconds when the message was sent; more than 5 minutes off the server clock is refused (401)',
  'webhook-signature':
    'v1,<base64 HMAC-SHA256 of "id.timestamp.body">, keyed with ORDERS_WEBHOOK_SECRET (whsec_<base64 key>) decoded',
} as const;

/** The order event the bytes carry, once their signature is verified; throws 401 before any parsing otherwise. */
export function verifiedOrderEvent(
  secret: string | undefined,
  raw: Buffer,
  headers: IncomingHttpHeaders,
): WebhookOrder {
  if (!secret) throw new AppError('UNAUTHORIZED', 'The orders webhook is not configured');
  const signed: Record<string, string> = {};
  for (const name of Object.keys(HEADERS)) {
    const v = headers[name];
    if (typeof v !== 'string' || v.length === 0) throw new AppError('UNAUTHORIZED', `Missing ${name} header`);
    signed[name] = v;
  }
  try {
    new Webhook(secret).verify(raw, signed, { jsonParse: false });
  } catch (err) {
    const stale = err instanceof WebhookVerificationError && /timestamp/i.test(err.message);
    throw new AppError('UNAUTHORIZED', stale ? 'Webhook timestamp is too old or too new' : 'Invalid webhook signature');
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('INVALID_INPUT', 'The request body is not valid JSON');
  }
  return webhookOrder.parse(body);
}

export const orderWebhookRoute: HttpRoute = {
  method: 'POST',
  url: '/api/integrations/orders',
  operationId: 'integrations.orderWebhook',
  access: 'public',
  summary:
    'Signed orders webhook (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature; secret ORDERS_WEBHOOK_SECRET). Idempotent on orderId; a later event changes the status. See docs/integrations.md',
  input: webhookOrder,
  headers: Object.entries(HEADERS).map(([name, description]) => ({ name, description })),
  errors: {
    '401':
      'A missing or bad signature, a timestamp more than 5 minutes off, or no secret configured: nothing is stored',
    '404': 'No dealer matches dealerId, dealerEmail or externalCrmId: nothing is stored',
    '409': 'The orderId was already recorded with another amount or dealer, or cannot go back to placed',
  },
  rawBody: true,
  async handle({ deps, req, context }) {
    // No body at all (no content type, no length) leaves req.body unset: nothing is signed.
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const id = req.headers['webhook-id'];
    const webhookId = typeof id === 'string' ? id : undefined;
    // Every delivery, answered or refused, is listed on the owners' webhook screen (issue 36).
    try {
      const event = verifiedOrderEvent(deps.config.ordersWebhookSecret, raw, req.headers);
      const result = await receiveOrderEvent(await context(), event);
      await recordWebhookDelivery(deps, webhookId, { ok: true, orderId: event.orderId, created: result.created });
      return result;
    } catch (error) {
      await recordWebhookDelivery(deps, webhookId, { ok: false, error });
      throw error;
    }
  },
};
