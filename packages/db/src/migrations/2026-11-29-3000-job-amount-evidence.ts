import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 45, finding 1 (decision 1000): a job's installed amount above the amount registered or quoted
// waits for an owner (amount_review 'pending', the installer's figure in requested_amount); the
// homeowner answers once whether the installation was done (homeowner_answer); a commission earned on
// a job's order is `held` and says what releases it (release_needs): the homeowner's confirmation (or
// an owner) for 'installation', an owner only for 'owner' (self-dealing, a dispute).
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table jobs
    add column requested_amount numeric(12, 2),
    add column amount_review text check (amount_review in ('pending', 'approved', 'rejected')),
    add column amount_reviewed_by text,
    add column amount_reviewed_at timestamptz,
    add column homeowner_answer text check (homeowner_answer in ('confirmed', 'disputed')),
    add column homeowner_answered_at timestamptz`.execute(db);
  await sql`create index jobs_amount_review_idx on jobs (created_at) where amount_review = 'pending'`.execute(db);
  await sql`create index jobs_order_idx on jobs (order_id) where order_id is not null`.execute(db);
  await sql`alter table commissions
    add column release_needs text check (release_needs in ('installation', 'owner'))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table commissions drop column if exists release_needs`.execute(db);
  await sql`drop index if exists jobs_order_idx`.execute(db);
  await sql`drop index if exists jobs_amount_review_idx`.execute(db);
  await sql`alter table jobs
    drop column if exists requested_amount,
    drop column if exists amount_review,
    drop column if exists amount_reviewed_by,
    drop column if exists amount_reviewed_at,
    drop column if exists homeowner_answer,
    drop column if exists homeowner_answered_at`.execute(db);
}
