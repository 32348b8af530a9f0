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

export const findWindow = (db: Executor, key: string) =>
  db
    .selectFrom('rateLimits')
    .select(['count', 'resetAt'])
    .where('key', '=', key)
    .where('resetAt', '>', new Date())
    .executeTakeFirst();

export async function deleteWindow(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('rateLimits').where('key', '=', key).execute();
}

export async function deleteExpiredWindows(db: Executor): Promise<void> {
  await db.deleteFrom('rateLimits').where('resetAt', '<=', new Date()).execute();
}
