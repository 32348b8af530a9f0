import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 13 (decision 0720). The date of a dealer's first order (the earliest order date of any
// status), kept beside the other order totals by the same recompute: the dashboard's "First order
// placed on …", the recruiter funnel's first orders and the admin's median days from approval to
// first order read one column instead of the orders table.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table dealers add column first_order_at timestamptz`.execute(db);
  await sql`update dealers d set first_order_at = o.first
    from (select dealer_id, min(ordered_at) as first from orders group by dealer_id) o
    where o.dealer_id = d.id`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table dealers drop column first_order_at`.execute(db);
}
