import { sql } from 'kysely';
import type { Executor } from './executor';

/** The orders webhook's deliveries (issue 36, decision 0995): the newest 200 only. */
export const WEBHOOK_DELIVERIES_KEPT = 200;

export interface WebhookDelivery {
  webhookId: string | null;
  statusCode: number;
  result: string;
  orderId: string | null;
}

/** Records one delivery and drops what falls out of the newest 200, in one statement. */
export async function insertWebhookDelivery(db: Executor, d: WebhookDelivery) {
  await sql`with ins as (
      insert into webhook_deliveries (webhook_id, status_code, result, order_id)
      values (${d.webhookId}, ${d.statusCode}, ${d.result}, ${d.orderId})
      returning id
    )
    delete from webhook_deliveries where id <= (select id from ins) - ${WEBHOOK_DELIVERIES_KEPT}`.execute(db);
}

export function listWebhookDeliveries(db: Executor, limit: number) {
  return db
    .selectFrom('webhookDeliveries')
    .select(['id', 'receivedAt', 'webhookId', 'statusCode', 'result', 'orderId'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
