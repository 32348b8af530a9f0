import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError, openDatabase } from './client';
import { migrateToLatest } from './migrate';
import { newDealer } from './testing';

describe('embedded data folder', () => {
  it('survives a restart and refuses a second process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dn-data-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await migrateToLatest(first.db);
      await first.db.insertInto('dealers').values(newDealer('persist@example.com')).execute();
      // A lock held by a live process other than us: simulate with the parent's pid.
      const lockFile = join(dir, 'app.lock');
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      await first.close();

      writeFileSync(lockFile, String(process.ppid));
      await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
      rmSync(lockFile);

      const second = await openDatabase({ dataDir: dir });
      const found = await second.db.selectFrom('dealers').select('email').execute();
      expect(found).toEqual([{ email: 'persist@example.com' }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
