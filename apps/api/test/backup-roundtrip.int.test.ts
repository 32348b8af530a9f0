import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type Database, openDatabase } from '@dn/db';
import { restoreBackup, writeBackup } from '@dn/db/backup';
import { decryptStream, ENCRYPTED_HEADER_BYTES, encryptStream } from '@dn/db/backup-crypto';
import { openBackupFile, verifyBackupFile } from '@dn/db/backup-file';
import { openRestoreTarget } from '@dn/db/backup-target';
import {
  createEmptyPostgresDatabase,
  createTestDatabase,
  secondConnection,
  tableChecksums,
  testDbKind,
} from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyTableProblems, type FixtureIds, fillEveryTable } from './every-table-fixture';

/**
 * Issue 46: a backup of a database where EVERY table holds rows (every-table-fixture.ts: identity
 * columns, serials, a generated column, JSON, arrays, exact numerics, awkward text) restores equal,
 * table by table, on both databases; the sequences go on past the restored ids; a file changed by
 * one byte is refused; and a restore that fails says so in one line naming the table and leaves
 * nothing behind.
 */

const kind = testDbKind();
const work = mkdtempSync(join(tmpdir(), 'dn-roundtrip-'));
const key = randomBytes(32);
const cleanups: (() => Promise<unknown>)[] = [];
let source: Awaited<ReturnType<typeof createTestDatabase>>;
let ids: FixtureIds;
let file: string;
let atBackup: Record<string, string>;

beforeAll(async () => {
  source = await createTestDatabase();
  ids = await fillEveryTable(source.db);
  file = join(work, 'every-table.dnbackup');
  const client = await secondConnection(source);
  try {
    const encrypt = encryptStream(key);
    const written = pipeline(encrypt, createWriteStream(file, { mode: 0o600 }));
    await writeBackup(client, encrypt, {
      inSnapshot: async (c) => {
        atBackup = await tableChecksums(c);
      },
    });
    await written;
  } finally {
    await client.end();
  }
}, 120_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  await source?.close();
  rmSync(work, { recursive: true, force: true });
});

async function emptyTarget(): Promise<{ databaseUrl?: string; dataDir: string }> {
  if (kind === 'postgres') {
    const empty = await createEmptyPostgresDatabase();
    cleanups.push(empty.drop);
    return { databaseUrl: empty.url, dataDir: join(work, 'unused') };
  }
  return { dataDir: join(mkdtempSync(join(work, 'data-')), 'restored') };
}

async function checksumsOf(database: Database): Promise<Record<string, string>> {
  const client = await database.pool.connect();
  try {
    return await tableChecksums(client);
  } finally {
    client.release();
  }
}

describe(`the backup round trip with a row in every table (${kind})`, () => {
  it('every table of the schema has a row from every-table-fixture.ts (a new table needs an entry there)', async () => {
    const problems = await everyTableProblems(source.db);
    expect(problems, problems.join('\n')).toEqual([]);
    for (const [name, sum] of Object.entries(atBackup)) expect(sum, name).not.toMatch(/^0 rows/);
  });

  it('restores into an empty database equal, table by table, and the sequences go on past the restored ids', async () => {
    const checked = await verifyBackupFile(file, key);
    expect(checked.encrypted).toBe(true);
    expect(Object.keys(checked.summary!.tables).sort()).toEqual(Object.keys(atBackup).sort());

    const target = await openRestoreTarget({ ...(await emptyTarget()), force: false });
    try {
      const opened = await openBackupFile(file, key);
      const result = await restoreBackup(target.database.db, opened.stream);
      expect(result.migrated).toEqual([]);
      expect(await checksumsOf(target.database)).toEqual(atBackup);

      // Identity (GENERATED ALWAYS) and serial columns: the next row gets a new number.
      const db = target.database.db;
      const event = await db
        .insertInto('jobEvents')
        .values({ jobId: ids.job, kind: 'note', actor: 'test', message: 'after restore', createdAt: new Date() })
        .returning('seq')
        .executeTakeFirstOrThrow();
      const seqs = await db.selectFrom('jobEvents').select('seq').where('kind', '!=', 'note').execute();
      expect(seqs.length).toBeGreaterThan(0);
      expect(seqs.every((s) => BigInt(s.seq) < BigInt(event.seq))).toBe(true);
      const delivery = await db
        .insertInto('webhookDeliveries')
        .values({ statusCode: 200, result: 'after restore' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const deliveries = await db.selectFrom('webhookDeliveries').select('id').execute();
      expect(deliveries.filter((d) => BigInt(d.id) >= BigInt(delivery.id))).toHaveLength(1);
      const audit = await db
        .insertInto('auditLogs')
        .values({ message: 'after restore' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const audits = await db.selectFrom('auditLogs').select('id').execute();
      expect(audits.filter((a) => BigInt(a.id) >= BigInt(audit.id))).toHaveLength(1);
      // The generated column was computed again from the restored row.
      const area = await db
        .selectFrom('serviceAreas')
        .select('point')
        .where('dealerId', '=', ids.installer)
        .executeTakeFirst();
      expect(area?.point).toBeTruthy();
    } finally {
      await target.database.close();
    }
  }, 120_000);

  it('a file changed by one byte, anywhere, is refused with a clear message; a cut-off one too', async () => {
    const whole = readFileSync(file);
    const size = whole.length;
    const at = [0, 17, ENCRYPTED_HEADER_BYTES - 1, ENCRYPTED_HEADER_BYTES + 5, Math.floor(size / 2), size - 1];
    for (const i of at) {
      const changed = Buffer.from(whole);
      changed[i] = changed[i]! ^ 0x01;
      const bad = join(work, `changed-${i}.dnbackup`);
      writeFileSync(bad, changed);
      await expect(verifyBackupFile(bad, key), `byte ${i}`).rejects.toThrow(
        /not a dealer network backup|another backup key|changed after it was written/,
      );
    }
    const changed = Buffer.from(whole);
    changed[size - 1] = changed[size - 1]! ^ 0x80;
    writeFileSync(join(work, 'last-byte.dnbackup'), changed);
    await expect(verifyBackupFile(join(work, 'last-byte.dnbackup'), key)).rejects.toThrow(
      /The backup was changed after it was written \(bytes \d+ to \d+ fail authentication\): refused/,
    );
    writeFileSync(join(work, 'cut.dnbackup'), whole.subarray(0, size - 100));
    await expect(verifyBackupFile(join(work, 'cut.dnbackup'), key)).rejects.toThrow(/changed|cut off|ends early/);
    await expect(verifyBackupFile(file, randomBytes(32))).rejects.toThrow(/another backup key/);
  });

  it('a restore that fails is one line naming the table, exits 1, and leaves nothing behind', async () => {
    // A backup whose orders row cannot go in (an amount that is not a number), sealed properly.
    const plain: Buffer[] = [];
    const decrypt = decryptStream(key);
    decrypt.on('data', (c: Buffer) => plain.push(c));
    await pipeline(createReadStream(file), decrypt);
    const text = gunzipSync(Buffer.concat(plain)).toString('utf8');
    const broken = text.replace(/(TABLE \{"name":"orders"[^\n]*\n[^\n]*?)1234567890\.12/, '$1not-a-number');
    expect(broken).not.toBe(text);
    const brokenFile = join(work, 'broken.dnbackup');
    const encrypt = encryptStream(key);
    const written = pipeline(encrypt, createWriteStream(brokenFile));
    encrypt.end(gzipSync(broken));
    await written;
    // It verifies (the counts are right): only the database can say the value is wrong.
    await verifyBackupFile(brokenFile, key);

    const target = await emptyTarget();
    const api = fileURLToPath(new URL('..', import.meta.url));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      BACKUP_ENCRYPTION_KEY: key.toString('base64'),
      ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir }),
    };
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(api, 'src/cli/restore.ts'), brokenFile], {
        cwd: api,
        env,
        timeout: 280_000, // a hang limit: a tsx start of the CLI beside the suite took over 2 minutes on a loaded machine
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => {
        stdout += c;
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr += c;
      });
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(result.status, result.stderr).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^Restore failed at table orders \(rows 1 to 1\): invalid input syntax for type numeric/);
    expect(lines[0]).not.toMatch(/\bat .*\.ts:\d+/); // no stack
    if (kind === 'pglite') {
      expect(lines[0]).toContain('the half-made data folder');
      expect(existsSync(target.dataDir)).toBe(false);
    } else {
      const database = await openDatabase({ databaseUrl: target.databaseUrl!, poolSize: 1 });
      try {
        const client = await database.pool.connect();
        try {
          const r = await client.query(
            `select count(*)::int as n from pg_class where relnamespace = 'public'::regnamespace`,
          );
          expect(r.rows[0].n).toBe(0);
        } finally {
          client.release();
        }
      } finally {
        await database.close();
      }
    }
  }, 400_000);
});
