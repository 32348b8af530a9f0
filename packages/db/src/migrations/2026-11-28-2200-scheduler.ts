import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 38 (decision 0940): the durable scheduler's state, one row per sweep (services/scheduler/sweeps.ts).
// An instance claims a due sweep by setting `running_until` (its lease) in a conditional update; a crashed
// run's lease expires and another instance runs it again. `failures` drives the exponential backoff.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table scheduled_sweeps (
    name text primary key,
    every_seconds integer not null check (every_seconds > 0),
    next_run_at timestamptz not null,
    running_until timestamptz,
    last_started_at timestamptz,
    last_finished_at timestamptz,
    last_handled integer,
    last_error text,
    last_error_at timestamptz,
    failures integer not null default 0,
    runs integer not null default 0
  )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists scheduled_sweeps`.execute(db);
}
