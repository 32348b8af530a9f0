import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 49: the installer's offers poll and the dealer's job list (jobs.offers, jobs.mine) answer
// 304 from the session read, as the affiliate stats do (decision 0790): a version per dealer of
// every job and offer their lists show, kept by the database in the transaction of the change
// (decision 1180). Sharded by connection like referral_versions; a dealer's version is the sum of
// their shards and only grows. What bumps a dealer:
// - job_offers: any inserted, updated or deleted offer bumps its installer (old and new);
// - jobs: an inserted or deleted job bumps its seller and installer; an updated one bumps its seller
//   and installer (old and new) and the holder of its open offer (the offers list shows the job's
//   place and size);
// - dealers: a change of the company name, full name or phone of an installer bumps the sellers of
//   the jobs they install (the seller's list shows the installer's company and phone).
// No foreign key: its check would lock the dealer's row for each change. A truncate bumps nobody
// (restores and the bench seed run with triggers off and call job_versions_bump afterwards).
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table job_versions (
    dealer_id uuid not null,
    shard smallint not null,
    n bigint not null,
    primary key (dealer_id, shard)
  )`.execute(db);
  // Sorted, so two transactions bumping the same dealers take their rows in one order.
  await sql`
    create function job_versions_bump(dealers uuid[]) returns void language plpgsql as $$
    begin
      -- PL/pgSQL, like every function that writes (decision 0830): parsed once per connection.
      insert into job_versions (dealer_id, shard, n)
        select d, pg_backend_pid() % 64, 1
        from unnest(dealers) d
        where d is not null
        group by d order by d
        on conflict (dealer_id, shard) do update set n = job_versions.n + 1;
    end $$`.execute(db);
  await sql`
    create function job_versions_offers() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform job_versions_bump(array(select dealer_id from new_rows));
      elsif tg_op = 'DELETE' then
        perform job_versions_bump(array(select dealer_id from old_rows));
      else
        perform job_versions_bump(array(select dealer_id from new_rows union select dealer_id from old_rows));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function job_versions_jobs() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform job_versions_bump(array(select seller_id from new_rows union select installer_id from new_rows));
      elsif tg_op = 'DELETE' then
        perform job_versions_bump(array(select seller_id from old_rows union select installer_id from old_rows));
      else
        perform job_versions_bump(array(
          select seller_id from new_rows union select installer_id from new_rows
          union select seller_id from old_rows union select installer_id from old_rows
          union select o.dealer_id from job_offers o where o.status = 'open' and o.job_id in (select id from new_rows)));
      end if;
      return null;
    end $$`.execute(db);
  // Set differences, not a join of the transition tables (migration 0970 says why).
  await sql`
    create function job_versions_installers() returns trigger language plpgsql as $$
    begin
      perform job_versions_bump(array(
        select j.seller_id from jobs j
        where j.installer_id in (
          select id from (select id, company_name, full_name, phone_e164 from new_rows
                          except select id, company_name, full_name, phone_e164 from old_rows) c)));
      return null;
    end $$`.execute(db);
  for (const [table, fn] of [
    ['job_offers', 'job_versions_offers'],
    ['jobs', 'job_versions_jobs'],
  ] as const) {
    const t = sql.id(table);
    const f = sql.id(fn);
    await sql`create trigger job_versions_insert after insert on ${t}
      referencing new table as new_rows for each statement execute function ${f}()`.execute(db);
    await sql`create trigger job_versions_update after update on ${t}
      referencing old table as old_rows new table as new_rows for each statement execute function ${f}()`.execute(db);
    await sql`create trigger job_versions_delete after delete on ${t}
      referencing old table as old_rows for each statement execute function ${f}()`.execute(db);
  }
  await sql`create trigger job_versions_update after update on dealers
    referencing old table as old_rows new table as new_rows for each statement
    execute function job_versions_installers()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['job_offers', 'jobs']) {
    for (const op of ['insert', 'update', 'delete']) {
      await sql`drop trigger if exists ${sql.id(`job_versions_${op}`)} on ${sql.id(table)}`.execute(db);
    }
  }
  await sql`drop trigger if exists job_versions_update on dealers`.execute(db);
  await sql`drop function if exists job_versions_offers(), job_versions_jobs(), job_versions_installers()`.execute(db);
  await sql`drop function if exists job_versions_bump(uuid[])`.execute(db);
  await sql`drop table if exists job_versions`.execute(db);
}
