import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 40 (decision 0970): what an operator watches. `system_samples` keeps one row of the queue
// figures every few minutes for the admin's System page chart, pruned after 24 hours; `backup_runs`
// records each backup (manual or scheduled), so the page can say when the last one was taken and
// whether it worked. The failed emails get a partial index of their own: /metrics counts them and
// the System page lists the latest, both at every scrape or poll, without reading the sent ones.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table system_samples (
    taken_at timestamptz primary key,
    figures jsonb not null
  )`.execute(db);
  await sql`create table backup_runs (
    id uuid primary key default gen_random_uuid(),
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    trigger text not null check (trigger in ('manual', 'scheduled')),
    file text not null,
    bytes bigint,
    schema_version text not null,
    error text
  )`.execute(db);
  await sql`create index backup_runs_started_idx on backup_runs (started_at desc)`.execute(db);
  await sql`create index email_outbox_failed_idx on email_outbox (next_attempt_at desc) where status = 'failed'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists email_outbox_failed_idx`.execute(db);
  await sql`drop table if exists backup_runs`.execute(db);
  await sql`drop table if exists system_samples`.execute(db);
}
