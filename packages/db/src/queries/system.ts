import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * The operator's figures (issue 40): what /metrics exports and the admin's System page shows,
 * read in ONE statement at every scrape, so a scrape costs one round trip. Each part reads an
 * index: the waiting emails through `email_outbox_queue_priority_idx` (their partial index),
 * the failed ones through `email_outbox_failed_idx`, the last backup through `backup_runs_started_idx`,
 * the jobs waiting for an installer through `jobs_status_created_idx`.
 *
 * The scheduler's sweeps (issue 38: due, overdue, failing) are counted over their small table; issue
 * 37's jobs waiting for an installer (offered or unrouted: count, oldest age, 0 when none) are two more.
 */
export interface SystemFigures {
  mailWaiting: number;
  /** Seconds the oldest waiting email has waited, 0 when none waits. */
  mailOldestSeconds: number;
  mailFailed: number;
  lastBackupAt: Date | null;
  lastBackupError: string | null;
  tasksDue: number | null;
  tasksOverdue: number | null;
  tasksFailed: number | null;
  jobsWaiting: number | null;
  jobsOldestSeconds: number | null;
}

/** The figures' one statement (readSystemFigures); exported for its plan test. */
export const systemFiguresSql = (now: Date) => sql<{
  mailWaiting: number;
  mailOldestSeconds: number;
  mailFailed: number;
  lastBackupAt: Date | null;
  lastBackupError: string | null;
  tasksDue: number;
  tasksOverdue: number;
  tasksFailed: number;
  jobsWaiting: number;
  jobsOldestSeconds: number;
}>`
    select
      (select count(*)::int from email_outbox where status in ('pending', 'sending')) as mail_waiting,
      coalesce((select extract(epoch from (${now}::timestamptz - min(created_at)))::float8
        from email_outbox where status in ('pending', 'sending')), 0) as mail_oldest_seconds,
      (select count(*)::int from email_outbox where status = 'failed') as mail_failed,
      b.finished_at as last_backup_at, b.error as last_backup_error,
      t.due as tasks_due, t.overdue as tasks_overdue, t.failed as tasks_failed,
      -- Issue 37's jobs waiting for an installer: offered (an open offer, not yet taken) or unrouted
      -- (nobody eligible; the admin's queue). jobs_status_created_idx (status, created_at): the count
      -- reads only the waiting jobs' entries, the oldest is one probe per status.
      (select count(*)::int from jobs where status in ('offered', 'unrouted')) as jobs_waiting,
      coalesce(extract(epoch from (${now}::timestamptz - least(
        (select min(created_at) from jobs where status = 'offered'),
        (select min(created_at) from jobs where status = 'unrouted'))))::float8, 0) as jobs_oldest_seconds
    from (select 1) one
    left join lateral (select finished_at, coalesce(error, 'verification failed: ' || verify_error) as error
      from backup_runs order by started_at desc limit 1) b on true
    -- The scheduler's sweeps (issue 38; one row each, a few dozen): due and not running; overdue when
    -- a whole interval and a minute have passed since it was due (no instance took it); failing now.
    cross join lateral (
      select
        count(*) filter (where next_run_at <= ${now} and (running_until is null or running_until < ${now}))::int as due,
        count(*) filter (where next_run_at < ${now}::timestamptz - make_interval(secs => every_seconds + 60)
          and (running_until is null or running_until < ${now}))::int as overdue,
        count(*) filter (where failures > 0)::int as failed
      from scheduled_sweeps) t`;

export async function readSystemFigures(db: Executor, now: Date): Promise<SystemFigures> {
  const row = (await systemFiguresSql(now).execute(db)).rows[0]!;
  return {
    ...row,
    mailOldestSeconds: Math.max(0, Number(row.mailOldestSeconds)),
    jobsOldestSeconds: Math.max(0, Number(row.jobsOldestSeconds)),
  };
}

export interface FailedMail {
  id: string;
  kind: string;
  toAddress: string;
  lastError: string | null;
  attempts: number;
  failedAt: Date;
}

/** The latest emails given up on, newest first (email_outbox_failed_idx). */
export async function latestFailedMail(db: Executor, limit: number): Promise<FailedMail[]> {
  return db
    .selectFrom('emailOutbox')
    .select(['id', 'kind', 'toAddress', 'lastError', 'attempts', 'nextAttemptAt as failedAt'])
    .where('status', '=', 'failed')
    .orderBy('nextAttemptAt', 'desc')
    .limit(limit)
    .execute();
}

/** Keeps one sample per `takenAt` (instances racing for the same slot write it once). */
export async function insertSystemSample(
  db: Executor,
  takenAt: Date,
  figures: Record<string, number>,
): Promise<boolean> {
  const r = await db
    .insertInto('systemSamples')
    .values({ takenAt, figures: JSON.stringify(figures) })
    .onConflict((oc) => oc.column('takenAt').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function pruneSystemSamples(db: Executor, before: Date): Promise<number> {
  const r = await db.deleteFrom('systemSamples').where('takenAt', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function systemSamplesSince(
  db: Executor,
  since: Date,
): Promise<{ takenAt: Date; figures: Record<string, number> }[]> {
  return db
    .selectFrom('systemSamples')
    .select(['takenAt', 'figures'])
    .where('takenAt', '>=', since)
    .orderBy('takenAt')
    .execute();
}

export interface BackupRun {
  id: string;
  startedAt: Date;
  finishedAt: Date | null;
  trigger: 'manual' | 'scheduled';
  file: string;
  bytes: string | null;
  schemaVersion: string;
  error: string | null;
  encrypted: boolean;
  verifiedAt: Date | null;
  verifyError: string | null;
}

/** When the last scheduled backup that worked (written, and read back whole: issue 46) finished, or null. */
export async function lastScheduledBackupAt(db: Executor): Promise<Date | null> {
  const row = await db
    .selectFrom('backupRuns')
    .select('finishedAt')
    .where('trigger', '=', 'scheduled')
    .where('error', 'is', null)
    .where('verifyError', 'is', null)
    .orderBy('startedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.finishedAt ?? null;
}

export async function latestBackupRuns(db: Executor, limit: number): Promise<BackupRun[]> {
  return db
    .selectFrom('backupRuns')
    .select([
      'id',
      'startedAt',
      'finishedAt',
      'trigger',
      'file',
      'bytes',
      'schemaVersion',
      'error',
      'encrypted',
      'verifiedAt',
      'verifyError',
    ])
    .orderBy('startedAt', 'desc')
    .limit(limit)
    .execute();
}
