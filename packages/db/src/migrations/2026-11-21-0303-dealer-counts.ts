import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin cards and status tabs need counts of dealers per status and tier on every poll.
// Counting 100k rows each time costs tens of milliseconds; these counters, kept by statement
// triggers in the transaction that changes the dealers, answer in one small read and are exact.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table dealer_counts (
    status text not null,
    tier text not null,
    n bigint not null default 0,
    primary key (status, tier)
  )`.execute(db);
  await sql`insert into dealer_counts (status, tier, n) select status, tier, count(*) from dealers group by 1, 2`.execute(
    db,
  );
  // One statement per change, rows in key order: concurrent changes lock the counters in the
  // same order. A change that moves no dealer between counters (sum 0) locks nothing.
  await sql`
    create function dealer_counts_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into dealer_counts (status, tier, n)
          select status, tier, count(*) from new_rows group by 1, 2 order by 1, 2
          on conflict (status, tier) do update set n = dealer_counts.n + excluded.n;
      elsif tg_op = 'DELETE' then
        insert into dealer_counts (status, tier, n)
          select status, tier, -count(*) from old_rows group by 1, 2 order by 1, 2
          on conflict (status, tier) do update set n = dealer_counts.n + excluded.n;
      else
        insert into dealer_counts (status, tier, n)
          select status, tier, sum(d) from (
            select status, tier, -1 as d from old_rows
            union all
            select status, tier, 1 as d from new_rows
          ) c group by 1, 2 having sum(d) <> 0 order by 1, 2
          on conflict (status, tier) do update set n = dealer_counts.n + excluded.n;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function dealer_counts_reset() returns trigger language plpgsql as $$
    begin
      delete from dealer_counts;
      return null;
    end $$`.execute(db);
  await sql`create trigger dealer_counts_insert after insert on dealers
    referencing new table as new_rows for each statement execute function dealer_counts_apply()`.execute(db);
  await sql`create trigger dealer_counts_update after update on dealers
    referencing old table as old_rows new table as new_rows for each statement execute function dealer_counts_apply()`.execute(
    db,
  );
  await sql`create trigger dealer_counts_delete after delete on dealers
    referencing old table as old_rows for each statement execute function dealer_counts_apply()`.execute(db);
  await sql`create trigger dealer_counts_truncate after truncate on dealers
    for each statement execute function dealer_counts_reset()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['dealer_counts_insert', 'dealer_counts_update', 'dealer_counts_delete', 'dealer_counts_truncate']) {
    await sql`drop trigger if exists ${sql.id(t)} on dealers`.execute(db);
  }
  await sql`drop function if exists dealer_counts_apply()`.execute(db);
  await sql`drop function if exists dealer_counts_reset()`.execute(db);
  await sql`drop table if exists dealer_counts`.execute(db);
}
