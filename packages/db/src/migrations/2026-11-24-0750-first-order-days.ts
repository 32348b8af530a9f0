import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin summary's median days from approval to first order (decision 0720) was a
// percentile_cont over every dealer with both dates on each 10-second poll: p95 346 ms at 50,000
// dealers. The answer must not change, and it is in fractional days, so two structures find it:
// - first_order_days: a histogram of whole days, dealers per floor(seconds / 86400), where
//   seconds = greatest(0, extract(epoch from first_order_at - approval_date)) (an order before the
//   approval counts 0), over dealers with both dates. Kept by statement triggers in the
//   transaction that changes the dealers, so it is exact; its running sums say which day holds
//   the middle dealer(s) and at which place. at_start counts the day's dealers exactly on its first
//   second (all of day 0's orders placed before the approval, which count 0), whose value is known
//   without reading them: many equal values would otherwise be a long walk;
// - dealers_first_order_seconds: an index on that same expression, so the middle value(s) inside
//   that day are read in order from the index entries alone (queries/dealer-counts.ts dealerMetrics).
// The expression must stay written exactly so in the index, the triggers and the query.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table first_order_days (
    days integer primary key,
    dealers bigint not null default 0,
    at_start bigint not null default 0
  )`.execute(db);
  await sql`insert into first_order_days (days, dealers, at_start)
    select floor(s / 86400)::integer, count(*), count(*) filter (where mod(s, 86400) = 0)
    from (select greatest(0, extract(epoch from first_order_at - approval_date)) as s
      from dealers where first_order_at is not null and approval_date is not null) c
    group by 1`.execute(db);
  await sql`create index dealers_first_order_seconds on dealers
    ((greatest(0, extract(epoch from first_order_at - approval_date)))) include (first_order_at, approval_date)
    where first_order_at is not null and approval_date is not null`.execute(db);
  // One statement per change, rows in key order: concurrent changes lock the days in the same
  // order. A change that moves no dealer between days (most dealer updates) locks nothing.
  await sql`
    create function first_order_days_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into first_order_days (days, dealers, at_start)
          select floor(s / 86400)::integer, count(*), count(*) filter (where mod(s, 86400) = 0)
          from (select greatest(0, extract(epoch from first_order_at - approval_date)) as s
            from new_rows where first_order_at is not null and approval_date is not null) c
          group by 1 order by 1
          on conflict (days) do update
            set dealers = first_order_days.dealers + excluded.dealers, at_start = first_order_days.at_start + excluded.at_start;
      elsif tg_op = 'DELETE' then
        insert into first_order_days (days, dealers, at_start)
          select floor(s / 86400)::integer, -count(*), -count(*) filter (where mod(s, 86400) = 0)
          from (select greatest(0, extract(epoch from first_order_at - approval_date)) as s
            from old_rows where first_order_at is not null and approval_date is not null) c
          group by 1 order by 1
          on conflict (days) do update
            set dealers = first_order_days.dealers + excluded.dealers, at_start = first_order_days.at_start + excluded.at_start;
      else
        insert into first_order_days (days, dealers, at_start)
          select floor(s / 86400)::integer, sum(d), coalesce(sum(d) filter (where mod(s, 86400) = 0), 0)
          from (
            select greatest(0, extract(epoch from first_order_at - approval_date)) as s, -1 as d
            from old_rows where first_order_at is not null and approval_date is not null
            union all
            select greatest(0, extract(epoch from first_order_at - approval_date)) as s, 1 as d
            from new_rows where first_order_at is not null and approval_date is not null
          ) c
          group by 1 having sum(d) <> 0 or coalesce(sum(d) filter (where mod(s, 86400) = 0), 0) <> 0 order by 1
          on conflict (days) do update
            set dealers = first_order_days.dealers + excluded.dealers, at_start = first_order_days.at_start + excluded.at_start;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function first_order_days_reset() returns trigger language plpgsql as $$
    begin
      delete from first_order_days;
      return null;
    end $$`.execute(db);
  await sql`create trigger first_order_days_insert after insert on dealers
    referencing new table as new_rows for each statement execute function first_order_days_apply()`.execute(db);
  await sql`create trigger first_order_days_update after update on dealers
    referencing old table as old_rows new table as new_rows for each statement execute function first_order_days_apply()`.execute(
    db,
  );
  await sql`create trigger first_order_days_delete after delete on dealers
    referencing old table as old_rows for each statement execute function first_order_days_apply()`.execute(db);
  await sql`create trigger first_order_days_truncate after truncate on dealers
    for each statement execute function first_order_days_reset()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['insert', 'update', 'delete', 'truncate']) {
    await sql`drop trigger if exists ${sql.ref(`first_order_days_${t}`)} on dealers`.execute(db);
  }
  await sql`drop function if exists first_order_days_apply()`.execute(db);
  await sql`drop function if exists first_order_days_reset()`.execute(db);
  await sql`drop index if exists dealers_first_order_seconds`.execute(db);
  await sql`drop table if exists first_order_days`.execute(db);
}
