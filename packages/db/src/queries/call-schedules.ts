import type { Insertable, Selectable } from 'kysely';
import type { DB } from '../types';
import type { Executor } from './executor';

/** Free calls booked from the site, and their status as the admin follows them up. */

type CallStatus = Selectable<DB['callSchedules']>['status'];

const LISTED = [
  'id',
  'name',
  'email',
  'phone',
  'preferredDate',
  'preferredTime',
  'status',
  'notes',
  'createdAt',
] as const;

/** Books a call; the partial unique index on (lower(email), date, window) refuses a second booking of a slot. */
export function insertCallSchedule(db: Executor, values: Insertable<DB['callSchedules']>) {
  return db
    .insertInto('callSchedules')
    .values(values)
    .returning(['id', 'name', 'email', 'phone', 'preferredDate', 'preferredTime', 'status'])
    .executeTakeFirstOrThrow();
}

/** Scheduled calls first, soonest first (at most 500); then the others, newest first (at most 200). */
export async function listCallSchedules(db: Executor) {
  const [scheduled, others] = await Promise.all([
    db
      .selectFrom('callSchedules')
      .select(LISTED)
      .where('status', '=', 'scheduled')
      .orderBy('preferredDate', 'asc')
      .orderBy('createdAt', 'asc')
      .limit(500)
      .execute(),
    db
      .selectFrom('callSchedules')
      .select(LISTED)
      .where('status', '<>', 'scheduled')
      .orderBy('createdAt', 'desc')
      .limit(200)
      .execute(),
  ]);
  return [...scheduled, ...others];
}

/** A call locked for the transaction that changes it. */
export function lockCallSchedule(db: Executor, id: string) {
  return db
    .selectFrom('callSchedules')
    .select(['id', 'email', 'status', 'preferredDate', 'preferredTime'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateCallStatus(db: Executor, id: string, status: CallStatus): Promise<void> {
  await db.updateTable('callSchedules').set({ status, updatedAt: new Date() }).where('id', '=', id).execute();
}

/**
 * Issue 38: the free call's reminder and its reschedule/cancel link. Scheduled calls not yet reminded
 * whose date is within [fromDate, toDate] (the sweep computes which start within 24 hours).
 */
export function listCallsToRemind(db: Executor, fromDate: string, toDate: string) {
  return db
    .selectFrom('callSchedules')
    .select(['id', 'preferredDate', 'preferredTime'])
    .where('status', '=', 'scheduled')
    .where('reminderSentAt', 'is', null)
    .where('preferredDate', '>=', fromDate)
    .where('preferredDate', '<=', toDate)
    .orderBy('preferredDate')
    .limit(500)
    .execute();
}

/**
 * Stamps a call's reminder as sent and stores its link's token hash, once: only while the call is
 * scheduled and not yet reminded (the caller queues the email in the same transaction).
 */
export function stampCallReminder(
  db: Executor,
  id: string,
  r: { sentAt: Date; tokenHash: string; tokenExpiresAt: Date },
) {
  return db
    .updateTable('callSchedules')
    .set({ reminderSentAt: r.sentAt, manageTokenHash: r.tokenHash, manageTokenExpiresAt: r.tokenExpiresAt })
    .where('id', '=', id)
    .where('status', '=', 'scheduled')
    .where('reminderSentAt', 'is', null)
    .returning(['id', 'name', 'email', 'phone', 'preferredDate', 'preferredTime', 'status'])
    .executeTakeFirst();
}

/** The call a reschedule/cancel link opens (by its token's hash), live or not. */
export function findCallByManageToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('callSchedules')
    .select(['id', 'name', 'email', 'phone', 'preferredDate', 'preferredTime', 'status', 'manageTokenExpiresAt'])
    .where('manageTokenHash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Uses a call's link once: cancels the call, or moves it to another slot (its reminder to be sent
 * again). Only while the token is the call's, unexpired and the call scheduled; the token is cleared.
 */
export function useCallManageToken(
  db: Executor,
  tokenHash: string,
  now: Date,
  change: { status: 'cancelled' } | { preferredDate: string; preferredTime: 'morning' | 'afternoon' | 'evening' },
) {
  return db
    .updateTable('callSchedules')
    .set({
      ...change,
      ...('preferredDate' in change ? { reminderSentAt: null } : {}),
      manageTokenHash: null,
      manageTokenExpiresAt: null,
      updatedAt: now,
    })
    .where('manageTokenHash', '=', tokenHash)
    .where('manageTokenExpiresAt', '>', now)
    .where('status', '=', 'scheduled')
    .returning(['id', 'name', 'email', 'phone', 'preferredDate', 'preferredTime', 'status'])
    .executeTakeFirst();
}
