import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 38 (decisions 0941-0943): the promises with dates in them.
// - app_settings: settings owners change, one row per key (JSON value); 'business' holds the time zone
//   business days and the daily digest are counted in (decision 0941).
// - call_schedules: the free call's reminder, sent once (reminder_sent_at, stamped in the transaction that
//   queues it), the one-time token of its reschedule/cancel link (SHA-256 only) and a 'no_show' status.
// - daily_digests: one row per business date the reviewers' digest went out for (the sweep's once-only key).
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table app_settings (
    key text primary key,
    value jsonb not null,
    updated_at timestamptz not null default now(),
    updated_by text
  )`.execute(db);
  await sql`alter table call_schedules
    add column reminder_sent_at timestamptz,
    add column manage_token_hash text,
    add column manage_token_expires_at timestamptz`.execute(db);
  await sql`create unique index call_schedules_manage_token_key on call_schedules (manage_token_hash)
    where manage_token_hash is not null`.execute(db);
  // The reminder sweep's candidates: scheduled calls not yet reminded, by date.
  await sql`create index call_schedules_reminder_due_idx on call_schedules (preferred_date)
    where status = 'scheduled' and reminder_sent_at is null`.execute(db);
  await sql`alter table call_schedules drop constraint call_schedules_status_check`.execute(db);
  await sql`alter table call_schedules add constraint call_schedules_status_check
    check (status in ('scheduled', 'completed', 'cancelled', 'no_show'))`.execute(db);
  await sql`create table daily_digests (
    business_date text primary key check (business_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    sent_at timestamptz not null,
    recipients integer not null,
    pending integer not null,
    overdue integer not null
  )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists daily_digests`.execute(db);
  await sql`update call_schedules set status = 'cancelled' where status = 'no_show'`.execute(db);
  await sql`alter table call_schedules drop constraint call_schedules_status_check`.execute(db);
  await sql`alter table call_schedules add constraint call_schedules_status_check
    check (status in ('scheduled', 'completed', 'cancelled'))`.execute(db);
  await sql`drop index if exists call_schedules_reminder_due_idx`.execute(db);
  await sql`drop index if exists call_schedules_manage_token_key`.execute(db);
  await sql`alter table call_schedules drop column reminder_sent_at, drop column manage_token_hash,
    drop column manage_token_expires_at`.execute(db);
  await sql`drop table if exists app_settings`.execute(db);
}
