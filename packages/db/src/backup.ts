import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { knowsSchemaVersion, migrateTo, migrateToLatest } from './migrate';
import type { DB } from './types';

/**
 * The logical backup of either database (issue 40, decision 0970): every table's rows as COPY
 * text, read in ONE repeatable-read transaction, so the file is the database at one moment while
 * the app goes on writing. Through the wire protocol only, so it is the same code for PostgreSQL
 * and for the embedded PGlite (reached through the running app's socket; PGlite runs one
 * transaction at a time, so its writers wait for the dump). gzip-compressed, in lines:
 *
 *   DN-BACKUP 1
 *   {"schemaVersion":"<latest migration>","takenAt":"…","tables":[…]}
 *   TABLE {"name":"dealers","columns":[…]}   then its rows as COPY text, then a line `\.`
 *   …
 *   END {"tables":{"dealers":123,…},"sequences":{…}}
 *
 * A restore migrates an empty database to the backup's schema version, loads the rows with
 * triggers and foreign keys off (the kept counters are copied, not recounted), sets the sequences,
 * checks every table's count against END, commits, then runs this build's newer migrations.
 */

const MAGIC = 'DN-BACKUP 1';

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupSummary {
  schemaVersion: string;
  /** The moment the backup shows: its transaction's start. */
  takenAt: Date;
  /** Rows per table. */
  tables: Record<string, number>;
}

interface Header {
  schemaVersion: string;
  takenAt: string;
  tables: string[];
}

interface TableShape {
  name: string;
  columns: string[];
  types: string[];
}

/** Every table of the app's schema with its stored columns (not generated ones) and their types. */
const TABLES_SQL = `
  select c.relname::text as name,
    array_agg(a.attname::text order by a.attnum) as columns,
    array_agg(format_type(a.atttypid, a.atttypmod) order by a.attnum) as types
  from pg_class c
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
  where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
    and c.relname not in ('kysely_migration', 'kysely_migration_lock')
  group by c.relname
  order by c.relname`;

const SEQUENCES_SQL = `select sequencename::text as name, last_value::text as value
  from pg_sequences where schemaname = 'public' and last_value is not null`;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Writes the backup of the database `client` is connected to into `out`; resolves once `out` has it all. */
export async function writeBackup(
  client: pg.ClientBase,
  out: Writable,
  opts: { inSnapshot?: (client: pg.ClientBase) => Promise<void> } = {},
): Promise<BackupSummary> {
  const gzip = createGzip();
  const written = pipeline(gzip, out);
  const write = async (text: string | Buffer) => {
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  await client.query('begin isolation level repeatable read, read only');
  try {
    const version = await client
      .query<{ v: string | null; at: Date }>('select (select max(name) from kysely_migration) as v, now() as at')
      .catch(() => {
        throw new BackupError('This database has no migrations table: it is not a dealer network database');
      });
    const schemaVersion = version.rows[0]?.v;
    if (!schemaVersion) throw new BackupError('This database has never been migrated: there is nothing to back up');
    const takenAt = version.rows[0]!.at;
    // What the tests compare a restore with: the database as the backup sees it.
    await opts.inSnapshot?.(client);
    const shapes = (await client.query<TableShape>(TABLES_SQL)).rows;
    const sequences = Object.fromEntries(
      (await client.query<{ name: string; value: string }>(SEQUENCES_SQL)).rows.map((s) => [s.name, s.value]),
    );
    const header: Header = { schemaVersion, takenAt: takenAt.toISOString(), tables: shapes.map((s) => s.name) };
    await write(`${MAGIC}\n${JSON.stringify(header)}\n`);
    const tables: Record<string, number> = {};
    for (const shape of shapes) {
      await write(`TABLE ${JSON.stringify({ name: shape.name, columns: shape.columns })}\n`);
      const copy = client.query(copyTo(`copy ${ident(shape.name)} (${shape.columns.map(ident).join(', ')}) to stdout`));
      let rows = 0;
      for await (const chunk of copy as AsyncIterable<Buffer>) {
        // COPY's text format ends every row with one newline and escapes those inside values.
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
        await write(chunk);
      }
      await write('\\.\n');
      tables[shape.name] = rows;
    }
    await write(`END ${JSON.stringify({ tables, sequences })}\n`);
    await client.query('commit');
    gzip.end();
    await written;
    return { schemaVersion, takenAt, tables };
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    gzip.destroy();
    await written.catch(() => undefined);
    throw err;
  }
}

/** One COPY text field: \N is null; the escapes COPY writes (\\, \t, \n, \r, \b, \f, \v) undone. */
function field(text: string): string | null {
  if (text === '\\N') return null;
  if (!text.includes('\\')) return text;
  return text.replace(/\\(.)/g, (_m, c: string) => COPY_ESCAPES[c] ?? c);
}
const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Rows per insert while restoring, and the text they may add up to. */
const BATCH_ROWS = 500;
const BATCH_CHARS = 2_000_000;

export interface RestoreResult extends BackupSummary {
  /** The migrations of this build run after the rows went in (a backup of an older schema). */
  migrated: string[];
}

/** Whether the database has no table of its own (a new database: where a restore may go). */
export async function databaseIsEmpty(db: Kysely<DB>): Promise<boolean> {
  const r = await sql<{ n: number }>`select count(*)::int as n from pg_class
    where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')`.execute(db);
  return r.rows[0]!.n === 0;
}

/** Drops every table of the app's schema (restore --force on PostgreSQL): the schema is made anew. */
export async function emptyDatabase(db: Kysely<DB>): Promise<void> {
  await sql`drop schema public cascade`.execute(db);
  await sql`create schema public`.execute(db);
}

/**
 * Restores a backup (writeBackup's file) into `db`, which must be empty (databaseIsEmpty): the
 * schema of the backup's version, its rows in one transaction, then this build's newer migrations.
 */
export async function restoreBackup(db: Kysely<DB>, input: Readable): Promise<RestoreResult> {
  const gunzip = createGunzip();
  input.pipe(gunzip);
  input.on('error', (err) => gunzip.destroy(err));
  const lines = createInterface({ input: gunzip, crlfDelay: Number.POSITIVE_INFINITY });
  const it = lines[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    let r: IteratorResult<string>;
    try {
      r = await it.next();
    } catch (err) {
      throw new BackupError(`The backup cannot be read (${(err as Error).message}): is it a dealer network backup?`);
    }
    if (r.done) throw new BackupError('The backup ends early: the file is incomplete');
    return r.value;
  };
  if ((await next()) !== MAGIC) throw new BackupError('This file is not a dealer network backup');
  const header = JSON.parse(await next()) as Header;
  if (!knowsSchemaVersion(header.schemaVersion)) {
    throw new BackupError(
      `The backup's schema version ${header.schemaVersion} is newer than this build knows: restore it with the version that made it, or a newer one`,
    );
  }
  await migrateTo(db, header.schemaVersion);
  const tables: Record<string, number> = {};
  await db.transaction().execute(async (trx) => {
    // The rows go in as they were: the kept counters are copied, so their triggers must not add
    // to them again, and rows that refer to one another arrive in any order.
    await sql`select set_config('session_replication_role', 'replica', true)`.execute(trx);
    const shapes = new Map((await sql.raw<TableShape>(TABLES_SQL).execute(trx)).rows.map((s) => [s.name, s] as const));
    let end: { tables: Record<string, number>; sequences: Record<string, string> } | undefined;
    for (;;) {
      const line = await next();
      if (line.startsWith('END ')) {
        end = JSON.parse(line.slice(4)) as NonNullable<typeof end>;
        break;
      }
      if (!line.startsWith('TABLE ')) throw new BackupError('The backup is damaged: a table was expected');
      const { name, columns } = JSON.parse(line.slice(6)) as { name: string; columns: string[] };
      const shape = shapes.get(name);
      if (!shape) throw new BackupError(`The backup's table ${name} is not in schema ${header.schemaVersion}`);
      const casts = columns.map((c, i) => {
        const at = shape.columns.indexOf(c);
        if (at === -1)
          throw new BackupError(`The backup's column ${name}.${c} is not in schema ${header.schemaVersion}`);
        return `(r->>${i})::${shape.types[at]}`;
      });
      // The rows the migrations seeded (default agreement texts, settings) make way for the backup's.
      await sql.raw(`delete from ${ident(name)}`).execute(trx);
      const insert = (rows: (string | null)[][]) =>
        sql`${sql.raw(`insert into ${ident(name)} (${columns.map(ident).join(', ')}) select ${casts.join(', ')}`)}
          from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) r`.execute(trx);
      let batch: (string | null)[][] = [];
      let chars = 0;
      let count = 0;
      for (let row = await next(); row !== '\\.'; row = await next()) {
        batch.push(row.split('\t').map(field));
        chars += row.length;
        count++;
        if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
          await insert(batch);
          batch = [];
          chars = 0;
        }
      }
      if (batch.length > 0) await insert(batch);
      tables[name] = count;
    }
    if (!end) throw new BackupError('The backup ends early: the file is incomplete');
    for (const [name, value] of Object.entries(end.sequences)) {
      await sql`select setval(${name}::regclass, ${value}::bigint, true)`.execute(trx);
    }
    for (const [name, rows] of Object.entries(end.tables)) {
      if (tables[name] !== rows) {
        throw new BackupError(`The backup is damaged: ${name} has ${tables[name] ?? 0} rows of ${rows}`);
      }
    }
  });
  lines.close();
  input.destroy();
  const migrated = await migrateToLatest(db);
  return { schemaVersion: header.schemaVersion, takenAt: new Date(header.takenAt), tables, migrated };
}

/** The schema version of a database: its latest applied migration (after a pg_restore). */
export async function schemaVersionOf(client: pg.ClientBase): Promise<string | null> {
  const r = await client.query<{ v: string | null }>('select max(name) as v from kysely_migration');
  return r.rows[0]?.v ?? null;
}

export interface BackupRunRecord {
  trigger: 'manual' | 'scheduled';
  file: string;
  schemaVersion: string;
  startedAt: Date;
  finishedAt: Date;
  bytes: number | null;
  error: string | null;
}

/** Records a backup run (after it, so the backup itself never holds its own unfinished row). */
export async function recordBackupRun(client: pg.ClientBase, run: BackupRunRecord): Promise<void> {
  await client.query(
    `insert into backup_runs (trigger, file, schema_version, started_at, finished_at, bytes, error)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [run.trigger, run.file, run.schemaVersion, run.startedAt, run.finishedAt, run.bytes, run.error],
  );
}
