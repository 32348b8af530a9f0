import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// A recruiter's affiliate stats (the dashboard's 5-second poll) show their link and their referred
// dealers: how many, and the newest few with name, email, tier, referral type and date. This keeps a
// version of exactly that per recruiter, so a poll can be answered 304 from the session read alone
// (decision 0790): every change to what the stats show adds to it, in the transaction that makes
// the change. Sharded by connection like dealer_counts (migration 0800), so a burst of one
// recruiter's referrals does not queue on one row; the version is the sum of the shards, which only
// grows, so no committed change can leave it where a client last saw it.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  // No foreign key: its check would lock the recruiter's dealer row on every referral's change.
  // The dealers' delete trigger removes a deleted dealer's rows.
  await sql`create table referral_versions (
    dealer_id uuid not null,
    shard smallint not null,
    n bigint not null,
    primary key (dealer_id, shard)
  )`.execute(db);
  // Adds one per changed row to each recruiter concerned that still exists; rows in key order, so
  // two writers that share a shard lock them in one order.
  await sql`
    create function referral_versions_bump(recruiters uuid[]) returns void language sql as $$
      insert into referral_versions (dealer_id, shard, n)
        select r, pg_backend_pid() % 64, count(*)
        from unnest(recruiters) r
        where r is not null and exists (select from dealers d where d.id = r)
        group by r order by r
        on conflict (dealer_id, shard) do update set n = referral_versions.n + excluded.n
    $$`.execute(db);
  // What the stats show of a referred dealer: a change to any of these (or to referred_by) counts.
  await sql`
    create function referral_versions_dealers() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform referral_versions_bump(array(select referred_by from new_rows));
      elsif tg_op = 'DELETE' then
        perform referral_versions_bump(array(select referred_by from old_rows));
        delete from referral_versions where dealer_id in (select id from old_rows);
      else
        perform referral_versions_bump(array(
          select unnest(array[o.referred_by, n.referred_by])
          from old_rows o join new_rows n on n.id = o.id
          where (o.referred_by, o.full_name, o.email, o.tier, o.referral_type, o.created_at)
            is distinct from (n.referred_by, n.full_name, n.email, n.tier, n.referral_type, n.created_at)));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function referral_versions_links() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform referral_versions_bump(array(select dealer_id from new_rows));
      elsif tg_op = 'DELETE' then
        perform referral_versions_bump(array(select dealer_id from old_rows));
      else
        perform referral_versions_bump(array(
          select unnest(array[o.dealer_id, n.dealer_id])
          from old_rows o join new_rows n on n.id = o.id
          where (o.dealer_id, o.recruiter_id, o.affiliate_code) is distinct from (n.dealer_id, n.recruiter_id, n.affiliate_code)));
      end if;
      return null;
    end $$`.execute(db);
  // A truncate of the links changes every recruiter's stats: every dealer's version moves. One of
  // the dealers (which cascades to the links) leaves no dealer, so no version, to keep.
  await sql`
    create function referral_versions_truncate() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'dealers' then
        delete from referral_versions;
      else
        perform referral_versions_bump(array(select id from dealers));
      end if;
      return null;
    end $$`.execute(db);
  for (const [table, fn] of [
    ['dealers', 'referral_versions_dealers'],
    ['affiliate_links', 'referral_versions_links'],
  ] as const) {
    const t = sql.id(table);
    const f = sql.raw(fn);
    await sql`create trigger referral_versions_insert after insert on ${t}
      referencing new table as new_rows for each statement execute function ${f}()`.execute(db);
    await sql`create trigger referral_versions_update after update on ${t}
      referencing old table as old_rows new table as new_rows for each statement execute function ${f}()`.execute(db);
    await sql`create trigger referral_versions_delete after delete on ${t}
      referencing old table as old_rows for each statement execute function ${f}()`.execute(db);
    await sql`create trigger referral_versions_truncate after truncate on ${t}
      for each statement execute function referral_versions_truncate()`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['dealers', 'affiliate_links']) {
    for (const op of ['insert', 'update', 'delete', 'truncate']) {
      await sql`drop trigger if exists ${sql.id(`referral_versions_${op}`)} on ${sql.id(table)}`.execute(db);
    }
  }
  for (const fn of ['referral_versions_dealers', 'referral_versions_links', 'referral_versions_truncate']) {
    await sql`drop function if exists ${sql.raw(fn)}()`.execute(db);
  }
  await sql`drop function if exists referral_versions_bump(uuid[])`.execute(db);
  await sql`drop table if exists referral_versions`.execute(db);
}
