import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { CamelCasePlugin, Kysely, type MigrationLockOptions, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { MIGRATION_LOCK_ID } from './migrate';
import { PREPARED_STATEMENTS } from './prepared';
import type { DB } from './types';

export type DbKind = 'postgres' | 'pglite';

export interface Database {
  db: Kysely<DB>;
  pool: pg.Pool;
  kind: DbKind;
  /** Closes the pool and, for the embedded database, the PGlite instance and the data folder lock. */
  close(): Promise<void>;
  /** The embedded database's socket, host:port (PGlite only): another connection to the same database. */
  address?: string;
  /** The embedded database's data folder as an uncompressed tarball (PGlite only). */
  dumpDataDir?: () => Promise<Blob>;
  /** DATABASE_URL names a transaction-mode pooler (`?pgbouncer=true`): no named statements, no session state. */
  transactionPooler?: boolean;
}

export interface DatabaseOptions {
  /** A PostgreSQL connection string; without it the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `undefined` keeps it in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  onPoolError?: (err: Error) => void;
  /** An embedded data folder to start from (a `dumpDataDir` tarball); in-memory databases only. */
  loadDataDir?: Blob | undefined;
  /** A transaction-mode pooler even without `?pgbouncer=true` in the URL (the config removed it). */
  transactionPooler?: boolean | undefined;
}

/**
 * A DATABASE_URL as pg takes it, and whether it names a transaction-mode pooler: `?pgbouncer=true`
 * (the convention Prisma's users know; issue 46, docs/decisions/1040-transaction-mode-poolers.md).
 * Through such a pooler consecutive statements of one client may run on different server
 * connections, so nothing may be left on a connection between transactions: no named prepared
 * statements, no session settings or session-level locks. The parameter is removed before pg sees it.
 */
export function parseDatabaseUrl(url: string): { connectionString: string; transactionPooler: boolean } {
  const parsed = new URL(url);
  const flag = parsed.searchParams.get('pgbouncer');
  if (flag === null) return { connectionString: url, transactionPooler: false };
  parsed.searchParams.delete('pgbouncer');
  return { connectionString: parsed.toString(), transactionPooler: flag === 'true' || flag === '1' };
}

/**
 * Every connection the pool opens runs the compiled-once queries (prepared.ts) as named prepared
 * statements: parsed and planned once per connection, then only bound and executed. Any other
 * statement goes through unchanged. PostgreSQL only: the embedded PGlite is one session behind its
 * socket, which outlives a pool connection, so a reconnected client would find the names taken.
 */
function prepareHotStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof text === 'string' && callback === undefined ? PREPARED_STATEMENTS.get(text) : undefined;
      return name ? query({ name, text, values }) : query(text, values, callback);
    }) as typeof client.query;
  });
}

/**
 * Kysely's migration lock, held for a transaction instead of the session (issue 46): a session
 * lock taken through a transaction-mode pooler stays on whichever server connection ran it, and a
 * failed migration could not release it (the transaction was aborted). migrate.ts runs the migrator
 * inside a transaction that already holds this lock; taking it again there returns at once.
 */
class TransactionLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>, _opt: MigrationLockOptions): Promise<void> {
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_ID)})`.execute(db);
  }
  override async releaseMigrationLock(): Promise<void> {
    // Released with the transaction.
  }
}

class AppPostgresDialect extends PostgresDialect {
  override createAdapter() {
    return new TransactionLockAdapter();
  }
}

export function createKysely(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({
    dialect: new AppPostgresDialect({ pool }),
    plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true })],
  });
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  const poolSize = opts.poolSize ?? 10;
  if (opts.databaseUrl) {
    const parsed = parseDatabaseUrl(opts.databaseUrl);
    const { connectionString } = parsed;
    const transactionPooler = parsed.transactionPooler || opts.transactionPooler === true;
    // keepAlive: a connection the pooler or PostgreSQL dropped without a goodbye is noticed and
    // discarded rather than handed out. An idle client's error is the pool's 'error' event: it is
    // reported, never thrown (an unhandled one would end the process), and the pool opens a new one.
    const pool = new pg.Pool({ connectionString, max: poolSize, connectionTimeoutMillis: 5_000, keepAlive: true });
    pool.on('error', (err) => opts.onPoolError?.(err));
    // Through a transaction-mode pooler a named statement prepared on one server connection is
    // unknown (or another statement) on the next: every statement goes unnamed there.
    if (!transactionPooler) prepareHotStatements(pool);
    const db = createKysely(pool);
    return { db, pool, kind: 'postgres', transactionPooler, close: () => db.destroy() };
  }
  return openEmbedded(opts.dataDir, poolSize, opts.onPoolError, opts.loadDataDir);
}

async function openEmbedded(
  dataDir: string | undefined,
  poolSize: number,
  onPoolError?: (err: Error) => void,
  loadDataDir?: Blob,
): Promise<Database> {
  const lock = dataDir ? acquireDataDirLock(resolve(dataDir)) : undefined;
  try {
    const pglite = await PGlite.create({
      ...(dataDir ? { dataDir: join(resolve(dataDir), 'pgdata') } : {}),
      ...(loadDataDir && !dataDir ? { loadDataDir } : {}),
      extensions: { pg_trgm, cube, earthdistance },
    });
    const server = new PGLiteSocketServer({
      db: pglite,
      host: '127.0.0.1',
      port: 0,
      // The socket server multiplexes connections onto the single PGlite session; it must
      // accept at least as many as the pool opens or the extra clients wait forever.
      maxConnections: poolSize + 2,
    });
    await server.start();
    const [host, port] = server.getServerConn().split(':');
    // Where another process of this app (pnpm db:backup) reaches this database while it runs.
    const address = dataDir ? publishAddress(resolve(dataDir), server.getServerConn()) : undefined;
    // One connection: PGlite is a single session, and the socket server's multiplexer can
    // interleave the extended-protocol messages (Parse/Bind/Execute) of two connections,
    // which fails queries under concurrency. With one connection the pool queues instead.
    // (So never query `db` inside a `db.transaction()` callback: it would wait forever.)
    const pool = new pg.Pool({ host, port: Number(port), user: 'postgres', database: 'postgres', max: 1 });
    pool.on('error', (err) => onPoolError?.(err));
    const db = createKysely(pool);
    return {
      db,
      pool,
      kind: 'pglite',
      address: server.getServerConn(),
      dumpDataDir: () => pglite.dumpDataDir('none'),
      async close() {
        address?.remove();
        await db.destroy();
        await server.stop();
        await pglite.close();
        lock?.release();
      },
    };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

const ADDRESS_FILE = 'pglite.address';

/** Writes the socket's host:port into the data folder, readable by its owner only. */
function publishAddress(dir: string, address: string): { remove(): void } {
  const file = join(dir, ADDRESS_FILE);
  writeFileSync(file, address, { mode: 0o600 });
  return {
    remove() {
      rmSync(file, { force: true });
    },
  };
}

/**
 * The address of the embedded database a running app holds in `dataDir`, or null when no live
 * process holds it (then the folder itself may be opened).
 */
export function runningEmbeddedAddress(dataDir: string): string | null {
  const dir = resolve(dataDir);
  try {
    const pid = Number(readFileSync(join(dir, 'app.lock'), 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
    return readFileSync(join(dir, ADDRESS_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data folder ${dir} is already in use by another process (pid ${pid}). ` +
        'Stop that process first, or set DATA_DIR to another folder.',
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * PGlite has no multi-process locking of its own: two processes writing one folder corrupt it.
 * A pid file taken with O_EXCL makes the second process fail; a lock left by a killed process
 * (its pid no longer alive) is taken over.
 */
function acquireDataDirLock(dir: string): { release(): void } {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'app.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return {
        release() {
          try {
            if (readFileSync(file, 'utf8') === String(process.pid)) rmSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(dir, pid);
      }
      if (existsSync(file)) rmSync(file);
    }
  }
  throw new Error(`Could not lock the data folder ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
