import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations/index';
import type { DB } from './types';

export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The schema version this build migrates to: the name of its latest migration. */
export function latestSchemaVersion(): string {
  return Object.keys(migrations).sort().at(-1)!;
}

/** Whether this build knows schema version `name` (a backup from a newer build is not). */
export function knowsSchemaVersion(name: string): boolean {
  return Object.hasOwn(migrations, name);
}

/** Migrates up to schema version `name` and no further (a backup's, before its rows go in). */
export async function migrateTo(db: Kysely<DB>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
