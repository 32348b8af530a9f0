// pnpm db:backup [file] [--logical]: a consistent, compressed, encrypted backup of the app's
// database, taken while the app runs (issue 40, 46; README "Backup and restore").
// pnpm db:backup --verify <file> [--allow-unencrypted]: checks a backup without restoring it.
import { resolve } from 'node:path';
import { verifyBackupFile } from '@dn/db/backup-file';
import { loadConfig } from '../env';
import { backupKey, backupKeyToRead, takeBackup } from '../services/system/backup';

// pnpm runs package scripts in apps/api: a relative file or DATA_DIR means the caller's folder.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const args = process.argv.slice(2);
const verify = args.includes('--verify');
const allowed = verify ? ['--verify', '--allow-unencrypted'] : ['--logical'];
const unknown = args.filter((a) => a.startsWith('--') && !allowed.includes(a));
const files = args.filter((a) => !a.startsWith('--'));
if (unknown.length > 0 || files.length > 1 || (verify && files.length !== 1)) {
  process.stderr.write('Usage: pnpm db:backup [file] [--logical]\n       pnpm db:backup --verify <file>\n');
  process.exit(2);
}
const oneLine = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .split('\n')
    .filter(Boolean)
    .join(' ');
try {
  const config = loadConfig(process.env, { check: true });
  if (verify) {
    const file = resolve(files[0]!);
    const allowUnencrypted = args.includes('--allow-unencrypted');
    const key = backupKeyToRead(config, { allowUnencrypted });
    const v = await verifyBackupFile(file, key, { allowUnencrypted });
    const rows = v.summary ? Object.values(v.summary.tables).reduce((a, b) => a + b, 0) : null;
    process.stdout.write(
      `Backup verified: ${v.file}\n` +
        `  ${v.encrypted ? 'encrypted and authenticated' : 'NOT encrypted: its content was checked, but nothing shows it is unchanged'}, ` +
        `${v.format === 'pg_dump' ? 'pg_dump custom format' : 'logical dump'}, ${(v.bytes / 1024).toFixed(0)} KB` +
        `${rows === null ? '' : `, ${rows} rows of ${Object.keys(v.summary!.tables).length} tables`}\n` +
        (v.summary ? `  schema version ${v.summary.schemaVersion}, as of ${v.summary.takenAt.toISOString()}\n` : ''),
    );
    process.exit(0);
  }
  const result = await takeBackup({
    config,
    file: files[0],
    trigger: 'manual',
    format: args.includes('--logical') ? 'logical' : undefined,
    now: new Date(),
    key: backupKey(config),
  });
  const rows = result.tables ? Object.values(result.tables).reduce((a, b) => a + b, 0) : null;
  process.stdout.write(
    `Backup written: ${result.file}\n` +
      `  from ${result.via}, ${result.format === 'pg_dump' ? 'pg_dump custom format' : 'logical dump'}, encrypted, ` +
      `${(result.bytes / 1024).toFixed(0)} KB${rows === null ? '' : `, ${rows} rows`}\n` +
      `  schema version ${result.schemaVersion}, as of ${result.takenAt.toISOString()}\n` +
      (result.verifyError ? '' : '  verified: read back whole, every chunk authenticated\n'),
  );
  if (result.verifyError) {
    process.stderr.write(`The backup was written but does not verify: ${result.verifyError}\n`);
    process.exit(1);
  }
  process.exit(0);
} catch (err) {
  process.stderr.write(`${verify ? 'Verification failed' : 'Backup failed'}: ${oneLine(err)}\n`);
  process.exit(1);
}
