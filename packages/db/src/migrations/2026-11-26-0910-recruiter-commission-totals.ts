import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// A recruiter's Commissions page sums their whole ledger by status, and this month's, on every
// visit: 2.5 ms at 100,000 dealers and 11.5 ms at 1,000,000 for the recruiter with 21,489
// commissions (issue 16, cost curve), growing with each order their dealers place. Like
// commission_totals (migration 0741) the sums are kept by statement triggers in the transaction
// that changes the ledger, here per recruiter and per UTC month of created_at (the page's "this
// month" starts at the UTC month's first second), one shard per database connection so a webhook
// burst for one recruiter's dealers never queues on one row. The page reads its recruiter's rows
// (months x statuses x kinds) instead of their commissions (queries/commissions.ts
// recruiterTotals). docs/decisions/0760-kept-totals-for-the-cost-curve.md.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table recruiter_commission_totals (
    recruiter_dealer_id uuid not null,
    month date not null,
    status text not null,
    kind text not null,
    shard smallint not null,
    n bigint not null default 0,
    amount numeric(16, 2) not null default 0,
    primary key (recruiter_dealer_id, month, status, kind, shard)
  )`.execute(db);
  await sql`insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, shard, n, amount)
    select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind, 0, count(*), coalesce(sum(amount), 0)
    from commissions where recruiter_dealer_id is not null group by 1, 2, 3, 4`.execute(db);
  // Rows in key order within a statement, so two writers that share a shard lock them in one order.
  // A transition table exists only for the operations that have it, hence one statement per operation.
  await sql`
    create function recruiter_commission_totals_apply() returns trigger language plpgsql as $$
    declare
      s smallint := pg_backend_pid() % 64;
    begin
      if tg_op = 'INSERT' then
        insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, shard, n, amount)
          select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind, s,
            count(*), coalesce(sum(amount), 0)
          from new_rows where recruiter_dealer_id is not null group by 1, 2, 3, 4 order by 1, 2, 3, 4
          on conflict (recruiter_dealer_id, month, status, kind, shard) do update
            set n = recruiter_commission_totals.n + excluded.n,
              amount = recruiter_commission_totals.amount + excluded.amount;
      elsif tg_op = 'DELETE' then
        insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, shard, n, amount)
          select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind, s,
            -count(*), -coalesce(sum(amount), 0)
          from old_rows where recruiter_dealer_id is not null group by 1, 2, 3, 4 order by 1, 2, 3, 4
          on conflict (recruiter_dealer_id, month, status, kind, shard) do update
            set n = recruiter_commission_totals.n + excluded.n,
              amount = recruiter_commission_totals.amount + excluded.amount;
      else
        -- An update that moves nothing between totals (a payout id, an approval date) locks nothing.
        insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, shard, n, amount)
          select recruiter_dealer_id, month, status, kind, s, sum(d), coalesce(sum(d * amount), 0) from (
            select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date as month, status, kind,
              -1 as d, amount
            from old_rows where recruiter_dealer_id is not null
            union all
            select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind, 1, amount
            from new_rows where recruiter_dealer_id is not null
          ) c
          group by 1, 2, 3, 4 having sum(d) <> 0 or coalesce(sum(d * amount), 0) <> 0 order by 1, 2, 3, 4
          on conflict (recruiter_dealer_id, month, status, kind, shard) do update
            set n = recruiter_commission_totals.n + excluded.n,
              amount = recruiter_commission_totals.amount + excluded.amount;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function recruiter_commission_totals_reset() returns trigger language plpgsql as $$
    begin
      delete from recruiter_commission_totals;
      return null;
    end $$`.execute(db);
  await sql`create trigger recruiter_commission_totals_insert after insert on commissions
    referencing new table as new_rows for each statement execute function recruiter_commission_totals_apply()`.execute(
    db,
  );
  await sql`create trigger recruiter_commission_totals_update after update on commissions
    referencing old table as old_rows new table as new_rows
    for each statement execute function recruiter_commission_totals_apply()`.execute(db);
  await sql`create trigger recruiter_commission_totals_delete after delete on commissions
    referencing old table as old_rows for each statement execute function recruiter_commission_totals_apply()`.execute(
    db,
  );
  await sql`create trigger recruiter_commission_totals_truncate after truncate on commissions
    for each statement execute function recruiter_commission_totals_reset()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['insert', 'update', 'delete', 'truncate']) {
    await sql`drop trigger if exists ${sql.ref(`recruiter_commission_totals_${t}`)} on commissions`.execute(db);
  }
  await sql`drop function if exists recruiter_commission_totals_apply()`.execute(db);
  await sql`drop function if exists recruiter_commission_totals_reset()`.execute(db);
  await sql`drop table if exists recruiter_commission_totals`.execute(db);
}
