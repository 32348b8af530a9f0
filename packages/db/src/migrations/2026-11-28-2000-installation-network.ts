import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 37, the installation network (decisions 0910-0913): installers' service areas (a ZIP's
// centroid and a radius, found through a GiST index on service_point, our ll_to_earth), jobs (a dealer's sold job, a
// homeowner's quote request or an admin's), one offer at a time per job (the partial unique index),
// the job's timeline, the owners' routing settings, and orders of source 'job'.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists cube`.execute(db);
  await sql`create extension if not exists earthdistance`.execute(db);

  await sql`create table service_areas (
    dealer_id uuid primary key references dealers(id) on delete cascade,
    zip_code text not null,
    state text not null,
    latitude double precision not null,
    longitude double precision not null,
    radius_miles integer not null check (radius_miles between 5 and 200),
    weekly_capacity integer not null check (weekly_capacity between 1 and 500),
    paused boolean not null default false,
    paused_until timestamptz,
    updated_at timestamptz not null default now()
  )`.execute(db);
  // The area's centre as earthdistance's point, indexed. Through a function of ours with its own
  // search_path: pg_restore builds indexes with an empty one, and ll_to_earth's SQL body names its
  // type `earth` unqualified, so an index on ll_to_earth itself fails to restore from a pg_dump.
  await sql`create function service_point(lat double precision, lng double precision) returns earth
    language sql immutable parallel safe set search_path = public
    as $$ select ll_to_earth(lat, lng) $$`.execute(db);
  await sql`create index service_areas_earth_idx on service_areas using gist (service_point(latitude, longitude))`.execute(
    db,
  );

  await sql`create table jobs (
    id uuid primary key default gen_random_uuid(),
    origin text not null check (origin in ('dealer', 'quote', 'admin')),
    seller_id uuid references dealers(id) on delete set null,
    installer_id uuid references dealers(id) on delete set null,
    status text not null check (status in ('offered', 'unrouted', 'accepted', 'scheduled', 'installed', 'cancelled')),
    homeowner_name text not null,
    homeowner_email text not null,
    homeowner_phone text not null,
    street text not null,
    city text not null,
    state text not null,
    zip_code text not null,
    latitude double precision not null,
    longitude double precision not null,
    attic_sq_ft integer,
    fans integer,
    amount numeric(12, 2),
    notes text,
    scheduled_for text check (scheduled_for ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    installed_amount numeric(12, 2),
    cancel_reason text,
    order_id uuid references orders(id) on delete set null,
    status_token_hash text unique,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index jobs_status_created_idx on jobs (status, created_at)`.execute(db);
  await sql`create index jobs_seller_idx on jobs (seller_id) where seller_id is not null`.execute(db);
  await sql`create index jobs_installer_idx on jobs (installer_id) where installer_id is not null`.execute(db);

  await sql`create table job_offers (
    id uuid primary key default gen_random_uuid(),
    job_id uuid not null references jobs(id) on delete cascade,
    dealer_id uuid not null references dealers(id) on delete cascade,
    distance_miles numeric(6, 1) not null,
    status text not null check (status in ('open', 'accepted', 'declined', 'expired', 'withdrawn', 'assigned')),
    offered_at timestamptz not null,
    expires_at timestamptz not null,
    responded_at timestamptz,
    decline_reason text
  )`.execute(db);
  // Two installers can never hold one job: at most one open offer a job, at most one taken.
  await sql`create unique index job_offers_one_open_key on job_offers (job_id) where status = 'open'`.execute(db);
  await sql`create unique index job_offers_one_taken_key on job_offers (job_id) where status in ('accepted', 'assigned')`.execute(
    db,
  );
  await sql`create index job_offers_dealer_offered_idx on job_offers (dealer_id, offered_at)`.execute(db);
  await sql`create index job_offers_dealer_taken_idx on job_offers (dealer_id, responded_at) where status in ('accepted', 'assigned')`.execute(
    db,
  );
  await sql`create index job_offers_open_expiry_idx on job_offers (expires_at) where status = 'open'`.execute(db);

  await sql`create table job_events (
    id uuid primary key default gen_random_uuid(),
    seq bigint generated always as identity,
    job_id uuid not null references jobs(id) on delete cascade,
    kind text not null,
    dealer_id uuid references dealers(id) on delete set null,
    actor text not null,
    message text not null,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index job_events_job_idx on job_events (job_id, seq)`.execute(db);

  await sql`create table routing_settings (
    id boolean primary key default true check (id),
    offer_hours integer not null default 24 check (offer_hours between 1 and 168),
    updated_by text,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`insert into routing_settings (id) values (true)`.execute(db);

  // The installer gate of the onboarding issue (38): its migration replaces this body with the real
  // gate (the current agreement signed, insurance and licence on file and not expired on on_date).
  await sql`create or replace function installer_gate_ok(p_dealer uuid, p_on date) returns boolean
    language sql stable as $$ select true $$`.execute(db);
  await sql`comment on function installer_gate_ok(uuid, date) is
    'Issue 37 placeholder: true for everyone. The onboarding issue (38) replaces it with the real gate: signed agreement, insurance and licence not expired.'`.execute(
    db,
  );

  for (const table of ['orders', 'order_events']) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_source_check`)}`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_source_check`)}
      check (source in ('admin', 'webhook', 'import', 'job'))`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists installer_gate_ok(uuid, date)`.execute(db);
  await sql`drop table if exists routing_settings, job_events, job_offers, jobs, service_areas`.execute(db);
}
