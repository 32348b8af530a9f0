import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { BackupIntegrityError } from './backup-crypto';
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
  /** Whether a column is an identity one (GENERATED ALWAYS or BY DEFAULT): its values go in with OVERRIDING SYSTEM VALUE. */
  identity: boolean;
}

/**
 * Every table of the app's schema with its stored columns and their types, read from the catalog
 * (issue 46): generated columns (service_areas.point, dealers.search_text) are left out, since the
 * database computes them again; identity columns are marked; every other kind (numeric, jsonb,
 * arrays, bytea, enums, timestamps) goes through its type's own text form, exact.
 */
const TABLES_SQL = `
  select c.relname::text as name,
    array_agg(a.attname::text order by a.attnum) as columns,
    array_agg(format_type(a.atttypid, a.atttypmod) order by a.attnum) as types,
    bool_or(a.attidentity <> '') as identity
  from pg_class c
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
  where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
    and c.relname not in ('kysely_migration', 'kysely_migration_lock')
  group by c.relname
  order by c.relname`;

const SEQUENCES_SQL = `select sequencename::text as name, last_value::text as value
  from pg_sequences where schemaname = 'public' and last_value is not null`;

/** Every sequence a column owns (serial and identity columns), with that column, from the catalog. */
const OWNED_SEQUENCES_SQL = `
  select s.relname::text as sequence, t.relname::text as "table", a.attname::text as "column"
  from pg_class s
  join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid
    and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
  join pg_class t on t.oid = d.refobjid
  join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
  where s.relkind = 'S' and s.relnamespace = 'public'::regnamespace
  order by 1`;

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

/** The lines of a plain (decrypted) logical backup, one at a time, with errors that say what is wrong. */
function backupLines(input: Readable) {
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
      if (err instanceof BackupIntegrityError) throw new BackupError(err.message);
      throw new BackupError(`The backup cannot be read (${(err as Error).message}): is it a dealer network backup?`);
    }
    if (r.done) throw new BackupError('The backup ends early: the file is incomplete');
    return r.value;
  };
  const close = () => {
    lines.close();
    input.destroy();
  };
  /** After END: reads on to the end of the file (an encrypted file's last chunk is authenticated there). */
  const toTheEnd = async () => {
    for (;;) {
      let r: IteratorResult<string>;
      try {
        r = await it.next();
      } catch (err) {
        throw new BackupError((err as Error).message);
      }
      if (r.done) return;
      if (r.value !== '') throw new BackupError('The backup is damaged: there is more after its end');
    }
  };
  return { next, close, toTheEnd };
}

async function readHeader(next: () => Promise<string>): Promise<Header> {
  if ((await next()) !== MAGIC) throw new BackupError('This file is not a dealer network backup');
  try {
    return JSON.parse(await next()) as Header;
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError('The backup is damaged: its header cannot be read');
  }
}

interface Trailer {
  tables: Record<string, number>;
  sequences: Record<string, string>;
}

/** Each table's rows against the trailer's counts. */
function checkCounts(tables: Record<string, number>, end: Trailer): void {
  for (const [name, rows] of Object.entries(end.tables)) {
    if (tables[name] !== rows) {
      throw new BackupError(`The backup is damaged: table ${name} has ${tables[name] ?? 0} rows of ${rows}`);
    }
  }
}

/**
 * Reads a whole plain logical backup without a database (pnpm db:backup --verify, and what a
 * scheduled backup checks after writing): its header, every table's rows against the trailer's
 * counts, and its end. Resolves with its summary, or fails with a BackupError saying what is wrong.
 */
export async function verifyBackup(input: Readable): Promise<BackupSummary> {
  const { next, close, toTheEnd } = backupLines(input);
  try {
    const header = await readHeader(next);
    const tables: Record<string, number> = {};
    for (;;) {
      const line = await next();
      if (line.startsWith('END ')) {
        checkCounts(tables, JSON.parse(line.slice(4)) as Trailer);
        await toTheEnd();
        break;
      }
      if (!line.startsWith('TABLE ')) throw new BackupError('The backup is damaged: a table was expected');
      const { name } = JSON.parse(line.slice(6)) as { name: string };
      let count = 0;
      for (let row = await next(); row !== '\\.'; row = await next()) count++;
      tables[name] = count;
    }
    return { schemaVersion: header.schemaVersion, takenAt: new Date(header.takenAt), tables };
  } finally {
    close();
  }
}

/** A database error's first line, for a one-line message. */
const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0]!;

/**
 * Restores a backup (writeBackup's file, decrypted) into `db`, which must be empty
 * (databaseIsEmpty): the schema of the backup's version, its rows in one transaction, then this
 * build's newer migrations. A failure is a BackupError of one line naming the table; what it made
 * is the caller's to remove (RestoreTarget.discard).
 */
export async function restoreBackup(db: Kysely<DB>, input: Readable): Promise<RestoreResult> {
  const { next, close, toTheEnd } = backupLines(input);
  const header = await readHeader(next);
  if (!knowsSchemaVersion(header.schemaVersion)) {
    close();
    throw new BackupError(
      `The backup's schema version ${header.schemaVersion} is newer than this build knows: restore it with the version that made it, or a newer one`,
    );
  }
  try {
    await migrateTo(db, header.schemaVersion);
  } catch (err) {
    close();
    throw new BackupError(`Restore failed while creating schema version ${header.schemaVersion}: ${firstLine(err)}`);
  }
  const tables: Record<string, number> = {};
  try {
    await db.transaction().execute(async (trx) => {
      // The rows go in as they were: the kept counters are copied, so their triggers must not add
      // to them again, and rows that refer to one another arrive in any order.
      await sql`select set_config('session_replication_role', 'replica', true)`.execute(trx);
      const shapes = new Map(
        (await sql.raw<TableShape>(TABLES_SQL).execute(trx)).rows.map((s) => [s.name, s] as const),
      );
      let end: Trailer | undefined;
      for (;;) {
        const line = await next();
        if (line.startsWith('END ')) {
          end = JSON.parse(line.slice(4)) as Trailer;
          await toTheEnd();
          break;
        }
        if (!line.startsWith('TABLE ')) throw new BackupError('The backup is damaged: a table was expected');
        const { name, columns } = JSON.parse(line.slice(6)) as { name: string; columns: string[] };
        tables[name] = await restoreTable(trx, shapes.get(name), name, columns, header.schemaVersion, next);
      }
      await setSequences(trx, end.sequences);
      checkCounts(tables, end);
    });
  } finally {
    close();
  }
  let migrated: string[];
  try {
    migrated = await migrateToLatest(db);
  } catch (err) {
    throw new BackupError(`Restore failed while migrating to this build's schema: ${firstLine(err)}`);
  }
  return { schemaVersion: header.schemaVersion, takenAt: new Date(header.takenAt), tables, migrated };
}

/** One table's rows, in batches; resolves with how many. */
async function restoreTable(
  trx: Kysely<DB>,
  shape: TableShape | undefined,
  name: string,
  columns: string[],
  schemaVersion: string,
  next: () => Promise<string>,
): Promise<number> {
  if (!shape) throw new BackupError(`The backup's table ${name} is not in schema ${schemaVersion}`);
  const casts = columns.map((c, i) => {
    const at = shape.columns.indexOf(c);
    if (at === -1) throw new BackupError(`The backup's column ${name}.${c} is not in schema ${schemaVersion}`);
    return `(r->>${i})::${shape.types[at]}`;
  });
  // Identity columns keep the backup's values (job_events.seq, webhook_deliveries.id are GENERATED ALWAYS).
  const overriding = shape.identity ? ' overriding system value' : '';
  const insert = async (rows: (string | null)[][], first: number) => {
    try {
      await sql`${sql.raw(`insert into ${ident(name)} (${columns.map(ident).join(', ')})${overriding} select ${casts.join(', ')}`)}
        from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) r`.execute(trx);
    } catch (err) {
      throw new BackupError(
        `Restore failed at table ${name} (rows ${first + 1} to ${first + rows.length}): ${firstLine(err)}`,
      );
    }
  };
  try {
    // The rows the migrations seeded (default agreement texts, settings) make way for the backup's.
    await sql.raw(`delete from ${ident(name)}`).execute(trx);
  } catch (err) {
    throw new BackupError(`Restore failed at table ${name}: ${firstLine(err)}`);
  }
  let batch: (string | null)[][] = [];
  let chars = 0;
  let count = 0;
  for (let row = await next(); row !== '\\.'; row = await next()) {
    batch.push(row.split('\t').map(field));
    chars += row.length;
    count++;
    if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
      await insert(batch, count - batch.length);
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) await insert(batch, count - batch.length);
  return count;
}

/**
 * The sequences as the backup saw them, then each column-owned one (serial and identity columns,
 * from the catalog) moved past the largest restored value, so the next row never repeats an id.
 */
async function setSequences(trx: Kysely<DB>, fromBackup: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fromBackup)) {
    await sql`select setval(${ident(name)}::regclass, ${value}::bigint, true)`.execute(trx);
  }
  const owned = await sql.raw<{ sequence: string; table: string; column: string }>(OWNED_SEQUENCES_SQL).execute(trx);
  for (const s of owned.rows) {
    try {
      await sql`select setval(${ident(s.sequence)}::regclass, m, true)
        from (select max(${sql.raw(ident(s.column))})::bigint as m from ${sql.raw(ident(s.table))}) x
        where m is not null
          and m > coalesce((select last_value from pg_sequences where schemaname = 'public' and sequencename = ${s.sequence}), 0)`.execute(
        trx,
      );
    } catch (err) {
      throw new BackupError(`Restore failed setting sequence ${s.sequence} of table ${s.table}: ${firstLine(err)}`);
    }
  }
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
  /** Issue 46: whether the file is encrypted, and when and how reading it back went. */
  encrypted: boolean;
  verifiedAt: Date | null;
  verifyError: string | null;
}

/** Records a backup run (after it, so the backup itself never holds its own unfinished row). */
export async function recordBackupRun(client: pg.ClientBase, run: BackupRunRecord): Promise<void> {
  await client.query(
    `insert into backup_runs (trigger, file, schema_version, started_at, finished_at, bytes, error,
       encrypted, verified_at, verify_error)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      run.trigger,
      run.file,
      run.schemaVersion,
      run.startedAt,
      run.finishedAt,
      run.bytes,
      run.error,
      run.encrypted,
      run.verifiedAt,
      run.verifyError,
    ],
  );
}
