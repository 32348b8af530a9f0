import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, latestSchemaVersion, migrateTo, openDatabase, seed } from '@dn/db';
import { BackupError, restoreBackup, writeBackup } from '@dn/db/backup';
import { openRestoreTarget } from '@dn/db/backup-target';
import { createEmptyPostgresDatabase, newDealer, secondConnection, tableChecksums, testDbKind } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeBackup } from '../src/services/system/backup';
import { createDealer, createHarness, type Harness, uniqueEmail } from './helpers';
import { complianceDocument } from './onboarding-fixtures';
import { application, booking } from './security/support';

/**
 * pnpm db:backup and db:restore (issue 40): a backup taken while writes go on is the database at
 * one moment, restores into an empty database (PostgreSQL) or data folder (PGlite) equal table by
 * table, refuses to overwrite without --force, and an older schema's backup is migrated on restore.
 */

const kind = testDbKind();
const BACKUP_KEY = randomBytes(32).toString('base64');
const work = mkdtempSync(join(tmpdir(), 'dn-backup-'));
const cleanups: (() => Promise<unknown>)[] = [];
let h: Harness;
/** A compliance document's file (bytea, issue 45): every byte value, COPY's escapes among them. */
const FILE_BYTES = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.from(Array.from({ length: 256 * 4 }, (_, i) => i % 256)),
]);
let documentId = '';

beforeAll(async () => {
  h = await createHarness();
  const installer = await createDealer(h.db, { tier: 'Authorized', status: 'approved' });
  documentId = await complianceDocument(h.db, installer.id, 'insurance', '2099-12-31');
  await h.db
    .updateTable('complianceDocuments')
    .set({ content: FILE_BYTES, sizeBytes: FILE_BYTES.length })
    .where('id', '=', documentId)
    .execute();
  for (let i = 0; i < 6; i++) {
    const email = uniqueEmail('backup');
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/dealer-signup', payload: application(email) })).statusCode,
    ).toBe(200);
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/schedule-call', payload: booking(email) })).statusCode,
    ).toBe(200);
  }
  // Six signups and bookings on a clone of the template: more than the default minute on a loaded machine.
}, 180_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/** An empty restore target of this run's kind: a new PostgreSQL database, or a new data folder. */
async function emptyTarget(inMemory = false): Promise<{ databaseUrl?: string; dataDir: string }> {
  if (kind === 'postgres') {
    const empty = await createEmptyPostgresDatabase();
    cleanups.push(empty.drop);
    return { databaseUrl: empty.url, dataDir: join(work, 'unused') };
  }
  return { dataDir: inMemory ? '' : mkdtempSync(join(work, 'data-')) };
}

async function checksumsOf(database: Database): Promise<Record<string, string>> {
  const client = await database.pool.connect();
  try {
    return await tableChecksums(client);
  } finally {
    client.release();
  }
}

describe(`backup and restore (${kind})`, () => {
  let backupFile: string;
  let atBackup: Record<string, string>;
  let restoredTo: { databaseUrl?: string; dataDir: string };

  it('a backup taken while signups go on restores into an empty database equal, table by table, to the source at its moment', async () => {
    backupFile = join(work, 'live.dnbackup');
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const res = await h.app.inject({
          method: 'POST',
          url: '/api/dealer-signup',
          payload: application(uniqueEmail('live')),
        });
        expect(res.statusCode, res.body).toBe(200);
        written++;
      }
    })();
    const client = await secondConnection(h.database);
    let summary: Awaited<ReturnType<typeof writeBackup>>;
    try {
      summary = await writeBackup(client, createWriteStream(backupFile), {
        inSnapshot: async (c) => {
          atBackup = await tableChecksums(c);
        },
      });
    } finally {
      writing = false;
      await writer;
      await client.end();
    }
    // The writes went on around it: the source has dealers the backup does not.
    const dealersNow = await h.db
      .selectFrom('dealers')
      .select((e) => e.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(written).toBeGreaterThan(0);
    expect(Number(dealersNow.n)).toBeGreaterThan(summary.tables.dealers!);
    expect(Object.keys(summary.tables).length).toBeGreaterThan(20);
    expect(atBackup.dealers).toMatch(new RegExp(`^${summary.tables.dealers} rows`));

    restoredTo = await emptyTarget();
    const target = await openRestoreTarget({ ...restoredTo, force: false });
    try {
      const result = await restoreBackup(target.database.db, createReadStream(backupFile));
      expect(result.migrated).toEqual([]);
      expect(result.tables).toEqual(summary.tables);
      expect(await checksumsOf(target.database)).toEqual(atBackup);
      // The compliance files (bytea) come back byte for byte.
      const file = await target.database.db
        .selectFrom('complianceDocuments')
        .select(['content', 'sizeBytes'])
        .where('id', '=', documentId)
        .executeTakeFirstOrThrow();
      expect(file.content?.equals(FILE_BYTES)).toBe(true);
      expect(file.sizeBytes).toBe(FILE_BYTES.length);
    } finally {
      await target.database.close();
    }
  });

  it('refuses to restore over a database that has tables without --force, and replaces it with --force', async () => {
    await expect(openRestoreTarget({ ...restoredTo, force: false })).rejects.toThrow(
      kind === 'postgres' ? /is not empty.*--force/ : /already holds a database.*--force/,
    );
    const target = await openRestoreTarget({ ...restoredTo, force: true });
    try {
      if (kind === 'pglite') expect(existsSync(target.replaced!)).toBe(true);
      await restoreBackup(target.database.db, createReadStream(backupFile));
      expect(await checksumsOf(target.database)).toEqual(atBackup);
    } finally {
      await target.database.close();
    }
  });

  it("an older schema's backup is migrated to this build's on restore", async () => {
    const older = '2026-11-28-0920-referral-flags';
    // In memory on PGlite: the data folders are the first test's.
    const database = await openDatabase({ databaseUrl: (await emptyTarget(true)).databaseUrl, poolSize: 1 });
    const file = join(work, 'older.dnbackup');
    try {
      await migrateTo(database.db, older);
      await seed(database.db);
      await database.db.insertInto('dealers').values(newDealer('older.schema@example.com')).execute();
      const client = await database.pool.connect();
      try {
        expect((await writeBackup(client, createWriteStream(file))).schemaVersion).toBe(older);
      } finally {
        client.release();
      }
    } finally {
      await database.close();
    }
    const target = {
      database: await openDatabase({ databaseUrl: (await emptyTarget(true)).databaseUrl, poolSize: 1 }),
    };
    try {
      const result = await restoreBackup(target.database.db, createReadStream(file));
      expect(result.schemaVersion).toBe(older);
      expect(result.migrated).toContain('2026-11-28-2500-system-samples-and-backups');
      const dealer = await target.database.db
        .selectFrom('dealers')
        .select('email')
        .where('email', '=', 'older.schema@example.com')
        .executeTakeFirst();
      expect(dealer?.email).toBe('older.schema@example.com');
      expect(await target.database.db.selectFrom('backupRuns').select('id').execute()).toEqual([]);
    } finally {
      await target.database.close();
    }
  }, 300_000);

  it('refuses a file that is not a backup, naming why', async () => {
    const bogus = join(work, 'bogus.dnbackup');
    writeFileSync(bogus, 'not a backup at all');
    // Refused before anything is written (the source's own database stands in as the target).
    await expect(restoreBackup(h.db, createReadStream(bogus))).rejects.toThrow(BackupError);
  });

  it('pnpm db:backup reaches the running app, pnpm db:restore restores it, and refuses a second time without --force', async () => {
    const api = fileURLToPath(new URL('..', import.meta.url));
    // Not spawnSync: the embedded source is served by this process, whose event loop must go on.
    const cli = (name: string, args: string[], env: Record<string, string>) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', join(api, 'src/cli', name), ...args], {
          cwd: api,
          env: { PATH: process.env.PATH ?? '', INIT_CWD: work, BACKUP_ENCRYPTION_KEY: BACKUP_KEY, ...env },
          timeout: 300_000, // an embedded restore takes minutes on a loaded machine
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
    // The source: this process's app on PostgreSQL, or an embedded data folder this process holds open.
    let sourceEnv: Record<string, string>;
    let running: Database | undefined;
    if (kind === 'postgres') {
      sourceEnv = { DATABASE_URL: h.database.url! };
    } else {
      running = await openDatabase({ dataDir: restoredTo.dataDir, poolSize: 1 });
      cleanups.push(() => running!.close());
      sourceEnv = { DATA_DIR: restoredTo.dataDir };
    }
    const backup = await cli('backup.ts', ['cli.backup', '--logical'], sourceEnv);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(kind === 'postgres' ? /from PostgreSQL/ : /from the running app's embedded database/);
    expect(backup.stdout).toContain(`schema version ${latestSchemaVersion()}`);
    expect(backup.stdout).toContain('verified: read back whole');
    // Issue 46: only its owner reads it, and it is encrypted (no gzip or dump header to be seen).
    const written = join(work, 'cli.backup');
    expect(statSync(written).mode & 0o777).toBe(0o600);
    expect(readFileSync(written).subarray(0, 16).toString('latin1')).toBe('DN-BACKUP-ENC 1\n');
    expect(readFileSync(written).includes(Buffer.from('DN-BACKUP 1'))).toBe(false);
    const verified = await cli('backup.ts', ['--verify', 'cli.backup'], {});
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^Backup verified: .*cli\.backup\n {2}encrypted and authenticated, logical dump/);
    // Without the key it was made with, or changed by one byte: refused, in one line.
    const wrongKey = await cli('backup.ts', ['--verify', 'cli.backup'], {
      BACKUP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.stderr).toMatch(/^Verification failed: The backup was encrypted with another backup key .*\n$/);
    const bytes = readFileSync(written);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0x04;
    writeFileSync(join(work, 'tampered.backup'), bytes);
    const tampered = await cli('backup.ts', ['--verify', 'tampered.backup'], {});
    expect(tampered.status).toBe(1);
    expect(tampered.stderr).toMatch(
      /^Verification failed: The backup was changed after it was written \(bytes \d+ to \d+ fail authentication\): refused\n$/,
    );
    // The run is recorded where the System page reads it.
    const source = running ?? h.database;
    const runs = await source.db.selectFrom('backupRuns').select(['trigger', 'file', 'error']).execute();
    expect(runs).toEqual([{ trigger: 'manual', file: join(work, 'cli.backup'), error: null }]);

    const target = await emptyTarget();
    const targetEnv: Record<string, string> = target.databaseUrl
      ? { DATABASE_URL: target.databaseUrl }
      : { DATA_DIR: target.dataDir };
    const refused = await cli('restore.ts', ['tampered.backup'], targetEnv);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^Restore failed: The backup was changed after it was written .*: refused\n$/);
    const restore = await cli('restore.ts', ['cli.backup'], targetEnv);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^Restored .*cli\.backup: \d+ rows of \d+ tables/);
    const again = await cli('restore.ts', ['cli.backup'], targetEnv);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('--force');

    // The scheduled backup takes the same path from inside the app's own process (its own socket).
    const inProcess = await takeBackup({
      config:
        kind === 'postgres'
          ? { databaseUrl: h.database.url, dataDir: work }
          : { databaseUrl: undefined, dataDir: restoredTo.dataDir },
      dir: work,
      trigger: 'scheduled',
      format: 'logical',
      now: new Date(),
      key: Buffer.from(BACKUP_KEY, 'base64'),
    });
    expect(inProcess.file).toMatch(/dealer-network-.*\.dnbackup$/);
    expect(inProcess.tables?.dealers).toBeGreaterThan(0);
    expect(statSync(inProcess.file).mode & 0o777).toBe(0o600);
    expect(inProcess.verifyError).toBeNull();
    expect(inProcess.verifiedAt).toBeInstanceOf(Date);

    // A file of the format before encryption (issue 40's, here the bare logical dump): refused
    // with a clear message, restored with --allow-unencrypted and a warning (decision 1030).
    const oldTarget = await emptyTarget();
    const oldEnv: Record<string, string> = oldTarget.databaseUrl
      ? { DATABASE_URL: oldTarget.databaseUrl }
      : { DATA_DIR: oldTarget.dataDir };
    const old = await cli('restore.ts', [backupFile], oldEnv);
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/not encrypted .*--allow-unencrypted/);
    const oldVerify = await cli('backup.ts', ['--verify', backupFile, '--allow-unencrypted'], {});
    expect(oldVerify.status, oldVerify.stderr).toBe(0);
    expect(oldVerify.stdout).toContain('NOT encrypted');
    const allowed = await cli('restore.ts', [backupFile, '--allow-unencrypted'], oldEnv);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/^Warning: .* is not encrypted/);
  }, 480_000);
});
