import { type DB, type Kysely, sql } from '@dn/db';
import { AppError } from '../lib/app-error';

export interface Limit {
  max: number;
  windowSec: number;
}

/** Tight where they protect something: failed sign-ins and anything that sends email. */
export interface RateLimits {
  loginPerAccount: Limit;
  loginPerIp: Limit;
  resetPerAccount: Limit;
  resetPerIp: Limit;
  signupPerIp: Limit;
  callPerIp: Limit;
  trackPerIp: Limit;
}

export const DEFAULT_LIMITS: RateLimits = {
  loginPerAccount: { max: 5, windowSec: 15 * 60 },
  loginPerIp: { max: 30, windowSec: 15 * 60 },
  resetPerAccount: { max: 3, windowSec: 60 * 60 },
  resetPerIp: { max: 10, windowSec: 60 * 60 },
  signupPerIp: { max: 20, windowSec: 60 * 60 },
  callPerIp: { max: 20, windowSec: 60 * 60 },
  trackPerIp: { max: 600, windowSec: 60 },
};

function retryMessage(retryAfterSec: number): string {
  const minutes = Math.ceil(retryAfterSec / 60);
  return retryAfterSec < 60
    ? `Too many attempts. Please try again in ${retryAfterSec} seconds.`
    : `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/**
 * Counts one hit against a key in the database (so limits hold across restarts and
 * instances) and throws RATE_LIMITED once the window's budget is spent.
 */
export async function hit(db: Kysely<DB>, key: string, limit: Limit): Promise<void> {
  const row = await sql<{ count: number; resetAt: Date }>`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${limit.windowSec}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at`
    .execute(db)
    .then((r) => r.rows[0]!);
  if (row.count > limit.max) throw limited(row.resetAt);
}

/** Throws RATE_LIMITED if the key's budget is already spent, without counting a hit. */
export async function check(db: Kysely<DB>, key: string, limit: Limit): Promise<void> {
  const row = await db
    .selectFrom('rateLimits')
    .select(['count', 'resetAt'])
    .where('key', '=', key)
    .where('resetAt', '>', new Date())
    .executeTakeFirst();
  if (row && row.count >= limit.max) throw limited(row.resetAt);
}

export async function clear(db: Kysely<DB>, key: string): Promise<void> {
  await db.deleteFrom('rateLimits').where('key', '=', key).execute();
}

export async function pruneRateLimits(db: Kysely<DB>): Promise<void> {
  await db.deleteFrom('rateLimits').where('resetAt', '<=', new Date()).execute();
}

function limited(resetAt: Date): AppError {
  const retryAfterSec = Math.max(1, Math.ceil((new Date(resetAt).getTime() - Date.now()) / 1000));
  return new AppError('RATE_LIMITED', retryMessage(retryAfterSec), { retryAfterSec });
}
