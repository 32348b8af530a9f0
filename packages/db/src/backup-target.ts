import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
      return { database };
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
  return { database: await openDatabase({ dataDir: dir, poolSize: 1 }), ...(replaced ? { replaced } : {}) };
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
