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
