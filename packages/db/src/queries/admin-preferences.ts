import { sql } from 'kysely';
import type { Executor } from './executor';

/** admin_preferences: one row per admin who saved a preference (the dealers export's column picker). */

/** The column keys an admin last chose for the dealers CSV, or null when they never chose. */
export async function getExportColumns(db: Executor, adminId: string): Promise<string[] | null> {
  const row = await db
    .selectFrom('adminPreferences')
    .select('exportColumns')
    .where('adminId', '=', adminId)
    .executeTakeFirst();
  return row?.exportColumns ?? null;
}

/** Saves an admin's choice (one statement: two saves at once leave one of them, never an error). */
export async function setExportColumns(db: Executor, adminId: string, columns: readonly string[]): Promise<void> {
  const value = JSON.stringify(columns);
  await db
    .insertInto('adminPreferences')
    .values({ adminId, exportColumns: value })
    .onConflict((oc) => oc.column('adminId').doUpdateSet({ exportColumns: value, updatedAt: sql`now()` }))
    .execute();
}
