import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// `dealers (lower(email), id)` (migration 0300) served the admin table's sort by email. That sort is
// `lower(email), created_at desc, id` (the created_at between them), so this index gave its order only
// by its first key, as the unique `dealers_email_lower_key (lower(email))` does: either is read
// in order and the ties, which a unique key never has, are sorted incrementally. It was written on
// every signup and every change of an email. docs/decisions/0770-write-amplification.md.

// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists dealers_email_sort_idx`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists dealers_email_sort_idx on dealers (lower(email), id)`.execute(db);
}
