import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { BackupError, databaseIsEmpty, emptyDatabase } from './backup';
import { type Database, type DbKind, openDatabase, runningEmbeddedAddress } from './client';

/**
 * Where a backup is read from and a restore goes (issue 40, decision 0970): PostgreSQL by its URL;
 * the embedded database through the socket of the app that holds it, or, when no app runs, by
 * opening its data folder here (which locks it, so the app cannot start meanwhile).
 */
export interface BackupSource {
  client: pg.ClientBase;
  kind: DbKind;
  /** How it was reached, for the person running the command. */
  via: string;
  release(): Promise<void>;
}

export async function openBackupSource(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<BackupSource> {
  const address = opts.databaseUrl ? null : runningEmbeddedAddress(opts.dataDir);
  if (opts.databaseUrl || address) {
    const [host, port] = (address ?? '').split(':');
    const client = new pg.Client(
      opts.databaseUrl
        ? { connectionString: opts.databaseUrl }
        : { host, port: Number(port), user: 'postgres', database: 'postgres' },
    );
    await client.connect();
    return {
      client,
      kind: opts.databaseUrl ? 'postgres' : 'pglite',
      via: opts.databaseUrl
        ? 'PostgreSQL (DATABASE_URL)'
        : `the running app's embedded database in ${resolve(opts.dataDir)}`,
      release: () => client.end(),
    };
  }
  if (!existsSync(join(resolve(opts.dataDir), 'pgdata'))) {
    throw new BackupError(`There is no embedded database in ${resolve(opts.dataDir)} (DATA_DIR) to back up`);
  }
  const database = await openDatabase({ dataDir: opts.dataDir, poolSize: 1 });
  const client = await database.pool.connect();
  return {
    client,
    kind: 'pglite',
    via: `the embedded database in ${resolve(opts.dataDir)} (the app is not running)`,
    async release() {
      client.release();
      await database.close();
    },
  };
}

export interface RestoreTarget {
  database: Database;
  /** Where the data folder that --force replaced was moved (embedded), kept for the operator. */
  replaced?: string;
  /**
   * After a failed restore (issue 46): closes the database and removes what the restore made (the
   * new data folder's database and the files it added, moving a --force-replaced one back; on
   * PostgreSQL every table, type and function it created). Resolves with what it did, for the message.
   */
  discard(): Promise<string>;
}

/** An empty database to restore into; a database with tables is refused unless `force`. */
export async function openRestoreTarget(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  force: boolean;
  now?: Date;
}): Promise<RestoreTarget> {
  if (opts.databaseUrl) {
    const database = await openDatabase({ databaseUrl: opts.databaseUrl, poolSize: 1 });
    try {
      if (!(await databaseIsEmpty(database.db))) {
        if (!opts.force) {
          throw new BackupError(
            'The database (DATABASE_URL) is not empty: restore into a new database, or add --force to replace everything in it',
          );
        }
        await emptyDatabase(database.db);
      }
      return {
        database,
        async discard() {
          try {
            await emptyDatabase(database.db);
          } finally {
            await database.close().catch(() => undefined);
          }
          return opts.force
            ? 'the database is left empty (--force had already removed what it held)'
            : 'the database is left empty, as it was';
        },
      };
    } catch (err) {
      await database.close();
      throw err;
    }
  }
  const dir = resolve(opts.dataDir);
  if (runningEmbeddedAddress(dir)) {
    throw new BackupError(`The app is running on ${dir} (DATA_DIR): stop it before restoring into its data folder`);
  }
  const pgdata = join(dir, 'pgdata');
  let replaced: string | undefined;
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) {
    if (!opts.force) {
      throw new BackupError(
        `The data folder ${dir} (DATA_DIR) already holds a database: restore into an empty folder, or add --force to replace it (the old one is kept beside it)`,
      );
    }
    replaced = `${pgdata}.replaced-${(opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`;
    renameSync(pgdata, replaced);
  }
  const dirExisted = existsSync(dir);
  const before = new Set(dirExisted ? readdirSync(dir) : []);
  before.delete('pgdata');
  const discard = async () => {
    // Only what this restore added: the folder itself when it made it, else its new files.
    if (!dirExisted) {
      rmSync(dir, { recursive: true, force: true });
    } else {
      for (const name of readdirSync(dir))
        if (!before.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
    }
    if (replaced) {
      renameSync(replaced, pgdata);
      return `the half-made database was removed and the one --force replaced was put back in ${pgdata}`;
    }
    return dirExisted ? `the half-made database in ${dir} was removed` : `the half-made data folder ${dir} was removed`;
  };
  let database: Database;
  try {
    database = await openDatabase({ dataDir: dir, poolSize: 1 });
  } catch (err) {
    await discard();
    throw err;
  }
  return {
    database,
    ...(replaced ? { replaced } : {}),
    async discard() {
      await database.close().catch(() => undefined);
      return discard();
    },
  };
}

/** PostgreSQL's own dump (custom format, compressed) when its client is installed. */
export function pgDumpAvailable(): boolean {
  return spawnSync('pg_dump', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** The first bytes of a pg_dump custom-format file. */
export const PG_DUMP_MAGIC = 'PGDMP';

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise() : reject(new BackupError(`${command} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

/** pg_dump -Fc of the database at `url` into `file`: one snapshot, compressed. */
export const pgDump = (url: string, file: string) => run('pg_dump', ['-Fc', '--no-owner', '-f', file, url]);

/** pg_restore of a custom-format file into the (empty) database at `url`. */
export const pgRestore = (url: string, file: string) =>
  run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', '-d', url, file]);

/**
 * A child process whose stdin or stdout is a stream of ours (issue 46: pg_dump's output goes
 * through the encryption, pg_restore reads the decrypted stream), resolving when both the process
 * and the stream are done.
 */
function runPiped(command: string, args: string[], io: { out: Writable } | { in: Readable }): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      stdio: ['in' in io ? 'pipe' : 'ignore', 'out' in io ? 'pipe' : 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    let failed: Error | null = null;
    const piped =
      'out' in io
        ? pipeline(child.stdout!, io.out)
        : pipeline(io.in, child.stdin!).catch((err: NodeJS.ErrnoException) => {
            // The process ending early closes its stdin: its own error says more than EPIPE.
            if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') failed = err;
          });
    child.on('error', reject);
    child.on('close', (code) => {
      piped.then(
        () =>
          failed
            ? reject(failed)
            : code === 0
              ? resolvePromise()
              : reject(new BackupError(`${command} failed (${code}): ${stderr.trim().split('\n')[0]}`)),
        (err: Error) => reject(code === 0 ? err : new BackupError(`${command} failed (${code}): ${stderr.trim()}`)),
      );
    });
  });
}

/** pg_dump -Fc of the database at `url` written to `out` (the encryption): one snapshot, compressed. */
export const pgDumpTo = (url: string, out: Writable) => runPiped('pg_dump', ['-Fc', '--no-owner', url], { out });

/** pg_restore of a custom-format stream (the decrypted file) into the (empty) database at `url`. */
export const pgRestoreFrom = (url: string, input: Readable) =>
  runPiped('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', '-d', url], { in: input });
