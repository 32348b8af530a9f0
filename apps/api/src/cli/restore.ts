// pnpm db:restore <file> [--force]: restores a backup of pnpm db:backup into an empty database
// (DATABASE_URL) or data folder (DATA_DIR), then runs this build's newer migrations (issue 40).
import { createReadStream, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { migrateToLatest, openDatabase } from '@dn/db';
import { BackupError, restoreBackup } from '@dn/db/backup';
import { openRestoreTarget, PG_DUMP_MAGIC, pgRestore } from '@dn/db/backup-target';
import { ConfigError, loadConfig } from '../env';

if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('--'));
if (files.length !== 1 || args.some((a) => a.startsWith('--') && a !== '--force')) {
  process.stderr.write('Usage: pnpm db:restore <file> [--force]\n');
  process.exit(2);
}
const file = resolve(files[0]!);

function firstBytes(path: string, n: number): string {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(n);
  const read = readSync(fd, buf, 0, n, 0);
  return buf.subarray(0, read).toString('latin1');
}

try {
  const config = loadConfig(process.env, { check: true });
  const magic = firstBytes(file, PG_DUMP_MAGIC.length);
  const target = await openRestoreTarget({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    force: args.includes('--force'),
  });
  if (target.replaced) process.stdout.write(`The data folder it replaced was moved to ${target.replaced}\n`);
  if (magic === PG_DUMP_MAGIC) {
    await target.database.close();
    if (!config.databaseUrl) throw new BackupError('A pg_dump file restores into PostgreSQL: set DATABASE_URL');
    await pgRestore(config.databaseUrl, file);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 1 });
    try {
      const migrated = await migrateToLatest(database.db);
      process.stdout.write(
        `Restored ${file} (pg_dump) into PostgreSQL${migrated.length ? `; then migrated: ${migrated.join(', ')}` : ''}\n`,
      );
    } finally {
      await database.close();
    }
  } else {
    try {
      const result = await restoreBackup(target.database.db, createReadStream(file));
      const rows = Object.values(result.tables).reduce((a, b) => a + b, 0);
      process.stdout.write(
        `Restored ${file}: ${rows} rows of ${Object.keys(result.tables).length} tables, as of ${result.takenAt.toISOString()}\n` +
          `  schema version ${result.schemaVersion}${result.migrated.length ? `; then migrated: ${result.migrated.join(', ')}` : ''}\n`,
      );
    } finally {
      await target.database.close();
    }
  }
  process.exit(0);
} catch (err) {
  if (err instanceof BackupError || err instanceof ConfigError || (err as NodeJS.ErrnoException).code === 'ENOENT') {
    process.stderr.write(`\n${(err as Error).message}\n\n`);
    process.exit(1);
  }
  throw err;
}
