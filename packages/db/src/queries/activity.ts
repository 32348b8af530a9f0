import { type ExpressionBuilder, sql } from 'kysely';
import { isoTimestamp } from '../json-text';
import type { DB } from '../types';
import type { Executor } from './executor';

/**
 * The Activity tab (issue 14): the audit trail, newest first, filtered and paged by keyset on
 * (created_at, id). Every filter has an index leading with it and ending (created_at desc, id
 * desc), migration 2026-11-24-0610, so a page reads its rows and stops.
 */

/**
 * Who did it: the signed-in user's name (audit.ts writes `actor`), or for a sign-in attempt the
 * account it named (`account`). The same expression as the index, so the index serves it.
 */
export const ACTOR = sql<string | null>`coalesce(a.details ->> 'actor', a.details ->> 'account')`;

export interface ActivityFilter {
  actor?: string | undefined;
  eventType?: string | undefined;
  dealerId?: string | undefined;
  /** Inclusive lower bound. */
  from?: Date | undefined;
  /** Exclusive upper bound. */
  to?: Date | undefined;
}

function where(eb: ExpressionBuilder<DB & { a: DB['auditLogs'] }, 'a'>, f: ActivityFilter) {
  const and = [];
  if (f.actor) and.push(eb(ACTOR, '=', f.actor));
  if (f.eventType) and.push(eb('a.eventType', '=', f.eventType));
  if (f.dealerId) and.push(eb('a.dealerId', '=', f.dealerId));
  if (f.from) and.push(eb('a.createdAt', '>=', f.from));
  if (f.to) and.push(eb('a.createdAt', '<', f.to));
  return eb.and(and);
}

const COLUMNS = [
  'a.id',
  'a.createdAt',
  'a.eventType',
  'a.category',
  'a.message',
  'a.dealerId',
  'a.success',
  'a.errorMessage',
  'a.ipAddress',
  'a.userAgent',
  'a.userAgentParsed',
] as const;

/** Keyset: the rows after `after` in newest-first order (older, or as old with a smaller id). */
const olderThan = (after: string) =>
  sql<boolean>`(a.created_at, a.id) < (select c.created_at, c.id from audit_logs c where c.id = ${after})`;

/**
 * One page after the row `after` (an audit id from the previous page), `limit` rows and whether
 * more follow. The cursor's position is read from its row, so timestamps keep their microseconds.
 */
export async function activityPage(db: Executor, f: ActivityFilter, after: string | null, limit: number) {
  let q = db
    .selectFrom('auditLogs as a')
    .leftJoin('dealers as d', 'd.id', 'a.dealerId')
    .select([...COLUMNS, ACTOR.as('actor'), 'd.fullName as dealerName'])
    .where((eb) => where(eb, f));
  if (after) q = q.where(olderThan(after));
  const rows = await q
    .orderBy('a.createdAt', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  if (more) rows.pop();
  return { rows, next: more ? (rows.at(-1)?.id ?? null) : null };
}

/** The event types in the trail, for the filter's picker. */
export const activityEventTypes = async (db: Executor): Promise<string[]> =>
  (
    await db
      .selectFrom('auditLogs')
      .select('eventType')
      .distinct()
      .where('eventType', 'is not', null)
      .orderBy('eventType')
      .limit(500)
      .execute()
  ).map((r) => r.eventType as string);

/** The CSV's columns: header and the field of activityExportBatch's rows it is read from. */
export const ACTIVITY_EXPORT_COLUMNS = [
  ['Time', 'time'],
  ['Actor', 'actor'],
  ['Event', 'event'],
  ['Success', 'success'],
  ['Message', 'message'],
  ['Dealer ID', 'dealerId'],
  ['Dealer', 'dealer'],
  ['IP', 'ip'],
  ['User Agent', 'userAgent'],
  ['Browser', 'browser'],
  ['OS', 'os'],
  ['Error', 'error'],
] as const;

/** One batch of the export, as text cells, in the page order; `after` as activityPage's. */
export async function activityExportBatch(db: Executor, f: ActivityFilter, after: string | null, limit: number) {
  let q = db
    .selectFrom('auditLogs as a')
    .leftJoin('dealers as d', 'd.id', 'a.dealerId')
    .select([
      sql<string>`a.id::text`.as('id'),
      isoTimestamp(sql.ref('a.created_at')).as('time'),
      ACTOR.as('actor'),
      'a.eventType as event',
      sql<string>`a.success::text`.as('success'),
      'a.message',
      sql<string | null>`a.dealer_id::text`.as('dealerId'),
      'd.fullName as dealer',
      'a.ipAddress as ip',
      'a.userAgent',
      sql<string | null>`a.user_agent_parsed ->> 'browser'`.as('browser'),
      sql<string | null>`a.user_agent_parsed ->> 'os'`.as('os'),
      'a.errorMessage as error',
    ])
    .where((eb) => where(eb, f));
  if (after) q = q.where(olderThan(after));
  const rows = await q.orderBy('a.createdAt', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
  return { rows, next: rows.length === limit ? (rows.at(-1)?.id ?? null) : null };
}
