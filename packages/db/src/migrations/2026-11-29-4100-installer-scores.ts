import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 50 (decisions 1120-1124): routing by score. Each installer's score is kept in
// installer_scores, recomputed by triggers when one of its offers is answered or expires and when a
// review of its work arrives (and by the daily `jobs.installer-scores` sweep, as the 90-day window
// moves); each tier's median score (the start of an installer without history) is kept in
// installer_tier_medians by that sweep. The score, on a 0-5 scale: 5 x the weighted mean of the parts
// there is evidence for: the rating ((average - 1) / 4, weight 0.5, every review), the acceptance
// rate (accepted / answered or expired, weight 0.3) and the speed (1 - median hours to answer / 24,
// at least 0, weight 0.2), both over the offers made in the 90 days before. No evidence: null.
// expired_streak counts the offers that expired since the installer last accepted or declined one
// (three pause their area: service_areas.paused_reason = 'expired_offers').
// service_areas.reach is the area's search box (earth_box of its own radius, with every name
// qualified as service_point is, decision 0996): "which areas cover this point" is one GiST search.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table installer_scores (
    dealer_id uuid primary key references dealers(id) on delete cascade,
    score numeric(4,3) check (score between 0 and 5),
    rating_average numeric(3,2),
    review_count integer not null default 0,
    offers integer not null default 0,
    accepted integer not null default 0,
    declined integer not null default 0,
    expired integer not null default 0,
    response_seconds integer,
    expired_streak integer not null default 0,
    computed_at timestamptz not null
  )`.execute(db);
  await sql`create table installer_tier_medians (
    tier text primary key check (tier in ('Preferred', 'Authorized')),
    median_score numeric(4,3),
    installers integer not null default 0,
    refreshed_at timestamptz not null
  )`.execute(db);
  await sql`alter table service_areas add column paused_reason text check (paused_reason in ('expired_offers'))`.execute(
    db,
  );
  await sql`alter table service_areas add column reach cube generated always as (
    public.cube_enlarge(
      public.service_point(latitude, longitude),
      2 * public.earth() * sin(radius_miles * 1609.344::float8 / (2 * public.earth())),
      3
    )) stored`.execute(db);
  await sql`create index service_areas_reach_idx on service_areas using gist (reach)`.execute(db);

  await sql`create or replace function refresh_installer_score(p_dealer uuid, p_at timestamptz) returns void
    language plpgsql as $$
    declare
      o record;
      r record;
      parts numeric := 0;
      weights numeric := 0;
      s numeric;
    begin
      if p_dealer is null then return; end if;
      select count(*) filter (where status in ('accepted', 'declined', 'expired'))::int as offers,
             count(*) filter (where status = 'accepted')::int as accepted,
             count(*) filter (where status = 'declined')::int as declined,
             count(*) filter (where status = 'expired')::int as expired,
             percentile_cont(0.5) within group (order by extract(epoch from responded_at - offered_at))
               filter (where status in ('accepted', 'declined', 'expired')) as seconds
        into o
        from job_offers
        where dealer_id = p_dealer and offered_at > p_at - interval '90 days';
      select avg(rating) as average, count(*)::int as n into r from job_reviews where installer_id = p_dealer;
      if r.n > 0 then
        parts := parts + 0.5 * (r.average - 1) / 4;
        weights := weights + 0.5;
      end if;
      if o.offers > 0 then
        parts := parts + 0.3 * o.accepted::numeric / o.offers
               + 0.2 * greatest(0, 1 - least(coalesce(o.seconds, 0), 86400)::numeric / 86400);
        weights := weights + 0.5;
      end if;
      s := case when weights > 0 then round(5 * parts / weights, 3) end;
      insert into installer_scores (dealer_id, score, rating_average, review_count, offers, accepted, declined,
          expired, response_seconds, computed_at)
        values (p_dealer, s, round(r.average, 2), r.n, o.offers, o.accepted, o.declined, o.expired,
          round(o.seconds)::int, p_at)
        on conflict (dealer_id) do update set score = excluded.score, rating_average = excluded.rating_average,
          review_count = excluded.review_count, offers = excluded.offers, accepted = excluded.accepted,
          declined = excluded.declined, expired = excluded.expired, response_seconds = excluded.response_seconds,
          computed_at = excluded.computed_at;
    end
    $$`.execute(db);

  await sql`create or replace function installer_offer_answered() returns trigger
    language plpgsql as $$
    begin
      perform refresh_installer_score(new.dealer_id, coalesce(new.responded_at, now()));
      update installer_scores
        set expired_streak = case when new.status = 'expired' then expired_streak + 1 else 0 end
        where dealer_id = new.dealer_id;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger job_offers_score after update of status on job_offers
    for each row when (old.status = 'open' and new.status in ('accepted', 'declined', 'expired'))
    execute function installer_offer_answered()`.execute(db);

  await sql`create or replace function installer_reviewed() returns trigger
    language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        perform refresh_installer_score(old.installer_id, now());
      end if;
      if tg_op <> 'DELETE' then
        perform refresh_installer_score(new.installer_id, coalesce(new.created_at, now()));
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger job_reviews_score after insert or update or delete on job_reviews
    for each row execute function installer_reviewed()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists job_reviews_score on job_reviews`.execute(db);
  await sql`drop trigger if exists job_offers_score on job_offers`.execute(db);
  await sql`drop function if exists installer_reviewed(), installer_offer_answered(), refresh_installer_score(uuid, timestamptz)`.execute(
    db,
  );
  await sql`drop index if exists service_areas_reach_idx`.execute(db);
  await sql`alter table service_areas drop column if exists reach, drop column if exists paused_reason`.execute(db);
  await sql`drop table if exists installer_tier_medians`.execute(db);
  await sql`drop table if exists installer_scores`.execute(db);
}
