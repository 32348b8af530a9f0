import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin's dealer metrics showed "calls scheduled" as count(*) over call_schedules on every poll:
// 2.1 ms at 100,000 dealers and 16.2 ms at 1,000,000 (250,000 scheduled calls), the one term of the
// metrics that grew with the data (issue 16, cost curve). Like dealer_counts (migrations 0303, 0800)
// the calls per status are now kept by statement triggers in the transaction that books or changes
// a call, one shard per database connection (pg_backend_pid() % 64) so bookings never queue on one
// row; readers sum the shards (queries/dealer-counts.ts dealerMetrics). Exact, not an estimate.
// docs/decisions/0760-kept-totals-for-the-cost-curve.md.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table call_counts (
    status text not null,
    shard smallint not null,
    n bigint not null default 0,
    primary key (status, shard)
  )`.execute(db);
  await sql`insert into call_counts (status, shard, n)
    select status, 0, count(*) from call_schedules group by 1`.execute(db);
  // Rows in key order within a statement, so two writers that share a shard lock it in one order.
  // A change that moves no call between statuses (notes, a date) locks nothing.
  await sql`
    create function call_counts_apply() returns trigger language plpgsql as $$
    declare
      s smallint := pg_backend_pid() % 64;
    begin
      if tg_op = 'INSERT' then
        insert into call_counts (status, shard, n)
          select status, s, count(*) from new_rows group by 1 order by 1
          on conflict (status, shard) do update set n = call_counts.n + excluded.n;
      elsif tg_op = 'DELETE' then
        insert into call_counts (status, shard, n)
          select status, s, -count(*) from old_rows group by 1 order by 1
          on conflict (status, shard) do update set n = call_counts.n + excluded.n;
      else
        insert into call_counts (status, shard, n)
          select status, s, sum(d) from (
            select status, -1 as d from old_rows
            union all
            select status, 1 as d from new_rows
          ) c group by 1 having sum(d) <> 0 order by 1
          on conflict (status, shard) do update set n = call_counts.n + excluded.n;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function call_counts_reset() returns trigger language plpgsql as $$
    begin
      delete from call_counts;
      return null;
    end $$`.execute(db);
  await sql`create trigger call_counts_insert after insert on call_schedules
    referencing new table as new_rows for each statement execute function call_counts_apply()`.execute(db);
  await sql`create trigger call_counts_update after update on call_schedules
    referencing old table as old_rows new table as new_rows for each statement execute function call_counts_apply()`.execute(
    db,
  );
  await sql`create trigger call_counts_delete after delete on call_schedules
    referencing old table as old_rows for each statement execute function call_counts_apply()`.execute(db);
  await sql`create trigger call_counts_truncate after truncate on call_schedules
    for each statement execute function call_counts_reset()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['insert', 'update', 'delete', 'truncate']) {
    await sql`drop trigger if exists ${sql.ref(`call_counts_${t}`)} on call_schedules`.execute(db);
  }
  await sql`drop function if exists call_counts_apply()`.execute(db);
  await sql`drop function if exists call_counts_reset()`.execute(db);
  await sql`drop table if exists call_counts`.execute(db);
}
