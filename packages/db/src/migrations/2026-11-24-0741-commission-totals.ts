import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin Commissions tab shows the ledger's totals (count, and sums per status) over its filter.
// Unfiltered or by status alone that was an aggregate over every commission on each request: 0.3 s
// at 300,000 commissions (bench stage `partner`). These totals per (status, kind) are kept by
// statement triggers in the transaction that changes the commissions, so they are exact, and the
// tab reads a few rows (queries/commissions.ts ledgerTotals). Filters by recruiter or dates still
// aggregate their (indexed) rows.
// Many orders earn commissions at once (the webhook): a single counter row per status would put
// them all in one line. Each database connection writes its own shard (pg_backend_pid() % 64), so
// concurrent transactions on different connections never wait for each other here; readers sum the
// shards. Only rows with a recruiter count, as in the ledger's filter.
// docs/decisions/0740-bench-partner-and-admin-stages.md.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table commission_totals (
    status text not null,
    kind text not null,
    shard smallint not null,
    n bigint not null default 0,
    amount numeric(16, 2) not null default 0,
    primary key (status, kind, shard)
  )`.execute(db);
  await sql`insert into commission_totals (status, kind, shard, n, amount)
    select status, kind, 0, count(*), coalesce(sum(amount), 0) from commissions
    where recruiter_dealer_id is not null group by 1, 2`.execute(db);
  // Rows in key order within a statement, so two writers that share a shard lock it in one order.
  await sql`
    create function commission_totals_apply() returns trigger language plpgsql as $$
    declare
      s smallint := pg_backend_pid() % 64;
    begin
      if tg_op = 'INSERT' then
        insert into commission_totals (status, kind, shard, n, amount)
          select status, kind, s, count(*), coalesce(sum(amount), 0) from new_rows
          where recruiter_dealer_id is not null group by 1, 2 order by 1, 2
          on conflict (status, kind, shard) do update
            set n = commission_totals.n + excluded.n, amount = commission_totals.amount + excluded.amount;
      elsif tg_op = 'DELETE' then
        insert into commission_totals (status, kind, shard, n, amount)
          select status, kind, s, -count(*), -coalesce(sum(amount), 0) from old_rows
          where recruiter_dealer_id is not null group by 1, 2 order by 1, 2
          on conflict (status, kind, shard) do update
            set n = commission_totals.n + excluded.n, amount = commission_totals.amount + excluded.amount;
      else
        -- An update that moves nothing between totals (a payout id, an approval date) locks nothing.
        insert into commission_totals (status, kind, shard, n, amount)
          select status, kind, s, sum(d), coalesce(sum(d * amount), 0) from (
            select status, kind, -1 as d, amount from old_rows where recruiter_dealer_id is not null
            union all
            select status, kind, 1 as d, amount from new_rows where recruiter_dealer_id is not null
          ) c
          group by 1, 2 having sum(d) <> 0 or coalesce(sum(d * amount), 0) <> 0 order by 1, 2
          on conflict (status, kind, shard) do update
            set n = commission_totals.n + excluded.n, amount = commission_totals.amount + excluded.amount;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function commission_totals_reset() returns trigger language plpgsql as $$
    begin
      delete from commission_totals;
      return null;
    end $$`.execute(db);
  await sql`create trigger commission_totals_insert after insert on commissions
    referencing new table as new_rows for each statement execute function commission_totals_apply()`.execute(db);
  await sql`create trigger commission_totals_update after update on commissions
    referencing old table as old_rows new table as new_rows for each statement execute function commission_totals_apply()`.execute(
    db,
  );
  await sql`create trigger commission_totals_delete after delete on commissions
    referencing old table as old_rows for each statement execute function commission_totals_apply()`.execute(db);
  await sql`create trigger commission_totals_truncate after truncate on commissions
    for each statement execute function commission_totals_reset()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['insert', 'update', 'delete', 'truncate']) {
    await sql`drop trigger if exists ${sql.ref(`commission_totals_${t}`)} on commissions`.execute(db);
  }
  await sql`drop function if exists commission_totals_apply()`.execute(db);
  await sql`drop function if exists commission_totals_reset()`.execute(db);
  await sql`drop table if exists commission_totals`.execute(db);
}
