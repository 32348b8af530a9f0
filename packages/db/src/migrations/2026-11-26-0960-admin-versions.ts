import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin console polls its dealer table (every 10 s), its summary cards (10 s) and its call
// requests (15 s). This keeps a version of what they are read from, so a poll can be answered 304
// from the session read alone (decision 0791, as 0790 does for the dealer's dashboard), in two
// sources:
// - 'dealers': every change to `dealers` (the table, its counts and the cards' dealer figures),
//   and the links' (dealer, recruiter id) pairs (the table shows each dealer's own link);
// - 'calls': every change to `call_schedules` (the Calls tab and the cards' scheduled calls).
// Any statement that changed a row adds one, with no list of columns to keep up to date: the app
// stamps updated_at on every change, which the dealer table and the calls show. Sharded by
// connection like dealer_counts (migration 0800), so signups and bookings never queue on one row;
// a version is the sum of its source's shards and only grows.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table admin_versions (
    source text not null check (source in ('dealers', 'calls')),
    shard smallint not null,
    n bigint not null,
    primary key (source, shard)
  )`.execute(db);
  await sql`
    create function admin_versions_bump(src text) returns void language sql as $$
      insert into admin_versions (source, shard, n) values (src, pg_backend_pid() % 64, 1)
        on conflict (source, shard) do update set n = admin_versions.n + 1
    $$`.execute(db);
  // Links: created, removed, or a (dealer, recruiter id) pair that was not there before; their
  // counters, which move with every referral, leave the version alone. A set difference, hashed,
  // not a join of the two transition tables: under EXISTS the planner picks a nested loop for a
  // join, which with nothing to find compared every pair of 200,000 rows (the bench seed's update
  // of every link's counter: minutes). One branch per operation: PL/pgSQL plans a branch when it
  // first runs it, and a transition table exists only for the operations that declare it.
  await sql`
    create function admin_versions_apply() returns trigger language plpgsql as $$
    declare
      src text := case when tg_table_name = 'call_schedules' then 'calls' else 'dealers' end;
    begin
      if tg_op = 'TRUNCATE' then
        perform admin_versions_bump(src);
      elsif tg_op = 'INSERT' then
        if exists (select from new_rows) then perform admin_versions_bump(src); end if;
      elsif tg_op = 'DELETE' then
        if exists (select from old_rows) then perform admin_versions_bump(src); end if;
      elsif tg_table_name <> 'affiliate_links' then
        if exists (select from new_rows) then perform admin_versions_bump(src); end if;
      elsif exists (
        select dealer_id, recruiter_id from new_rows except select dealer_id, recruiter_id from old_rows
      ) then
        perform admin_versions_bump(src);
      end if;
      return null;
    end $$`.execute(db);
  for (const table of ['dealers', 'affiliate_links', 'call_schedules']) {
    const t = sql.id(table);
    await sql`create trigger admin_versions_insert after insert on ${t}
      referencing new table as new_rows for each statement execute function admin_versions_apply()`.execute(db);
    await sql`create trigger admin_versions_update after update on ${t}
      referencing old table as old_rows new table as new_rows for each statement execute function admin_versions_apply()`.execute(
      db,
    );
    await sql`create trigger admin_versions_delete after delete on ${t}
      referencing old table as old_rows for each statement execute function admin_versions_apply()`.execute(db);
    await sql`create trigger admin_versions_truncate after truncate on ${t}
      for each statement execute function admin_versions_apply()`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['dealers', 'affiliate_links', 'call_schedules']) {
    for (const op of ['insert', 'update', 'delete', 'truncate']) {
      await sql`drop trigger if exists ${sql.id(`admin_versions_${op}`)} on ${sql.id(table)}`.execute(db);
    }
  }
  await sql`drop function if exists admin_versions_apply()`.execute(db);
  await sql`drop function if exists admin_versions_bump(text)`.execute(db);
  await sql`drop table if exists admin_versions`.execute(db);
}
