import { type Kysely, sql } from 'kysely';
import { CREATE_CSV_CELL } from './2026-11-21-0301-admin-export-and-counts';

// Frozen: never import app code here.
// The dealers export writes its CSV in JavaScript now (apps/api/src/lib/csv.ts): csv_cell,
// created by 0301 for the export alone, has no caller left.
// biome-ignore lint/suspicious/noExplicitAny: frozen migrations must not depend on the app's current types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists csv_cell(text)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  // As 0301 created it.
  await CREATE_CSV_CELL.execute(db);
}
