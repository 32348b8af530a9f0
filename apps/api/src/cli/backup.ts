// pnpm db:backup [file] [--logical]: a consistent, compressed backup of the app's database, taken
// while the app runs (issue 40; README "Backup and restore").
import { BackupError } from '@dn/db/backup';
import { ConfigError, loadConfig } from '../env';
import { takeBackup } from '../services/system/backup';

// pnpm runs package scripts in apps/api: a relative file or DATA_DIR means the caller's folder.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const args = process.argv.slice(2);
const unknown = args.filter((a) => a.startsWith('--') && a !== '--logical');
if (unknown.length > 0 || args.filter((a) => !a.startsWith('--')).length > 1) {
  process.stderr.write('Usage: pnpm db:backup [file] [--logical]\n');
  process.exit(2);
}
try {
  const config = loadConfig(process.env, { check: true });
  const result = await takeBackup({
    config,
    file: args.find((a) => !a.startsWith('--')),
    trigger: 'manual',
    format: args.includes('--logical') ? 'logical' : undefined,
    now: new Date(),
  });
  const rows = result.tables ? Object.values(result.tables).reduce((a, b) => a + b, 0) : null;
  process.stdout.write(
    `Backup written: ${result.file}\n` +
      `  from ${result.via}, ${result.format === 'pg_dump' ? 'pg_dump custom format' : 'logical dump'}, ` +
      `${(result.bytes / 1024).toFixed(0)} KB${rows === null ? '' : `, ${rows} rows`}\n` +
      `  schema version ${result.schemaVersion}, as of ${result.takenAt.toISOString()}\n`,
  );
  process.exit(0);
} catch (err) {
  if (err instanceof BackupError || err instanceof ConfigError) {
    process.stderr.write(`\n${err.message}\n\n`);
    process.exit(1);
  }
  throw err;
}
