import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// service_point (migration 2000) as a function PostgreSQL can inline (decision 0996). Its
// `set search_path` clause kept pg_restore working (ll_to_earth's body names cube, earth and the
// `earth` type unqualified) but made every call a real function call with a GUC save and restore:
// about 50 microseconds, so a routing that read 5,000 areas spent 300 ms in it. The same formula
// as ll_to_earth with every name qualified needs no search_path and is inlined, in queries and in
// the index expression alike. The area's point is then a stored generated column, indexed: the
// router reads a plain column (no formula per row, and a statement that plans in a fraction of the
// time the inlined formula's copies took). pg_restore recomputes it with an empty search_path, which
// the qualified body allows; the logical backup skips generated columns.
// And job_offers by job: the router asks of each installer it reads whether this job was offered to
// them before, which through the dealer's index read all of that installer's offers. And an
// installer's open offers (the dashboard's poll), which read every offer the installer ever had.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create or replace function service_point(lat double precision, lng double precision) returns earth
    language sql immutable parallel safe
    as $$ select public.cube(public.cube(public.cube(public.earth() * cos(radians(lat)) * cos(radians(lng))),
      public.earth() * cos(radians(lat)) * sin(radians(lng))), public.earth() * sin(radians(lat)))::public.earth $$`.execute(
    db,
  );
  await sql`alter table service_areas add column point earth generated always as (service_point(latitude, longitude)) stored`.execute(
    db,
  );
  await sql`drop index service_areas_earth_idx`.execute(db);
  await sql`create index service_areas_point_idx on service_areas using gist (point)`.execute(db);
  await sql`create index job_offers_job_dealer_idx on job_offers (job_id, dealer_id)`.execute(db);
  await sql`create index job_offers_dealer_open_idx on job_offers (dealer_id, expires_at) where status = 'open'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists job_offers_job_dealer_idx, job_offers_dealer_open_idx`.execute(db);
  await sql`alter table service_areas drop column point`.execute(db);
  await sql`create or replace function service_point(lat double precision, lng double precision) returns earth
    language sql immutable parallel safe set search_path = public
    as $$ select ll_to_earth(lat, lng) $$`.execute(db);
  await sql`create index service_areas_earth_idx on service_areas using gist (service_point(latitude, longitude))`.execute(
    db,
  );
}
