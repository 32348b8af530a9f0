import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// A recruiter's newest referrals (the dashboard's affiliate stats, polled every 5 s, and the full
// referral list) are `where referred_by = $1 order by created_at desc, id desc limit n`. With an
// index on referred_by alone PostgreSQL either sorted all the recruiter's referrals or walked the
// dealers' created_at index filtering out everyone else's: 93 ms in the plan at 1,000,000 dealers
// (201,699 rows filtered, bench stage `curve`), and affiliate stats' p95 went 0.8 -> 2.0 ms from
// 100,000 to 1,000,000 dealers. This index answers that order directly (scanned backwards); its
// leading column serves every lookup the old one did (the referral count, the foreign key's
// cascade), so the old one goes. docs/decisions/0760-kept-totals-for-the-cost-curve.md.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index dealers_referred_recent_idx on dealers (referred_by, created_at, id)`.execute(db);
  await sql`drop index if exists dealers_referred_by_idx`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists dealers_referred_by_idx on dealers (referred_by)`.execute(db);
  await sql`drop index if exists dealers_referred_recent_idx`.execute(db);
}
