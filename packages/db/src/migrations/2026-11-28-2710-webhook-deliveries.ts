import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 36 (decision 0995): the orders webhook's last deliveries, for the owners' status screen: when,
// the webhook-id header, the HTTP status answered and a short result. Only the newest 200 are kept
// (pruned by the insert itself), so a stream of bad requests cannot grow the table.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table webhook_deliveries (
    id bigint generated always as identity primary key,
    received_at timestamptz not null default now(),
    webhook_id text,
    status_code integer not null,
    result text not null,
    order_id text
  )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webhook_deliveries`.execute(db);
}
