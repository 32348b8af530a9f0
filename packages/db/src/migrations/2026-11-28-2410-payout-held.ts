import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 39 (decision 0962): the recruiters a batch left out (held) and why, kept with the batch so
// the console's batch view shows them after the batch is made: JSON text, [{ recruiterId, ... }].
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payouts add column held_json text not null default '[]'`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table payouts drop column if exists held_json`.execute(db);
}
