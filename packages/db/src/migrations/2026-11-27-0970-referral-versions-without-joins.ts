import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Migration 0950's update triggers found the changed rows by joining the statement's old and new
// rows. PL/pgSQL plans a trigger's statement once per connection, for the transition tables of the
// first statement that fires it: after a one-row update the join is a nested loop, kept for every
// later statement on that connection. At 1,000,000 dealers the bench seed's move of 47,619
// referrals, after a one-row update, was still running after minutes, rescanning one transition
// table (spilled to disk) for each row of the other. A changed row is now found by set
// differences of the columns the stats show (with the row's id), which are hashed or sorted, never
// rescanned: the new values not among the old give the new recruiters, the old not among the new
// the old ones, one each per changed row, as the join did.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function referral_versions_dealers() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform referral_versions_bump(array(select referred_by from new_rows));
      elsif tg_op = 'DELETE' then
        perform referral_versions_bump(array(select referred_by from old_rows));
        delete from referral_versions where dealer_id in (select id from old_rows);
      else
        perform referral_versions_bump(array(
          select referred_by from (
            select id, referred_by, full_name, email, tier, referral_type, created_at from new_rows
            except
            select id, referred_by, full_name, email, tier, referral_type, created_at from old_rows
          ) n
          union all
          select referred_by from (
            select id, referred_by, full_name, email, tier, referral_type, created_at from old_rows
            except
            select id, referred_by, full_name, email, tier, referral_type, created_at from new_rows
          ) o));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function referral_versions_links() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform referral_versions_bump(array(select dealer_id from new_rows));
      elsif tg_op = 'DELETE' then
        perform referral_versions_bump(array(select dealer_id from old_rows));
      else
        perform referral_versions_bump(array(
          select dealer_id from (
            select id, dealer_id, recruiter_id, affiliate_code from new_rows
            except
            select id, dealer_id, recruiter_id, affiliate_code from old_rows
          ) n
          union all
          select dealer_id from (
            select id, dealer_id, recruiter_id, affiliate_code from old_rows
            except
            select id, dealer_id, recruiter_id, affiliate_code from new_rows
          ) o));
      end if;
      return null;
    end $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function referral_versions_dealers() returns trigger language plpgsql as $$
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
    create or replace function referral_versions_links() returns trigger language plpgsql as $$
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
}
