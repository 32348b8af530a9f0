import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 47: an installer is emailed when a job is offered, and reminded once when a quarter of the
// offer's window is left (decision 1060). remind_at is written with the offer (its window is the
// owners' offer hours at that moment); reminded_at is the sweep's claim, so two sweeps send one
// reminder. An offer written before this migration has no remind_at and gets no reminder.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table job_offers add column remind_at timestamptz, add column reminded_at timestamptz`.execute(db);
  // The reminder sweep's walk: open offers not yet reminded, by when they are due.
  await sql`create index job_offers_remind_idx on job_offers (remind_at)
    where status = 'open' and reminded_at is null and remind_at is not null`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists job_offers_remind_idx`.execute(db);
  await sql`alter table job_offers drop column remind_at, drop column reminded_at`.execute(db);
}
