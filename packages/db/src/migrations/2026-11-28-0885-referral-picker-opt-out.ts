import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 35, finding 8 (decision 0885): a dealer may leave the public referral picker from their
// profile. The picker's three partial indexes (migration 2026-11-24-0640) are rebuilt on the
// picker's new predicate, so a search still reads only the rows it may answer.
const VISIBLE = sql`status in ('approved', 'active') and in_referral_picker`;

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table dealers add column in_referral_picker boolean not null default true`.execute(db);
  await sql`drop index if exists dealers_public_name_prefix_idx`.execute(db);
  await sql`drop index if exists dealers_public_company_prefix_idx`.execute(db);
  await sql`drop index if exists dealers_public_words_idx`.execute(db);
  await sql`create index dealers_public_name_prefix_idx on dealers (lower(full_name) text_pattern_ops)
    where ${VISIBLE}`.execute(db);
  await sql`create index dealers_public_company_prefix_idx on dealers (lower(coalesce(company_name, '')) text_pattern_ops)
    where ${VISIBLE}`.execute(db);
  await sql`create index dealers_public_words_idx on dealers
    using gin (to_tsvector('simple', full_name || ' ' || coalesce(company_name, '')))
    where ${VISIBLE}`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  // Dropping the column drops the indexes whose predicate names it; the older ones come back.
  await sql`alter table dealers drop column if exists in_referral_picker`.execute(db);
  const old = sql`status in ('approved', 'active')`;
  await sql`create index dealers_public_name_prefix_idx on dealers (lower(full_name) text_pattern_ops) where ${old}`.execute(
    db,
  );
  await sql`create index dealers_public_company_prefix_idx on dealers (lower(coalesce(company_name, '')) text_pattern_ops)
    where ${old}`.execute(db);
  await sql`create index dealers_public_words_idx on dealers
    using gin (to_tsvector('simple', full_name || ' ' || coalesce(company_name, ''))) where ${old}`.execute(db);
}
