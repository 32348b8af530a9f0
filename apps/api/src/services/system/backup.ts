import { createWriteStream, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BackupSummary, recordBackupRun, schemaVersionOf, writeBackup } from '@dn/db/backup';
import { openBackupSource, pgDump, pgDumpAvailable } from '@dn/db/backup-target';
import type { Config } from '../../env';

/**
 * A backup of the app's database into one file (issue 40, decision 0970): `pnpm db:backup` and
 * the scheduled daily one. PostgreSQL with pg_dump installed: its custom format; otherwise (and
 * always for the embedded database) the logical dump of @dn/db/backup, taken through the running
 * app's socket. Written beside its final name and renamed when complete, so a file with the final
 * name is always whole.
 */

export type BackupFormat = 'pg_dump' | 'logical';

export interface BackupResult {
  file: string;
  format: BackupFormat;
  bytes: number;
  schemaVersion: string;
  takenAt: Date;
  /** Rows per table (the logical format; pg_dump does not say). */
  tables: Record<string, number> | null;
  via: string;
}

/** The name of a backup taken at `at`: sortable, so the newest is the last by name. */
export function backupFileName(at: Date, format: BackupFormat): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  return `dealer-network-${stamp}.${format === 'pg_dump' ? 'dump' : 'dnbackup'}`;
}

const BACKUP_NAME = /^dealer-network-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.(dnbackup|dump)$/;

export async function takeBackup(opts: {
  config: Pick<Config, 'databaseUrl' | 'dataDir'>;
  /** The file to write; or a name of backupFileName's form in `dir` (default: the working folder). */
  file?: string | undefined;
  dir?: string | undefined;
  trigger: 'manual' | 'scheduled';
  /** `logical` forces the logical dump on PostgreSQL too. */
  format?: BackupFormat | undefined;
  now: Date;
}): Promise<BackupResult> {
  const { config } = opts;
  const format: BackupFormat =
    config.databaseUrl && opts.format !== 'logical' && pgDumpAvailable() ? 'pg_dump' : 'logical';
  const file = resolve(opts.file ?? join(opts.dir ?? '.', backupFileName(opts.now, format)));
  const partial = `${file}.partial`;
  const source = await openBackupSource({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const startedAt = new Date();
  let schemaVersion = 'unknown';
  try {
    let summary: BackupSummary | null = null;
    if (format === 'pg_dump') {
      await pgDump(config.databaseUrl!, partial);
      schemaVersion = (await schemaVersionOf(source.client)) ?? 'unknown';
    } else {
      summary = await writeBackup(source.client, createWriteStream(partial));
      schemaVersion = summary.schemaVersion;
    }
    renameSync(partial, file);
    const bytes = statSync(file).size;
    await record(source.client, { trigger: opts.trigger, file, schemaVersion, startedAt, bytes, error: null });
    return {
      file,
      format,
      bytes,
      schemaVersion,
      takenAt: summary?.takenAt ?? startedAt,
      tables: summary?.tables ?? null,
      via: source.via,
    };
  } catch (err) {
    rmSync(partial, { force: true });
    const error = (err as Error).message.slice(0, 1000);
    await record(source.client, { trigger: opts.trigger, file, schemaVersion, startedAt, bytes: null, error });
    throw err;
  } finally {
    await source.release();
  }
}

async function record(
  client: Parameters<typeof recordBackupRun>[0],
  run: Omit<Parameters<typeof recordBackupRun>[1], 'finishedAt'>,
) {
  // A database not yet migrated to this build has no backup_runs: the backup itself still counts.
  await recordBackupRun(client, { ...run, finishedAt: new Date() }).catch(() => undefined);
}

/** Deletes the oldest backups of `dir` (by their names' time) beyond the newest `keep`; resolves with their names. */
export function pruneBackups(dir: string, keep: number): string[] {
  const names = readdirSync(dir)
    .filter((n) => BACKUP_NAME.test(n))
    .sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) rmSync(join(dir, name), { force: true });
  return old;
}
