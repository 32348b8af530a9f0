import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 50: a homeowner reviews an installed job once (1 to 5 stars, an optional text comment, and
// consent to show it publicly). The review belongs to the job (its primary key, so a second review
// is a conflict) and names the installer who installed it, so an installer's scorecard reads its
// own reviews through one index.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table job_reviews (
    job_id uuid primary key references jobs(id) on delete cascade,
    installer_id uuid references dealers(id) on delete set null,
    rating smallint not null check (rating between 1 and 5),
    comment text check (char_length(comment) <= 2000),
    public_consent boolean not null default false,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index job_reviews_installer_idx on job_reviews (installer_id, created_at) where installer_id is not null`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists job_reviews`.execute(db);
}
