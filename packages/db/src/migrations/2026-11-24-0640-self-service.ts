import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 15. The referral picker's typeahead (queries/dealers.ts searchPublicDealers): prefix scans
// of the lowered name and company (text_pattern_ops, so `like 'ab%'` is a range scan under any
// collation) and word-prefix matches on a 'simple' tsvector (GIN; pg_trgm would also do, but a
// trigram needs 3 characters and the picker answers from 2). Partial on the statuses the picker
// shows. The application status links: one row per link, only the token's SHA-256 stored.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index dealers_public_name_prefix_idx on dealers (lower(full_name) text_pattern_ops)
    where status in ('approved', 'active')`.execute(db);
  await sql`create index dealers_public_company_prefix_idx on dealers (lower(coalesce(company_name, '')) text_pattern_ops)
    where status in ('approved', 'active')`.execute(db);
  await sql`create index dealers_public_words_idx on dealers
    using gin (to_tsvector('simple', full_name || ' ' || coalesce(company_name, '')))
    where status in ('approved', 'active')`.execute(db);

  await db.schema
    .createTable('application_status_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('dealer_id', 'uuid', (c) => c.notNull().references('dealers.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .execute();
  await sql`create index application_status_links_dealer_idx on application_status_links (dealer_id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('application_status_links').ifExists().execute();
  for (const name of [
    'dealers_public_name_prefix_idx',
    'dealers_public_company_prefix_idx',
    'dealers_public_words_idx',
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}
