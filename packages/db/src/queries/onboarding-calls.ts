import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * A dealer's onboarding call (issue 38): one row per dealer, booked from the portal and rebooked
 * in place; the reminder is stamped in the statement that claims it.
 */

const CALL_COLUMNS = [
  sql<string>`to_char(call_date, 'YYYY-MM-DD')`.as('date'),
  'callTime as time',
  'timeZone',
  'startsAt',
  'status',
  'reminderSentAt',
  'heldAt',
  'markedBy',
] as const;

export const onboardingCallOf = (db: Executor, dealerId: string) =>
  db.selectFrom('onboardingCalls').select(CALL_COLUMNS).where('dealerId', '=', dealerId).executeTakeFirst();

export interface CallBooking {
  date: string;
  time: string;
  timeZone: string;
  startsAt: Date;
  rescheduleTokenHash: string;
}

/**
 * Books (or rebooks) the call: a new time clears the reminder stamp and replaces the reschedule
 * token; a call already held is never rebooked (the where of the update), which returns nothing.
 */
export const bookOnboardingCall = (
  db: Executor,
  dealerId: string,
  b: CallBooking,
  at: Date,
  /** Rebook only while the call still holds this token (a reschedule link works once). */
  onlyIfToken?: string,
) => {
  const set = {
    callDate: b.date,
    callTime: b.time,
    timeZone: b.timeZone,
    startsAt: b.startsAt,
    status: 'booked' as const,
    reminderSentAt: null,
    rescheduleTokenHash: b.rescheduleTokenHash,
    heldAt: null,
    markedBy: null,
    updatedAt: at,
  };
  return db
    .insertInto('onboardingCalls')
    .values({ dealerId, ...set })
    .onConflict((oc) => {
      const update = oc.column('dealerId').doUpdateSet(set).where('onboardingCalls.status', '<>', 'held');
      return onlyIfToken === undefined ? update : update.where('onboardingCalls.rescheduleTokenHash', '=', onlyIfToken);
    })
    .returning(CALL_COLUMNS)
    .executeTakeFirst();
};

/**
 * The call a reschedule token names, if it is still booked and has not started; the rebooking
 * replaces the token only while it is still the one (bookOnboardingCall's `onlyIfToken`).
 */
export const findCallByToken = (db: Executor, tokenHash: string, now: Date) =>
  db
    .selectFrom('onboardingCalls as c')
    .innerJoin('dealers as d', 'd.id', 'c.dealerId')
    .select(['c.dealerId', 'd.email', 'd.fullName', 'd.status as dealerStatus'])
    .where('c.rescheduleTokenHash', '=', tokenHash)
    .where('c.status', '=', 'booked')
    .where('c.startsAt', '>', now)
    .executeTakeFirst();

export const markOnboardingCall = (db: Executor, dealerId: string, status: 'held' | 'no_show', by: string, at: Date) =>
  db
    .updateTable('onboardingCalls')
    .set({ status, heldAt: status === 'held' ? at : null, markedBy: by, updatedAt: at, rescheduleTokenHash: null })
    .where('dealerId', '=', dealerId)
    .returning(CALL_COLUMNS)
    .executeTakeFirst();

export interface DueCallReminder {
  dealerId: string;
  date: string;
  time: string;
  timeZone: string;
  startsAt: Date;
  email: string;
  fullName: string;
}

/**
 * Claims the reminders of booked calls starting within `within` of `now` (and not yet started):
 * the conditional update stamps `reminder_sent_at`, so one instance claims each, once; the caller
 * queues the email in the same transaction.
 */
export async function claimCallReminders(
  db: Executor,
  now: Date,
  horizon: Date,
  limit: number,
): Promise<DueCallReminder[]> {
  const r = await sql<DueCallReminder>`
    with due as (
      select dealer_id from onboarding_calls
      where status = 'booked' and reminder_sent_at is null and starts_at > ${now} and starts_at <= ${horizon}
      order by starts_at
      limit ${limit}
      for update skip locked
    ), claimed as (
      update onboarding_calls c set reminder_sent_at = ${now}
      from due where c.dealer_id = due.dealer_id and c.reminder_sent_at is null
      returning c.dealer_id, c.call_date, c.call_time, c.time_zone, c.starts_at
    )
    select c.dealer_id as "dealerId", to_char(c.call_date, 'YYYY-MM-DD') as date, c.call_time as time,
      c.time_zone as "timeZone", c.starts_at as "startsAt", d.email, d.full_name as "fullName"
    from claimed c join dealers d on d.id = c.dealer_id`.execute(db);
  return r.rows;
}

/** Puts a fresh reschedule token on a call (the reminder carries its own link). */
export const setRescheduleToken = (db: Executor, dealerId: string, tokenHash: string) =>
  db.updateTable('onboardingCalls').set({ rescheduleTokenHash: tokenHash }).where('dealerId', '=', dealerId).execute();
