// pnpm db:restore <file> [--force] [--allow-unencrypted]: restores a backup of pnpm db:backup into
// an empty database (DATABASE_URL) or data folder (DATA_DIR), then runs this build's newer
// migrations (issue 40). Issue 46: the file is checked whole first (decrypted, every chunk
// authenticated), and a restore that fails says so in one line naming the table, removes what it
// made, and exits 1.
import { resolve } from 'node:path';
import { migrateToLatest } from '@dn/db';
import { BackupError, restoreBackup } from '@dn/db/backup';
import { openBackupFile, verifyBackupFile } from '@dn/db/backup-file';
import { openRestoreTarget, pgRestoreFrom, type RestoreTarget } from '@dn/db/backup-target';
import { loadConfig } from '../env';
import { backupKeyToRead } from '../services/system/backup';

if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const args = process.argv.slice(2);
const flags = ['--force', '--allow-unencrypted'];
const files = args.filter((a) => !a.startsWith('--'));
if (files.length !== 1 || args.some((a) => a.startsWith('--') && !flags.includes(a))) {
  process.stderr.write('Usage: pnpm db:restore <file> [--force] [--allow-unencrypted]\n');
  process.exit(2);
}
const file = resolve(files[0]!);
const allowUnencrypted = args.includes('--allow-unencrypted');
const oneLine = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .split('\n')
    .filter(Boolean)
    .join(' ');

let target: RestoreTarget | undefined;
try {
  const config = loadConfig(process.env, { check: true });
  // Refused before anything is made: a file changed by one byte, cut off, or sealed with another key.
  // An old unencrypted file (with --allow-unencrypted) needs no key.
  const key = backupKeyToRead(config, { allowUnencrypted });
  const checked = await verifyBackupFile(file, key, { allowUnencrypted });
  if (!checked.encrypted) {
    process.stderr.write(`Warning: ${file} is not encrypted: nothing shows it is unchanged (--allow-unencrypted)\n`);
  }
  target = await openRestoreTarget({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    force: args.includes('--force'),
  });
  if (target.replaced) process.stdout.write(`The data folder it replaced was moved to ${target.replaced}\n`);
  const opened = await openBackupFile(file, key, { allowUnencrypted });
  if (opened.format === 'pg_dump') {
    opened.stream.destroy();
    if (!config.databaseUrl) throw new BackupError('A pg_dump file restores into PostgreSQL: set DATABASE_URL');
    await pgRestoreFrom(config.databaseUrl, (await openBackupFile(file, key, { allowUnencrypted })).stream);
    const migrated = await migrateToLatest(target.database.db);
    process.stdout.write(
      `Restored ${file} (pg_dump) into PostgreSQL${migrated.length ? `; then migrated: ${migrated.join(', ')}` : ''}\n`,
    );
  } else {
    const result = await restoreBackup(target.database.db, opened.stream);
    const rows = Object.values(result.tables).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `Restored ${file}: ${rows} rows of ${Object.keys(result.tables).length} tables, as of ${result.takenAt.toISOString()}\n` +
        `  schema version ${result.schemaVersion}${result.migrated.length ? `; then migrated: ${result.migrated.join(', ')}` : ''}\n`,
    );
  }
  await target.database.close();
  process.exit(0);
} catch (err) {
  // One line, never a stack: what failed (the table, when it is a table) and what was undone.
  let undone = '';
  if (target) {
    undone = await target.discard().then(
      (did) => `; ${did}`,
      (e: unknown) => `; removing what it made failed too: ${oneLine(e)}`,
    );
  }
  const message = oneLine(err);
  process.stderr.write(`${message.startsWith('Restore failed') ? '' : 'Restore failed: '}${message}${undone}\n`);
  process.exit(1);
}
