import { type Kysely, sql } from 'kysely';

// Frozen: never import app code here.
// Issue 46 (decision 1030): every backup is read back after it is written (decrypted, every
// chunk authenticated, every table's rows counted against its trailer); the System page shows when
// and how that check went. `encrypted`: false only for runs recorded before backups were encrypted.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table backup_runs
    add column encrypted boolean not null default false,
    add column verified_at timestamptz,
    add column verify_error text`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table backup_runs drop column if exists encrypted, drop column if exists verified_at,
    drop column if exists verify_error`.execute(db);
}
