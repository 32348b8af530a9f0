import { type Kysely, sql } from 'kysely';
import * as m0741 from './2026-11-24-0741-commission-totals';
import * as m0910 from './2026-11-26-0910-recruiter-commission-totals';

// Frozen: never import app code here.
// "Net payable" (issue 34): which ledger entries the next payout batch settles, defined once in SQL as
// `ledger_payable(status, payout_id)`: approved and in no batch yet, commissions and clawbacks alike.
// The payout batch, its CSV and email (queries/net-payable.ts) read it from the ledger; the polled
// dashboards read the kept totals (migrations 0741 and 0910, decision 0760), which now key their
// rows by the same function's answer (`payable`), so a batch taking entries moves their amount out
// of `payable` in the transaction that takes them. An SQL function of its arguments only is inlined
// by the planner: `where ledger_payable(c.status, c.payout_id)` still uses the ledger's indexes.
// docs/decisions/0860-one-ledger-module.md.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function ledger_payable(status text, payout_id uuid) returns boolean
    language sql immutable parallel safe
    as $$ select status = 'approved' and payout_id is null $$`.execute(db);

  // The kept rows are derived: rebuilt from the ledger under the new key, in this transaction.
  await sql`alter table commission_totals add column payable boolean not null default false`.execute(db);
  await sql`alter table commission_totals drop constraint commission_totals_pkey,
    add primary key (status, kind, payable, shard)`.execute(db);
  await sql`delete from commission_totals`.execute(db);
  await sql`insert into commission_totals (status, kind, payable, shard, n, amount)
    select status, kind, ledger_payable(status, payout_id), 0, count(*), coalesce(sum(amount), 0) from commissions
    where recruiter_dealer_id is not null group by 1, 2, 3`.execute(db);

  await sql`alter table recruiter_commission_totals add column payable boolean not null default false`.execute(db);
  await sql`alter table recruiter_commission_totals drop constraint recruiter_commission_totals_pkey,
    add primary key (recruiter_dealer_id, month, status, kind, payable, shard)`.execute(db);
  await sql`delete from recruiter_commission_totals`.execute(db);
  await sql`insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, payable, shard, n, amount)
    select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind,
      ledger_payable(status, payout_id), 0, count(*), coalesce(sum(amount), 0)
    from commissions where recruiter_dealer_id is not null group by 1, 2, 3, 4, 5`.execute(db);

  // The same functions as 0741 and 0910 with `payable` in the key. Rows in key order within a
  // statement, so two writers that share a shard lock them in one order.
  await sql`
    create or replace function commission_totals_apply() returns trigger language plpgsql as $$
    declare
      s smallint := pg_backend_pid() % 64;
    begin
      if tg_op = 'INSERT' then
        insert into commission_totals (status, kind, payable, shard, n, amount)
          select status, kind, ledger_payable(status, payout_id), s, count(*), coalesce(sum(amount), 0)
          from new_rows where recruiter_dealer_id is not null group by 1, 2, 3 order by 1, 2, 3
          on conflict (status, kind, payable, shard) do update
            set n = commission_totals.n + excluded.n, amount = commission_totals.amount + excluded.amount;
      elsif tg_op = 'DELETE' then
        insert into commission_totals (status, kind, payable, shard, n, amount)
          select status, kind, ledger_payable(status, payout_id), s, -count(*), -coalesce(sum(amount), 0)
          from old_rows where recruiter_dealer_id is not null group by 1, 2, 3 order by 1, 2, 3
          on conflict (status, kind, payable, shard) do update
            set n = commission_totals.n + excluded.n, amount = commission_totals.amount + excluded.amount;
      else
        -- An update that moves nothing between totals (an approval date, a reason) locks nothing.
        insert into commission_totals (status, kind, payable, shard, n, amount)
          select status, kind, payable, s, sum(d), coalesce(sum(d * amount), 0) from (
            select status, kind, ledger_payable(status, payout_id) as payable, -1 as d, amount
            from old_rows where recruiter_dealer_id is not null
            union all
            select status, kind, ledger_payable(status, payout_id), 1, amount
            from new_rows where recruiter_dealer_id is not null
          ) c
          group by 1, 2, 3 having sum(d) <> 0 or coalesce(sum(d * amount), 0) <> 0 order by 1, 2, 3
          on conflict (status, kind, payable, shard) do update
            set n = commission_totals.n + excluded.n, amount = commission_totals.amount + excluded.amount;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function recruiter_commission_totals_apply() returns trigger language plpgsql as $$
    declare
      s smallint := pg_backend_pid() % 64;
    begin
      if tg_op = 'INSERT' then
        insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, payable, shard, n, amount)
          select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind,
            ledger_payable(status, payout_id), s, count(*), coalesce(sum(amount), 0)
          from new_rows where recruiter_dealer_id is not null group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
          on conflict (recruiter_dealer_id, month, status, kind, payable, shard) do update
            set n = recruiter_commission_totals.n + excluded.n,
              amount = recruiter_commission_totals.amount + excluded.amount;
      elsif tg_op = 'DELETE' then
        insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, payable, shard, n, amount)
          select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind,
            ledger_payable(status, payout_id), s, -count(*), -coalesce(sum(amount), 0)
          from old_rows where recruiter_dealer_id is not null group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
          on conflict (recruiter_dealer_id, month, status, kind, payable, shard) do update
            set n = recruiter_commission_totals.n + excluded.n,
              amount = recruiter_commission_totals.amount + excluded.amount;
      else
        -- An update that moves nothing between totals (an approval date, a reason) locks nothing.
        insert into recruiter_commission_totals (recruiter_dealer_id, month, status, kind, payable, shard, n, amount)
          select recruiter_dealer_id, month, status, kind, payable, s, sum(d), coalesce(sum(d * amount), 0) from (
            select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date as month, status, kind,
              ledger_payable(status, payout_id) as payable, -1 as d, amount
            from old_rows where recruiter_dealer_id is not null
            union all
            select recruiter_dealer_id, date_trunc('month', created_at, 'UTC')::date, status, kind,
              ledger_payable(status, payout_id), 1, amount
            from new_rows where recruiter_dealer_id is not null
          ) c
          group by 1, 2, 3, 4, 5 having sum(d) <> 0 or coalesce(sum(d * amount), 0) <> 0 order by 1, 2, 3, 4, 5
          on conflict (recruiter_dealer_id, month, status, kind, payable, shard) do update
            set n = recruiter_commission_totals.n + excluded.n,
              amount = recruiter_commission_totals.amount + excluded.amount;
      end if;
      return null;
    end $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  // Back to 0741's and 0910's keys: their functions are restored by re-running those migrations' up.
  await m0910.down(db);
  await m0741.down(db);
  await sql`drop function if exists ledger_payable(text, uuid)`.execute(db);
  await m0741.up(db);
  await m0910.up(db);
}
