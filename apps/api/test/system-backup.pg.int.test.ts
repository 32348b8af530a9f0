import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestSchemaVersion, openDatabase } from '@dn/db';
import { openBackupFile } from '@dn/db/backup-file';
import { pgDumpAvailable, pgRestoreFrom } from '@dn/db/backup-target';
import { createEmptyPostgresDatabase, tableChecksums } from '@dn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { scheduledBackup } from '../src/services/system/sweeps';
import { createDealer, createHarness, type Harness, TEST_DATA_KEY } from './helpers';

/**
 * The daily backup (BACKUP_DIR, BACKUP_KEEP) on PostgreSQL, where it is pg_dump's custom format
 * (the embedded database's own backups are backup.int.test.ts's): due a day after the last, the
 * oldest beyond BACKUP_KEEP deleted, and the file restores with pg_restore to the same tables.
 */

const clock = new ShiftedClock();
const dir = mkdtempSync(join(tmpdir(), 'dn-scheduled-'));
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ clock });
  Object.assign(h.app.deps.config, { databaseUrl: h.database.url, backupDir: dir, backupKeep: 2 });
  // An installer's service area: its point is a generated column of earthdistance's type, with a
  // GiST index (migration 2900), which pg_restore computes and builds with an empty search_path.
  const installer = await createDealer(h.db, { tier: 'Preferred', status: 'approved', password: null });
  await h.db
    .insertInto('serviceAreas')
    .values({
      dealerId: installer.id,
      zipCode: '66044',
      state: 'KS',
      latitude: 38.96,
      longitude: -95.25,
      radiusMiles: 50,
      weeklyCapacity: 5,
    })
    .execute();
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the scheduled backup', () => {
  it('runs daily into BACKUP_DIR, keeps BACKUP_KEEP files, and each restores with pg_restore', async () => {
    expect(pgDumpAvailable()).toBe(true);
    expect(await scheduledBackup(h.app.deps)).toBe(1);
    expect(await scheduledBackup(h.app.deps)).toBe(0); // not due again the same day
    for (let i = 0; i < 2; i++) {
      clock.advance(24 * 3_600_000 + 60_000);
      expect(await scheduledBackup(h.app.deps)).toBe(1);
    }
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^dealer-network-.*\.dump$/.test(f))).toBe(true);
    const runs = await h.db
      .selectFrom('backupRuns')
      .select(['trigger', 'error', 'schemaVersion', 'encrypted', 'verifiedAt', 'verifyError'])
      .execute();
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.trigger === 'scheduled' && r.error === null)).toBe(true);
    expect(runs.every((r) => r.encrypted && r.verifiedAt !== null && r.verifyError === null)).toBe(true);
    expect(runs[0]!.schemaVersion).toBe(latestSchemaVersion());

    const source = await h.database.pool.connect();
    const empty = await createEmptyPostgresDatabase();
    const restored = await openDatabase({ databaseUrl: empty.url, poolSize: 1 });
    try {
      // Issue 46: encrypted with the data encryption key (no BACKUP_ENCRYPTION_KEY), 0600, verified.
      expect(statSync(join(dir, files[1]!)).mode & 0o777).toBe(0o600);
      const opened = await openBackupFile(join(dir, files[1]!), Buffer.from(TEST_DATA_KEY, 'base64'));
      expect(opened).toMatchObject({ encrypted: true, format: 'pg_dump' });
      await pgRestoreFrom(empty.url, opened.stream);
      const client = await restored.pool.connect();
      try {
        const want = await tableChecksums(source);
        const got = await tableChecksums(client);
        // The last run's own row was written after its dump.
        delete want.backup_runs;
        delete got.backup_runs;
        expect(got).toEqual(want);
      } finally {
        client.release();
      }
    } finally {
      source.release();
      await restored.close();
      await empty.drop();
    }
  });
});
