import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations/index';
import type { DB } from './types';

/**
 * The migration lock's key: Kysely's own (its PostgresAdapter), so a build from before issue 46,
 * which takes it for the session, and this one, which takes it for a transaction, still exclude
 * each other during a rolling upgrade.
 */
export const MIGRATION_LOCK_ID = 3853314791062309107n;

/** Another instance held the migration lock for longer than the wait allowed. */
export class MigrationLockTimeoutError extends Error {
  override name = 'MigrationLockTimeoutError';
  constructor(waitedMs: number) {
    super(
      `Gave up after waiting ${Math.round(waitedMs / 1000)} s for the migration lock: another instance has been ` +
        'migrating the database all that time (or a session holds the lock; see pg_locks where locktype = ' +
        "'advisory'). Start again when it has finished, or raise MIGRATION_LOCK_WAIT_SECONDS.",
    );
  }
}

export interface MigrateOptions {
  /** Called about every `logEveryMs` while another process migrates (with the time waited so far). */
  onWait?: (waitedMs: number) => void;
  /** Give up with a MigrationLockTimeoutError after this long; default 300 s. */
  maxWaitMs?: number;
  /** How often the lock is tried again; default 500 ms. */
  pollMs?: number;
  logEveryMs?: number;
}

/**
 * Migrates to the latest schema, one process at a time, safely through a transaction-mode pooler
 * (issue 46, docs/decisions/1041-transaction-scoped-migration-lock.md): every pending migration
 * runs in one transaction that first takes a transaction-scoped advisory lock. Nothing outlives the
 * transaction, so a pooled server connection is never left holding the lock (Kysely's session lock
 * was: the next instance then waited forever). A process that finds the lock taken ends its empty
 * transaction (holding no connection), says so through `onWait`, and tries again until `maxWaitMs`;
 * when it gets the lock the others' migrations are committed and it has nothing or little to do.
 */
export async function migrateToLatest(db: Kysely<DB>, opts: MigrateOptions = {}): Promise<string[]> {
  const maxWaitMs = opts.maxWaitMs ?? 300_000;
  const pollMs = opts.pollMs ?? 500;
  const logEveryMs = opts.logEveryMs ?? 5_000;
  const started = Date.now();
  let logged = -Infinity;
  for (;;) {
    const applied = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${sql.lit(
        MIGRATION_LOCK_ID,
      )}) as locked`.execute(trx);
      if (!rows[0]?.locked) return null;
      const migrator = new Migrator({ db: trx, provider: { getMigrations: async () => migrations } });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    });
    if (applied) return applied;
    const waited = Date.now() - started;
    if (waited >= maxWaitMs) throw new MigrationLockTimeoutError(waited);
    if (waited - logged >= logEveryMs) {
      logged = waited;
      opts.onWait?.(waited);
    }
    await new Promise((r) => setTimeout(r, Math.min(pollMs, maxWaitMs - waited)));
  }
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
