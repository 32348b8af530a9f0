import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * Counts one hit against `key` in a fixed window: a new window starts when the old one has
 * passed. One statement, so concurrent hits from several instances count exactly.
 */
export async function countHit(
  db: Executor,
  key: string,
  windowSec: number,
): Promise<{ count: number; resetAt: Date }> {
  const [w] = await countHits(db, [{ key, windowSec }]);
  return w!;
}

/** The current windows of some keys, in one statement (keys without a live window are absent). */
export const findWindows = (db: Executor, keys: readonly string[]) =>
  db
    .selectFrom('rateLimits')
    .select(['key', 'count', 'resetAt'])
    .where('key', 'in', [...keys])
    .where('resetAt', '>', new Date())
    .execute();

export async function deleteWindow(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('rateLimits').where('key', '=', key).execute();
}

export async function deleteExpiredWindows(db: Executor): Promise<number> {
  const r = await db.deleteFrom('rateLimits').where('resetAt', '<=', new Date()).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A key's window after a hit: its count and when it starts again. */
export interface HitWindow {
  key: string;
  count: number;
  resetAt: Date;
}

/** A budget a statement spends: one hit against `key` in a `windowSec` window, within it while the count is at most `max`. */
export interface Budget {
  key: string;
  windowSec: number;
  max: number;
}

/**
 * The upsert that counts one hit against every key (at least one), returning each key's window: a
 * statement of its own (countHits) or the first part of one that spends budgets on its way
 * (insertApplication).
 */
export const countHitsSql = (budgets: readonly Omit<Budget, 'max'>[]) => sql<HitWindow>`
    insert into rate_limits (key, count, reset_at)
    values ${sql.join(budgets.map((b) => sql`(${b.key}, 1, now() + make_interval(secs => ${b.windowSec}))`))}
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning key, count, reset_at`;

/**
 * Counts one hit against every key at once, in ONE statement (decision 0630): the caller compares
 * the returned counts with its budgets BEFORE doing the expensive work, so concurrent attempts
 * cannot all pass a check that was read before any of them was counted.
 */
export async function countHits(db: Executor, budgets: readonly Omit<Budget, 'max'>[]): Promise<HitWindow[]> {
  if (budgets.length === 0) return [];
  return (await countHitsSql(budgets).execute(db)).rows;
}

/** Gives back one hit (the caller's own reservation) on live windows; never below zero. */
export async function releaseHits(db: Executor, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await sql`
    update rate_limits set count = greatest(count - 1, 0)
    where key in (${sql.join([...keys])}) and reset_at > now()`.execute(db);
}
