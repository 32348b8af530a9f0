import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * Issue 45 (decision 1022): a job that became unrouted is queued here instead of emailing the team
 * at once; the `jobs.unrouted-digest` sweep sends one digest of the queue at most every 15 minutes.
 */

export function queueUnroutedAlert(db: Executor, jobId: string, now: Date) {
  return db
    .insertInto('unroutedAlerts')
    .values({ jobId, queuedAt: now })
    .onConflict((oc) => oc.column('jobId').doNothing())
    .execute();
}

/**
 * Claims the digest: moves its clock to `now` when the last one went at least `minSeconds` ago and
 * something is queued; true for the one caller that did (the conditional update is once-only).
 */
export async function claimUnroutedDigest(db: Executor, now: Date, minSeconds: number) {
  const row = await db
    .updateTable('unroutedDigest')
    .set({ lastSentAt: now })
    .where('lastSentAt', '<=', new Date(now.getTime() - minSeconds * 1000))
    .where(sql<boolean>`exists (select 1 from unrouted_alerts)`)
    .returning('lastSentAt')
    .executeTakeFirst();
  return row !== undefined;
}

/** Empties the queue: the jobs still unrouted, with what the digest shows (no requester text but the ZIP). */
export async function takeUnroutedAlerts(db: Executor) {
  const taken = await db.deleteFrom('unroutedAlerts').returning('jobId').execute();
  if (taken.length === 0) return [];
  return db
    .selectFrom('jobs')
    .select(['id', 'zipCode', 'amount', 'createdAt'])
    .where(
      'id',
      'in',
      taken.map((t) => t.jobId),
    )
    .where('status', '=', 'unrouted')
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}
