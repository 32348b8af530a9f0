import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// dealer_counts (migration 0303) had one row per (status, tier): every signup's transaction updated
// the (pending, tier) row and held its lock until commit, so all signups in the country queued on
// three rows (issue 16: 704 signups/s at 53% CPU, the waits row locks). Like commission_totals
// (migration 0741), each database connection now writes its own shard (pg_backend_pid() % 64):
// transactions on different connections never wait for each other here, and readers sum the
// shards (they already did: queries/dealer-counts.ts). The existing counts become shard 0.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table dealer_counts add column shard smallint not null default 0`.execute(db);
  await sql`alter table dealer_counts drop constraint dealer_counts_pkey`.execute(db);
  await sql`alter table dealer_counts add primary key (status, tier, shard)`.execute(db);
  await sql`alter table dealer_counts alter column shard drop default`.execute(db);
  // Rows in key order within a statement, so two writers that share a shard lock it in one order.
  // A change that moves no dealer between counters (sum 0) locks nothing.
  await sql`
    create or replace function dealer_counts_apply() returns trigger language plpgsql as $$
    declare
      s smallint := pg_backend_pid() % 64;
    begin
      if tg_op = 'INSERT' then
        insert into dealer_counts (status, tier, shard, n)
          select status, tier, s, count(*) from new_rows group by 1, 2 order by 1, 2
          on conflict (status, tier, shard) do update set n = dealer_counts.n + excluded.n;
      elsif tg_op = 'DELETE' then
        insert into dealer_counts (status, tier, shard, n)
          select status, tier, s, -count(*) from old_rows group by 1, 2 order by 1, 2
          on conflict (status, tier, shard) do update set n = dealer_counts.n + excluded.n;
      else
        insert into dealer_counts (status, tier, shard, n)
          select status, tier, s, sum(d) from (
            select status, tier, -1 as d from old_rows
            union all
            select status, tier, 1 as d from new_rows
          ) c group by 1, 2 having sum(d) <> 0 order by 1, 2
          on conflict (status, tier, shard) do update set n = dealer_counts.n + excluded.n;
      end if;
      return null;
    end $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function dealer_counts_apply() returns trigger language plpgsql as $$
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
  await sql`insert into dealer_counts (status, tier, shard, n)
    select status, tier, 0, sum(n) from dealer_counts where shard <> 0 group by 1, 2 order by 1, 2
    on conflict (status, tier, shard) do update set n = dealer_counts.n + excluded.n`.execute(db);
  await sql`delete from dealer_counts where shard <> 0`.execute(db);
  await sql`alter table dealer_counts drop constraint dealer_counts_pkey`.execute(db);
  await sql`alter table dealer_counts drop column shard`.execute(db);
  await sql`alter table dealer_counts add primary key (status, tier)`.execute(db);
}
