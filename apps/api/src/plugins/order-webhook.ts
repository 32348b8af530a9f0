import { Readable } from 'node:stream';
import { webhookOrder } from '@dn/schema';
import type { FastifyRequest, preParsingHookHandler } from 'fastify';
import type { RestRoute } from '../rest/route';
import { receiveOrderWebhook, verifyOrderWebhook, WEBHOOK_HEADERS } from '../services/orders/webhook';
import { createRequestContext } from './auth';

/**
 * POST /api/integrations/orders: the one route that needs its body's raw bytes (the signature
 * covers them). A route-level preParsing hook reads the bytes, checks the signature before any
 * parsing (a bad one is 401 whatever the body), and hands the same bytes on.
 */

const RAW = Symbol('rawBody');
type WithRaw = FastifyRequest & { [RAW]?: Buffer };

async function readAll(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > limit) {
      throw Object.assign(new Error('The request body is too large'), {
        statusCode: 413,
        code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      });
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

const preParsing: preParsingHookHandler = async (req, _reply, payload) => {
  // This hook reads before Fastify's own body-limit check, so it enforces the route's limit itself.
  const raw = await readAll(payload, req.routeOptions.bodyLimit ?? 128 * 1024);
  verifyOrderWebhook(req.server.deps.config.ordersWebhookSecret, raw, req.headers);
  (req as WithRaw)[RAW] = raw;
  return Readable.from([raw]) as unknown as typeof payload;
};

/** The signature headers as the OpenAPI document describes them. */
const HEADER_DOCS: Record<(typeof WEBHOOK_HEADERS)[number], string> = {
  'webhook-id': 'A unique id of this message (msg_…), part of what is signed',
  'webhook-timestamp':
    'Unix seconds when the message was sent; more than 5 minutes off the server clock is refused (401)',
  'webhook-signature':
    'v1,<base64 HMAC-SHA256 of "id.timestamp.body">, keyed with ORDERS_WEBHOOK_SECRET (whsec_<base64 key>) decoded',
};

export const orderWebhookRoute: RestRoute = {
  method: 'POST',
  url: '/api/integrations/orders',
  access: 'public',
  summary:
    'Signed orders webhook (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature; secret ORDERS_WEBHOOK_SECRET). Idempotent on orderId; a later event changes the status. See docs/integrations.md',
  input: webhookOrder,
  headers: WEBHOOK_HEADERS.map((name) => ({ name, description: HEADER_DOCS[name] })),
  errors: {
    '401':
      'A missing or bad signature, a timestamp more than 5 minutes off, or no secret configured: nothing is stored',
    '404': 'No dealer matches dealerId, dealerEmail or externalCrmId: nothing is stored',
    '409': 'The orderId was already recorded with another amount or dealer, or cannot go back to placed',
  },
  preParsing,
  async handle({ deps, req, reply }) {
    const raw = (req as WithRaw)[RAW];
    if (!raw) throw Object.assign(new Error('Invalid webhook signature'), { statusCode: 401 });
    const ctx = await createRequestContext(deps, req, reply);
    return receiveOrderWebhook(ctx, raw);
  },
};
