import { mkdirSync } from 'node:fs';
import { insertSystemSample, lastScheduledBackupAt, pruneSystemSamples } from '@dn/db/queries/system';
import type { Deps } from '../../context';
import { appBackupKey, pruneBackups, takeBackup } from './backup';
import { systemFigures } from './figures';

/** The System page's samples: one every SAMPLE_SECONDS, kept SAMPLES_KEPT_MS (its 24-hour chart). */
export const SAMPLE_SECONDS = 300;
export const SAMPLES_KEPT_MS = 24 * 3_600_000;
/** A scheduled backup is due this long after the last one that worked. */
export const BACKUP_EVERY_MS = 24 * 3_600_000;

/**
 * Records the queue figures for the chart, once per SAMPLE_SECONDS slot (the slot's time is the
 * row's key, so instances racing for one slot write it once), and drops samples older than a day.
 */
export async function sampleSystem(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const slot = new Date(Math.floor(now.getTime() / (SAMPLE_SECONDS * 1000)) * SAMPLE_SECONDS * 1000);
  const f = await systemFigures(deps);
  const figures: Record<string, number> = {
    mailWaiting: f.mailWaiting,
    mailOldestSeconds: Math.round(f.mailOldestSeconds),
    mailFailed: f.mailFailed,
  };
  for (const [key, value] of [
    ['tasksDue', f.tasksDue],
    ['tasksOverdue', f.tasksOverdue],
    ['tasksFailed', f.tasksFailed],
    ['jobsWaiting', f.jobsWaiting],
    ['jobsOldestSeconds', f.jobsOldestSeconds],
  ] as const) {
    if (value !== null) figures[key] = Math.round(value);
  }
  const inserted = await insertSystemSample(deps.db, slot, figures);
  await pruneSystemSamples(deps.db, new Date(now.getTime() - SAMPLES_KEPT_MS));
  return inserted ? 1 : 0;
}

/**
 * The daily backup of the embedded database (or of PostgreSQL) into BACKUP_DIR when it is set:
 * due a day after the last scheduled one that worked; then only the newest BACKUP_KEEP are kept.
 * Each is read back after it is written (issue 46): one that does not verify fails the sweep (so it
 * is tried again within the hour, and shows on the System page) and prunes nothing.
 */
export async function scheduledBackup(deps: Deps): Promise<number> {
  const dir = deps.config.backupDir;
  if (!dir) return 0;
  const now = deps.clock.now();
  const last = await lastScheduledBackupAt(deps.db);
  if (last && now.getTime() - last.getTime() < BACKUP_EVERY_MS) return 0;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const result = await takeBackup({
    config: deps.config,
    dir,
    trigger: 'scheduled',
    now,
    key: appBackupKey(deps.config),
  });
  if (result.verifyError) {
    throw new Error(`The backup ${result.file} was written but does not verify: ${result.verifyError}`);
  }
  const pruned = pruneBackups(dir, deps.config.backupKeep ?? 7);
  deps.log.info({ file: result.file, bytes: result.bytes, pruned }, 'scheduled backup written');
  return 1;
}
