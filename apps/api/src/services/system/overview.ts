import { latestBackupRuns, latestFailedMail, systemSamplesSince } from '@dn/db/queries/system';
import type { Context } from '../../context';
import { systemFigures } from './figures';
import { SAMPLES_KEPT_MS } from './sweeps';

/** Failed emails and backup runs the System page lists. */
const LISTED = 10;

/**
 * The admin's System page (issue 40): the figures /metrics exports, for people: queue depths now,
 * the latest failures with their errors, the latest backups, and the last 24 hours' samples.
 */
export async function systemOverview(ctx: Context) {
  const now = ctx.clock.now();
  // One after another: the embedded database answers one statement at a time anyway.
  const figures = await systemFigures(ctx);
  const failures = await latestFailedMail(ctx.db, LISTED);
  const backups = await latestBackupRuns(ctx.db, LISTED);
  const samples = await systemSamplesSince(ctx.db, new Date(now.getTime() - SAMPLES_KEPT_MS));
  return {
    now: now.toISOString(),
    queues: {
      mailWaiting: figures.mailWaiting,
      mailOldestSeconds: Math.round(figures.mailOldestSeconds),
      mailFailed: figures.mailFailed,
      tasksDue: figures.tasksDue,
      tasksOverdue: figures.tasksOverdue,
      tasksFailed: figures.tasksFailed,
      jobsWaiting: figures.jobsWaiting,
      jobsOldestSeconds: figures.jobsOldestSeconds === null ? null : Math.round(figures.jobsOldestSeconds),
    },
    failures: failures.map((f) => ({
      id: f.id,
      kind: f.kind,
      toAddress: f.toAddress,
      attempts: f.attempts,
      error: f.lastError ?? '',
      failedAt: f.failedAt.toISOString(),
    })),
    backups: backups.map((b) => ({
      id: b.id,
      trigger: b.trigger,
      file: b.file,
      bytes: b.bytes === null ? null : Number(b.bytes),
      schemaVersion: b.schemaVersion,
      startedAt: b.startedAt.toISOString(),
      finishedAt: b.finishedAt?.toISOString() ?? null,
      error: b.error,
      encrypted: b.encrypted,
      verifiedAt: b.verifiedAt?.toISOString() ?? null,
      verifyError: b.verifyError,
    })),
    samples: samples.map((s) => ({ at: s.takenAt.toISOString(), ...s.figures })),
  };
}
