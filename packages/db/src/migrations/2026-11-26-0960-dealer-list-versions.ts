import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin console's dealer table (GET /api/admin/dealers, polled every 10 s by every open
// console) shows the dealers, their referrer's name and their own link, and counts per status: a
// page of it can change with any change to `dealers` and with a link's creation, removal or
// recruiter id. This keeps one version of all of it, so an admin's poll can be answered 304 from the
// session read alone (decision 0791, as 0790 does for the dealer's dashboard). Every statement that
// changes a dealer adds one, with no list of columns to keep up to date: the app stamps updated_at
// on every change, so a dealer's change is almost always one the table shows. Sharded by connection
// like dealer_counts (migration 0800), so signups never queue on one row; the version is the sum of
// the shards and only grows.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table dealer_list_versions (
    shard smallint primary key,
    n bigint not null
  )`.execute(db);
  await sql`insert into dealer_list_versions (shard, n) values (0, 1)`.execute(db);
  await sql`
    create function dealer_list_versions_bump() returns void language sql as $$
      insert into dealer_list_versions (shard, n) values (pg_backend_pid() % 64, 1)
        on conflict (shard) do update set n = dealer_list_versions.n + 1
    $$`.execute(db);
  // Dealers: any statement that changed a row. Links: created, removed, or a (dealer, recruiter id)
  // pair that was not there before: the table shows each dealer's own link's recruiter id, so that
  // set of pairs is all it shows of the links (their counters, which move with every referral,
  // leave it alone). A set difference, hashed, not a join of the two transition tables: under
  // EXISTS the planner picks a nested loop for a join, which with nothing to find compared every
  // pair of 200,000 rows (the bench seed's update of every link's counter: minutes). A truncate of
  // either table moves it too. One branch per operation: PL/pgSQL plans a branch when it first runs it,
  // and a transition table exists only for the operations that declare it.
  await sql`
    create function dealer_list_versions_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        perform dealer_list_versions_bump();
      elsif tg_op = 'INSERT' then
        if exists (select from new_rows) then perform dealer_list_versions_bump(); end if;
      elsif tg_op = 'DELETE' then
        if exists (select from old_rows) then perform dealer_list_versions_bump(); end if;
      elsif tg_table_name = 'dealers' then
        if exists (select from new_rows) then perform dealer_list_versions_bump(); end if;
      elsif exists (
        select dealer_id, recruiter_id from new_rows except select dealer_id, recruiter_id from old_rows
      ) then
        perform dealer_list_versions_bump();
      end if;
      return null;
    end $$`.execute(db);
  for (const table of ['dealers', 'affiliate_links']) {
    const t = sql.id(table);
    await sql`create trigger dealer_list_versions_insert after insert on ${t}
      referencing new table as new_rows for each statement execute function dealer_list_versions_apply()`.execute(db);
    await sql`create trigger dealer_list_versions_update after update on ${t}
      referencing old table as old_rows new table as new_rows for each statement execute function dealer_list_versions_apply()`.execute(
      db,
    );
    await sql`create trigger dealer_list_versions_delete after delete on ${t}
      referencing old table as old_rows for each statement execute function dealer_list_versions_apply()`.execute(db);
    await sql`create trigger dealer_list_versions_truncate after truncate on ${t}
      for each statement execute function dealer_list_versions_apply()`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['dealers', 'affiliate_links']) {
    for (const op of ['insert', 'update', 'delete', 'truncate']) {
      await sql`drop trigger if exists ${sql.id(`dealer_list_versions_${op}`)} on ${sql.id(table)}`.execute(db);
    }
  }
  await sql`drop function if exists dealer_list_versions_apply()`.execute(db);
  await sql`drop function if exists dealer_list_versions_bump()`.execute(db);
  await sql`drop table if exists dealer_list_versions`.execute(db);
}
