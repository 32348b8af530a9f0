import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin's affiliate tracking view (polled every 5 s) lists the latest referral events; in a
// trail of mostly other events a partial index keeps that a short walk.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index audit_logs_affiliate_created_idx on audit_logs (created_at desc) where category = 'affiliate'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists audit_logs_affiliate_created_idx`.execute(db);
}
