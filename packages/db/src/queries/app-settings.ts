import type { Executor } from './executor';

/** Settings owners change (issue 38, migration 2210): one row per key, its value as JSON. */

export async function readSetting(db: Executor, key: string): Promise<unknown | undefined> {
  const row = await db.selectFrom('appSettings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Writes a setting (a new row or the new value of the key). */
export async function writeSetting(db: Executor, key: string, value: unknown, by: string): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('appSettings')
    .values({ key, value: json, updatedBy: by, updatedAt: new Date() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updatedBy: by, updatedAt: new Date() }))
    .execute();
}

/** A setting's row locked for the transaction that changes it (absent: never set). */
export const lockSetting = (db: Executor, key: string) =>
  db.selectFrom('appSettings').select('value').where('key', '=', key).forUpdate().executeTakeFirst();
