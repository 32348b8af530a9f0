import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 47 + 49: the seller's job list (jobs.mine) shows who holds the job's open offer and by when
// they answer ("Waiting for <company> to answer by ..."), so an offer's change must move the
// seller's version too, not only the installer's (migration 4200): a job offered on to the next
// installer after a decline or an expiry writes offers, and may leave the job's row as it was. The
// same for an installer's new company name while they hold an open offer of somebody's job.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function job_versions_offers() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform job_versions_bump(array(
          select dealer_id from new_rows
          union select j.seller_id from jobs j where j.id in (select job_id from new_rows)));
      elsif tg_op = 'DELETE' then
        perform job_versions_bump(array(
          select dealer_id from old_rows
          union select j.seller_id from jobs j where j.id in (select job_id from old_rows)));
      else
        perform job_versions_bump(array(
          select dealer_id from new_rows union select dealer_id from old_rows
          union select j.seller_id from jobs j where j.id in (select job_id from new_rows union select job_id from old_rows)));
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function job_versions_installers() returns trigger language plpgsql as $$
    begin
      perform job_versions_bump(array(
        select j.seller_id from jobs j
        where j.installer_id in (
          select id from (select id, company_name, full_name, phone_e164 from new_rows
                          except select id, company_name, full_name, phone_e164 from old_rows) c)
        union
        select j.seller_id from jobs j join job_offers o on o.job_id = j.id and o.status = 'open'
        where o.dealer_id in (
          select id from (select id, company_name, full_name, phone_e164 from new_rows
                          except select id, company_name, full_name, phone_e164 from old_rows) c)));
      return null;
    end $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function job_versions_offers() returns trigger language plpgsql as $$
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
    create or replace function job_versions_installers() returns trigger language plpgsql as $$
    begin
      perform job_versions_bump(array(
        select j.seller_id from jobs j
        where j.installer_id in (
          select id from (select id, company_name, full_name, phone_e164 from new_rows
                          except select id, company_name, full_name, phone_e164 from old_rows) c)));
      return null;
    end $$`.execute(db);
}
