import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from './client';
import { migrateToLatest } from './migrate';
import { TEST_PG_ADMIN_URL } from './postgres-reachable';
import { seed } from './seed';

/**
 * Migrate once, clone per test (decision 0890). A test database starts as a copy of one migrated
 * and seeded database, made the first time a run needs it and kept for the next runs under a name
 * that changes with every migration, the seed and the PGlite version, so a copy never lags the code:
 * on PostgreSQL a template database (`create database … template`), on PGlite a dump of its data
 * folder in the temporary folder (`loadDataDir`).
 */

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** What a migrated and seeded database depends on: the migrations, the seed and the PGlite build. */
function schemaHash(): string {
  const h = createHash('sha256');
  const dir = join(SRC, 'migrations');
  for (const f of readdirSync(dir).sort()) h.update(f).update(readFileSync(join(dir, f)));
  h.update(readFileSync(join(SRC, 'seed.ts')));
  // createRequire, not import.meta.resolve: vitest's global setup runs in its module runner, which has none.
  h.update(readFileSync(packageJsonOf(createRequire(import.meta.url).resolve('@electric-sql/pglite'))));
  return h.digest('hex').slice(0, 16);
}

/** The package.json of the package a resolved entry file belongs to (its exports hide it). */
function packageJsonOf(entry: string): string {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'package.json');
  }
  throw new Error(`no package.json above ${entry}`);
}

let hash: string | undefined;
const currentHash = () => (hash ??= schemaHash());

/** Templates kept on a developer's server: older ones (other branches, earlier migrations) are dropped. */
const KEEP_TEMPLATES = 10;

async function withAdmin<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    return await f(admin);
  } finally {
    await admin.end();
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The name of the migrated and seeded template database on the test server, made under an advisory
 * lock by the first worker that needs it (the others wait for it), then only read.
 */
async function postgresTemplate(): Promise<string> {
  const name = `dn_tmpl_${currentHash()}`;
  return withAdmin(async (admin) => {
    const exists = async () =>
      (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query('select pg_advisory_lock(hashtext($1))', ['dn_test_template']);
    try {
      if (await exists()) return name;
      const building = `${name}_${randomBytes(3).toString('hex')}`;
      await admin.query(`create database ${building}`);
      try {
        const database = await openDatabase({ databaseUrl: withDatabase(TEST_PG_ADMIN_URL, building), poolSize: 1 });
        try {
          await migrateToLatest(database.db);
          await seed(database.db);
        } finally {
          await database.close();
        }
        // Renamed when complete, so no worker ever clones a half-built template.
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (err) {
        await admin.query(`drop database if exists ${building} with (force)`);
        throw err;
      }
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like 'dn\\_tmpl\\_%' and datname <> $1 order by oid desc`,
        [name],
      );
      for (const old of rows.slice(KEEP_TEMPLATES - 1)) {
        await admin.query(`drop database if exists ${old.datname} with (force)`);
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', ['dn_test_template']);
    }
  });
}

/** A new PostgreSQL database cloned from the template: migrated and seeded. */
export async function clonePostgresTemplate(): Promise<{ url: string; name: string }> {
  const template = await postgresTemplate();
  const name = `dn_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name} template ${template}`));
  return { url: withDatabase(TEST_PG_ADMIN_URL, name), name };
}

let snapshot: Blob | undefined;

/**
 * The data folder of a migrated and seeded PGlite database, as a tarball: read from the temporary
 * folder, or made and written there (to a unique name, then renamed) by the first process to need it.
 */
export async function pgliteSnapshot(): Promise<Blob> {
  if (snapshot) return snapshot;
  snapshot = new Blob([readFileSync(await pgliteSnapshotFile())]);
  return snapshot;
}

/** The PGlite snapshot's file, made if it is not there yet (pgliteSnapshot). */
async function pgliteSnapshotFile(): Promise<string> {
  const file = join(tmpdir(), `dn-test-pglite-${currentHash()}.tar`);
  if (!existsSync(file)) {
    const database = await openDatabase({ poolSize: 1 });
    try {
      await migrateToLatest(database.db);
      await seed(database.db);
      if (!database.dumpDataDir) throw new Error('an embedded database dumps its data folder');
      const dump = await database.dumpDataDir();
      const part = `${file}.${process.pid}.${randomBytes(3).toString('hex')}`;
      writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
      renameSync(part, file);
    } finally {
      await database.close();
    }
    // Other schemas' dumps (other branches, earlier migrations) go once nobody has written them for a day.
    for (const f of readdirSync(tmpdir())) {
      const path = join(tmpdir(), f);
      if (f.startsWith('dn-test-pglite-') && path !== file && statSync(path).mtimeMs < Date.now() - 86_400_000) {
        rmSync(path, { force: true });
      }
    }
  }
  return file;
}

/**
 * Makes the templates a run needs before any test file starts (vitest global setup,
 * test-global-setup.ts): on a fresh clone the first file otherwise made them inside its own hook,
 * and every worker that found no PGlite snapshot made one of its own at the same time, which took
 * longer than the hook's limit on a loaded machine (issue 46). Both at once: PostgreSQL's migration
 * runs in the server's processes, PGlite's in this one.
 */
export async function prepareTemplates(kinds: readonly ('postgres' | 'pglite')[]): Promise<void> {
  await Promise.all(kinds.map((k) => (k === 'postgres' ? postgresTemplate() : pgliteSnapshotFile())));
}
