import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// The admin dealer search matches a substring of name, company or email; a trigram index on
// one expression answers `like '%q%'` without a scan. The expression is repeated verbatim in
// packages/db/src/queries/admin-dealers.ts (DEALER_SEARCH_EXPR) so the planner can use it.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index dealers_search_trgm_idx on dealers using gin (
    (lower(full_name || ' ' || coalesce(company_name, '') || ' ' || email)) gin_trgm_ops)`.execute(db);
  // Sorting the admin table by name or company pages through an index instead of sorting every row.
  await sql`create index dealers_full_name_lower_idx on dealers (lower(full_name), id)`.execute(db);
  await sql`create index dealers_company_lower_idx on dealers (lower(coalesce(company_name, '')), id)`.execute(db);
  await sql`create index dealers_email_sort_idx on dealers (lower(email), id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'dealers_search_trgm_idx',
    'dealers_full_name_lower_idx',
    'dealers_company_lower_idx',
    'dealers_email_sort_idx',
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}
