import {
  chmodSync,
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BackupError, type BackupSummary, recordBackupRun, schemaVersionOf, writeBackup } from '@dn/db/backup';
import { backupKeyFrom, encryptStream } from '@dn/db/backup-crypto';
import { verifyBackupFile } from '@dn/db/backup-file';
import { openBackupSource, pgDumpAvailable, pgDumpTo } from '@dn/db/backup-target';
import type { Config } from '../../env';

/** The running app's backup key: BACKUP_ENCRYPTION_KEY, or the data encryption key it loaded. */
export function appBackupKey(config: Pick<Config, 'backupEncryptionKey' | 'dataEncryptionKey' | 'dataDir'>): Buffer {
  const key = config.backupEncryptionKey ?? config.dataEncryptionKey;
  return key ? backupKeyFrom(key) : backupKey(config);
}

/**
 * A command's backup key, from a configuration loaded with `check` (issue 46, decision 1030): BACKUP_ENCRYPTION_KEY; unset, the
 * data encryption key: DATA_ENCRYPTION_KEY, or the embedded default's file in DATA_DIR (read, never
 * made here: a restore into a new folder needs the old folder's file put there first, or the key set).
 */
export function backupKey(
  config: Pick<Config, 'backupEncryptionKey' | 'dataDir'>,
  env: NodeJS.ProcessEnv = process.env,
): Buffer {
  if (config.backupEncryptionKey) return backupKeyFrom(config.backupEncryptionKey);
  const data = env.DATA_ENCRYPTION_KEY?.trim();
  if (data) return backupKeyFrom(data);
  const file = join(config.dataDir, 'data-encryption-key');
  if (existsSync(file)) return backupKeyFrom(readFileSync(file, 'utf8').trim());
  throw new BackupError(
    `No backup key: set BACKUP_ENCRYPTION_KEY (or DATA_ENCRYPTION_KEY), or put the data folder's data-encryption-key file in ${config.dataDir}`,
  );
}

/**
 * The key to read a backup with (`--verify`, `db:restore`). With `allowUnencrypted`, an install
 * without a key may still read an old unencrypted file: the zero key then opens nothing encrypted.
 */
export function backupKeyToRead(
  config: Pick<Config, 'backupEncryptionKey' | 'dataDir'>,
  { allowUnencrypted }: { allowUnencrypted: boolean },
): Buffer {
  try {
    return backupKey(config);
  } catch (err) {
    if (!allowUnencrypted) throw err;
    return Buffer.alloc(32);
  }
}

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
  /** When the written file was read back whole (decrypted, authenticated, counted), or why that failed. */
  verifiedAt: Date | null;
  verifyError: string | null;
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
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'backupEncryptionKey'>;
  /** The file to write; or a name of backupFileName's form in `dir` (default: the working folder). */
  file?: string | undefined;
  dir?: string | undefined;
  trigger: 'manual' | 'scheduled';
  /** `logical` forces the logical dump on PostgreSQL too. */
  format?: BackupFormat | undefined;
  now: Date;
  /** The key (default: backupKey(config)). */
  key?: Buffer | undefined;
}): Promise<BackupResult> {
  const { config } = opts;
  const key = opts.key ?? backupKey(config);
  const format: BackupFormat =
    config.databaseUrl && opts.format !== 'logical' && pgDumpAvailable() ? 'pg_dump' : 'logical';
  const file = resolve(opts.file ?? join(opts.dir ?? '.', backupFileName(opts.now, format)));
  const partial = `${file}.partial`;
  const source = await openBackupSource({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const startedAt = new Date();
  let schemaVersion = 'unknown';
  const run = { trigger: opts.trigger, file, encrypted: true };
  try {
    let summary: BackupSummary | null = null;
    // Only its owner reads it (0600, whatever the umask), encrypted as it is written: never whole in memory.
    rmSync(partial, { force: true });
    const encrypt = encryptStream(key);
    const written = pipeline(encrypt, createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
    try {
      if (format === 'pg_dump') {
        await pgDumpTo(config.databaseUrl!, encrypt);
        schemaVersion = (await schemaVersionOf(source.client)) ?? 'unknown';
      } else {
        summary = await writeBackup(source.client, encrypt);
        schemaVersion = summary.schemaVersion;
      }
    } catch (err) {
      encrypt.destroy();
      await written.catch(() => undefined);
      throw err;
    }
    await written;
    chmodSync(partial, 0o600);
    renameSync(partial, file);
    const bytes = statSync(file).size;
    // Read back what was written: every chunk authenticated, every table counted (issue 46).
    let verifyError: string | null = null;
    try {
      await verifyBackupFile(file, key);
    } catch (err) {
      verifyError = (err as Error).message.slice(0, 1000);
    }
    const verifiedAt = new Date();
    await record(source.client, { ...run, schemaVersion, startedAt, bytes, error: null, verifiedAt, verifyError });
    return {
      file,
      format,
      bytes,
      schemaVersion,
      takenAt: summary?.takenAt ?? startedAt,
      tables: summary?.tables ?? null,
      via: source.via,
      verifiedAt,
      verifyError,
    };
  } catch (err) {
    rmSync(partial, { force: true });
    const error = (err as Error).message.slice(0, 1000);
    await record(source.client, {
      ...run,
      schemaVersion,
      startedAt,
      bytes: null,
      error,
      verifiedAt: null,
      verifyError: null,
    });
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
