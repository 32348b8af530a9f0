import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Routing among 100,000 installers (issues 49 and 50, decision 1300). The router read every area
// covering the job's point (about 2,000 in the bench's dense metro) and joined each to its dealer
// (tier, status) and its score before it could sort them: 18,000 buffers a job, 16,000 of them the
// two joins. Now each area carries what routing sorts and filters on, kept by triggers:
// - route_tier: the dealer's tier while the dealer is an approved or active Authorized or Preferred
//   dealer, else null (the router's "tier in (...) and status in (...)");
// - route_score: installer_scores.score (null: no history, the tier's median is used).
// A GiST index on reach per tier (partial): the router reads the Preferred areas covering the point
// first and the Authorized ones only when no Preferred installer is eligible.
// route_installer is the routing rule (decisions 0911, 1120-1122, 1125) as PL/pgSQL, so that its
// statements are planned once per connection: per tier, the walk in rank order (score, distance, id)
// evaluating the costly conditions lazily until one passes fixes the band; then only the band's
// installers nearer than that one and scoring below it are walked (those scoring above it, or the
// same and nearer, were walked and failed), nearest first. Same answer, no installer examined twice.

const ELIGIBLE_TIERS = `('Preferred', 'Authorized')`;
const ROUTABLE_STATUS = `('approved', 'active')`;

/** The walk of one tier (a literal, so each statement matches its tier's partial index). */
function walkTier(tier: 'Preferred' | 'Authorized') {
  // The area's own columns, for one of the tier's areas covering the point. x.meters is
  // earth_distance(sa.point, pt) written out (sec_to_gc of cube_distance, the same operations in the
  // same order, so the same float8): earthdistance's sec_to_gc is an SQL function PostgreSQL does not
  // inline (its argument is used four times), and each call was a nested statement, twice an area.
  const cand = `
        select sa.dealer_id as id, x.meters / 1609.344::float8 as miles,
          coalesce(sa.route_score, med) as rank_score, sa.route_score is null as no_history, sa.weekly_capacity as cap
        from service_areas sa
        cross join lateral (select cube_distance(sa.point, pt) as chord) c
        cross join lateral (select case when c.chord < 0 then 0::float8
            when c.chord / (2 * earth()) > 1 then pi() * earth()
            else 2 * earth() * asin(c.chord / (2 * earth())) end as meters) x
        where sa.route_tier = '${tier}' and sa.reach @> pt
          and x.meters <= sa.radius_miles * 1609.344::float8
          and sa.dealer_id is distinct from p_seller
          and not ((sa.paused and sa.paused_until is null) or coalesce(sa.paused_until > p_now, false))`;
  // CASE fixes the order (PostgreSQL orders an AND's terms by their estimated cost): the gate, the
  // costliest, only for an installer not yet offered this job and under capacity (decision 1125).
  const eligible = `
      case when not exists (select 1 from job_offers o where o.job_id = p_job and o.dealer_id = r.id)
        and (select count(*) from job_offers o where o.dealer_id = r.id
               and o.status in ('accepted', 'assigned') and o.responded_at >= p_week)
          + (select count(*) from job_offers o where o.dealer_id = r.id and o.status = 'open')
          < r.cap
      then installer_gate_ok(r.id, on_day) else false end`;
  return `
    med := coalesce((select m.median_score from installer_tier_medians m where m.tier = '${tier}'), p_default);
    select r.id, r.miles, r.rank_score, r.no_history into best
      from (${cand}
        order by rank_score desc, miles, id offset 0) r
      where ${eligible}
      limit 1;
    if found then
      select r.id, r.miles, r.rank_score, r.no_history into nearer
        from (${cand}
            and coalesce(sa.route_score, med) < best.rank_score
            and coalesce(sa.route_score, med) >= best.rank_score - p_near_tie
            and (x.meters / 1609.344::float8, sa.dealer_id) < (best.miles, best.id)
          order by miles, id offset 0) r
        where ${eligible}
        limit 1;
      if found then
        best := nearer;
      end if;
      return query select best.id, coalesce(nullif(d.company_name, ''), d.full_name), '${tier}'::text, best.miles,
        best.rank_score, best.no_history
        from dealers d where d.id = best.id;
      return;
    end if;`;
}

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table service_areas
    add column route_tier text check (route_tier in ('Preferred', 'Authorized')),
    add column route_score numeric(4,3)`.execute(db);
  await sql
    .raw(`update service_areas sa set
      route_tier = (select d.tier::text from dealers d where d.id = sa.dealer_id
                    and d.tier in ${ELIGIBLE_TIERS} and d.status in ${ROUTABLE_STATUS}),
      route_score = (select s.score from installer_scores s where s.dealer_id = sa.dealer_id)`)
    .execute(db);

  // An area's copies from its dealer and score, when it is written for a dealer.
  await sql
    .raw(`create or replace function service_area_route_fill() returns trigger
    language plpgsql as $$
    begin
      new.route_tier := (select d.tier::text from dealers d where d.id = new.dealer_id
                         and d.tier in ${ELIGIBLE_TIERS} and d.status in ${ROUTABLE_STATUS});
      new.route_score := (select s.score from installer_scores s where s.dealer_id = new.dealer_id);
      return new;
    end
    $$`)
    .execute(db);
  await sql`create trigger service_areas_route_fill before insert or update of dealer_id on service_areas
    for each row execute function service_area_route_fill()`.execute(db);

  // A dealer's tier or status changes: their area's route_tier.
  await sql
    .raw(`create or replace function dealer_route_tier() returns trigger
    language plpgsql as $$
    declare
      t text := case when new.tier in ${ELIGIBLE_TIERS} and new.status in ${ROUTABLE_STATUS} then new.tier::text end;
    begin
      update service_areas set route_tier = t where dealer_id = new.id and route_tier is distinct from t;
      return null;
    end
    $$`)
    .execute(db);
  await sql`create trigger dealers_route_tier after update of tier, status on dealers
    for each row when (old.tier is distinct from new.tier or old.status is distinct from new.status)
    execute function dealer_route_tier()`.execute(db);

  // An installer's score changes (the offers' and reviews' triggers, the daily sweep): their area's copy.
  await sql`create or replace function installer_score_route() returns trigger
    language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        update service_areas set route_score = null where dealer_id = old.dealer_id and route_score is not null;
      else
        update service_areas set route_score = new.score
          where dealer_id = new.dealer_id and route_score is distinct from new.score;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger installer_scores_route after insert or update of score or delete on installer_scores
    for each row execute function installer_score_route()`.execute(db);

  await sql`drop index if exists service_areas_reach_idx`.execute(db);
  await sql`create index service_areas_reach_preferred_idx on service_areas using gist (reach)
    where route_tier = 'Preferred'`.execute(db);
  await sql`create index service_areas_reach_authorized_idx on service_areas using gist (reach)
    where route_tier = 'Authorized'`.execute(db);

  await sql
    .raw(`create or replace function route_installer(p_job uuid, p_lat float8, p_lng float8, p_seller uuid,
      p_now timestamptz, p_week timestamptz, p_near_tie numeric, p_default numeric)
    returns table (dealer_id uuid, name text, tier text, distance_miles float8, score numeric, cold boolean)
    language plpgsql stable as $$
    #variable_conflict use_column
    declare
      pt earth := service_point(p_lat, p_lng);
      on_day date := (p_now at time zone 'UTC')::date;
      med numeric;
      best record;
      nearer record;
    begin
      ${walkTier('Preferred')}
      ${walkTier('Authorized')}
      return;
    end
    $$`)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists route_installer(uuid, float8, float8, uuid, timestamptz, timestamptz, numeric, numeric)`.execute(
    db,
  );
  await sql`drop index if exists service_areas_reach_preferred_idx, service_areas_reach_authorized_idx`.execute(db);
  await sql`create index if not exists service_areas_reach_idx on service_areas using gist (reach)`.execute(db);
  await sql`drop trigger if exists installer_scores_route on installer_scores`.execute(db);
  await sql`drop trigger if exists dealers_route_tier on dealers`.execute(db);
  await sql`drop trigger if exists service_areas_route_fill on service_areas`.execute(db);
  await sql`drop function if exists installer_score_route(), dealer_route_tier(), service_area_route_fill()`.execute(
    db,
  );
  await sql`alter table service_areas drop column if exists route_tier, drop column if exists route_score`.execute(db);
}
