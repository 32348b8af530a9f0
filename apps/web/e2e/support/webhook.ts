import { createHmac, randomUUID } from 'node:crypto';
import { WEBHOOK_SECRET } from '../global-setup';

/** Standard Webhooks headers for a body, signed with the e2e server's secret (issue 13). */
export function signed(body: string, id = `msg_${randomUUID()}`) {
  const ts = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(WEBHOOK_SECRET.replace(/^whsec_/, ''), 'base64');
  const sig = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${sig}`,
  };
}
