import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin's Affiliate Tracking poll (every 5 s while the page is open) starts its recruiter
// funnel from `affiliate_links order by total_referrals desc, created_at desc limit 50`. With no
// index in that order PostgreSQL read every link and sorted them: 25 of the funnel's 30 ms at
// 100,000 dealers (20,000 links), growing with the links; with it, 0.1 ms. The price: a referral's
// `total_referrals + 1` now changes an indexed column, so that update is no longer HOT and enters
// the link in the table's five indexes; referral signups are few beside the polls.
// docs/decisions/0770-write-amplification.md.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index affiliate_links_busiest_idx on affiliate_links (total_referrals desc, created_at desc)`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists affiliate_links_busiest_idx`.execute(db);
}
