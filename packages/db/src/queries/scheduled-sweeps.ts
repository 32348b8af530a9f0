import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * The durable scheduler's rows (services/scheduler/scheduler.ts, decision 0940): one per sweep. Every
 * time is passed in (the app's clock), never read from the database's `now()`, so a test's shifted
 * clock moves the schedule too.
 */

export interface SweepRow {
  name: string;
  everySeconds: number;
  nextRunAt: Date;
  runningUntil: Date | null;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastHandled: number | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  failures: number;
  runs: number;
}

/**
 * Creates the rows of sweeps not seen before (first run at `firstRunAt`); a known sweep keeps its
 * schedule and takes its current interval.
 */
export async function registerSweeps(
  db: Executor,
  sweeps: readonly { name: string; everySeconds: number }[],
  firstRunAt: Date,
): Promise<void> {
  if (sweeps.length === 0) return;
  await db
    .insertInto('scheduledSweeps')
    .values(sweeps.map((s) => ({ name: s.name, everySeconds: s.everySeconds, nextRunAt: firstRunAt })))
    .onConflict((oc) => oc.column('name').doUpdateSet({ everySeconds: sql`excluded.every_seconds` }))
    .execute();
}

/**
 * Claims one due sweep among `names` for this instance until `leaseUntil`: due (its next run has
 * come) and not held by a live lease. The row lock is taken with SKIP LOCKED and the lease set in the
 * same statement, so two instances never claim the same sweep; a crashed holder's lease expires.
 */
export async function claimDueSweep(
  db: Executor,
  names: readonly string[],
  now: Date,
  leaseUntil: Date,
): Promise<{ name: string; failures: number } | undefined> {
  if (names.length === 0) return undefined;
  return db
    .updateTable('scheduledSweeps')
    .set({ runningUntil: leaseUntil, lastStartedAt: now })
    .where('name', '=', (eb) =>
      eb
        .selectFrom('scheduledSweeps')
        .select('name')
        .where('name', 'in', [...names])
        .where('nextRunAt', '<=', now)
        .where((w) => w.or([w('runningUntil', 'is', null), w('runningUntil', '<=', now)]))
        .orderBy('nextRunAt')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['name', 'failures'])
    .executeTakeFirst();
}

/** A claimed sweep ran: its lease ends, its failures reset, its next run is set. */
export async function finishSweep(
  db: Executor,
  name: string,
  r: { now: Date; nextRunAt: Date; handled: number },
): Promise<void> {
  await db
    .updateTable('scheduledSweeps')
    .set((eb) => ({
      runningUntil: null,
      lastFinishedAt: r.now,
      lastHandled: r.handled,
      failures: 0,
      nextRunAt: r.nextRunAt,
      runs: eb('runs', '+', 1),
    }))
    .where('name', '=', name)
    .execute();
}

/** A claimed sweep failed: its lease ends, the error and one more failure are kept, it is retried at `nextRunAt`. */
export async function failSweep(
  db: Executor,
  name: string,
  r: { now: Date; nextRunAt: Date; error: string },
): Promise<void> {
  await db
    .updateTable('scheduledSweeps')
    .set((eb) => ({
      runningUntil: null,
      lastError: r.error,
      lastErrorAt: r.now,
      failures: eb('failures', '+', 1),
      nextRunAt: r.nextRunAt,
      runs: eb('runs', '+', 1),
    }))
    .where('name', '=', name)
    .execute();
}

/** The rows of `names`, by name. */
export function listSweeps(db: Executor, names: readonly string[]): Promise<SweepRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('scheduledSweeps')
    .select([
      'name',
      'everySeconds',
      'nextRunAt',
      'runningUntil',
      'lastStartedAt',
      'lastFinishedAt',
      'lastHandled',
      'lastError',
      'lastErrorAt',
      'failures',
      'runs',
    ])
    .where('name', 'in', [...names])
    .orderBy('name')
    .execute();
}
