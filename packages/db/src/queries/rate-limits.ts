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
  const r = await sql<{ count: number; resetAt: Date }>`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${windowSec}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at`.execute(db);
  return r.rows[0]!;
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

export async function deleteExpiredWindows(db: Executor): Promise<void> {
  await db.deleteFrom('rateLimits').where('resetAt', '<=', new Date()).execute();
}
