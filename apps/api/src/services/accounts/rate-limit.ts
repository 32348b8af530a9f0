import type { DB, Kysely } from '@dn/db';
import {
  countHit,
  countHits,
  deleteExpiredWindows,
  deleteWindow,
  findWindows,
  type HitWindow,
  releaseHits,
} from '@dn/db/queries/rate-limits';
import { canonicalMailbox, plural } from '@dn/schema';
import type { Limit, RateLimits } from '../../context';
import { AppError } from '../../lib/app-error';

/** The budgets' shape is the Context's (src/context.ts, below the services); re-exported for callers. */
export type { Limit, RateLimits };

/**
 * A budget as the services name it: its key and limit. The database package's `Budget` is the same
 * with the limit spread out (`hitBudgets` turns one into the other).
 */
export type KeyedLimit = [key: string, limit: Limit];

export const DEFAULT_LIMITS: RateLimits = {
  loginPerAccount: { max: 5, windowSec: 15 * 60 },
  loginPerIp: { max: 30, windowSec: 15 * 60 },
  resetPerAccount: { max: 3, windowSec: 60 * 60 },
  resetPerIp: { max: 10, windowSec: 60 * 60 },
  signupPerIp: { max: 20, windowSec: 60 * 60 },
  callPerIp: { max: 20, windowSec: 60 * 60 },
  trackPerIp: { max: 600, windowSec: 60 },
  // Issue 35: 120 a minute x 20 answers listed the network; a typist sends a few per name.
  typeaheadPerIp: { max: 30, windowSec: 60 },
  typeaheadPerIpDaily: { max: 200, windowSec: 24 * 60 * 60 },
  mailPerRecipient: { max: 5, windowSec: 60 * 60 },
};

/** The limits with every budget multiplied (RATE_LIMIT_MULTIPLIER, for test environments). */
export function scaledLimits(limits: RateLimits, multiplier: number): RateLimits {
  if (multiplier === 1) return limits;
  return Object.fromEntries(
    Object.entries(limits).map(([k, l]) => [k, { ...l, max: l.max * multiplier }]),
  ) as unknown as RateLimits;
}

function retryMessage(retryAfterSec: number): string {
  const minutes = Math.ceil(retryAfterSec / 60);
  return retryAfterSec < 60
    ? `Too many attempts. Please try again in ${plural(retryAfterSec, 'second')}.`
    : `Too many attempts. Please try again in ${plural(minutes, 'minute')}.`;
}

/**
 * Counts one hit against a key in the database (so limits hold across restarts and
 * instances) and throws RATE_LIMITED once the window's budget is spent.
 */
export async function hit(db: Kysely<DB>, key: string, limit: Limit): Promise<void> {
  const row = await countHit(db, key, limit.windowSec);
  if (row.count > limit.max) throw limited(row.resetAt);
}

/**
 * Throws RATE_LIMITED if any of the budgets is already spent (the first one given wins), without
 * counting a hit. One statement for all of them: a refused burst costs one round trip a request.
 */
export async function check(db: Kysely<DB>, ...budgets: KeyedLimit[]): Promise<void> {
  const rows = await findWindows(
    db,
    budgets.map(([key]) => key),
  );
  for (const [key, limit] of budgets) {
    const row = rows.find((r) => r.key === key);
    if (row && row.count >= limit.max) throw limited(row.resetAt);
  }
}

/**
 * Count first, then verify (decision 0630): counts one hit against every budget in ONE statement and
 * throws RATE_LIMITED if any is over, so the caller does its expensive work (a password hash) only
 * with a reservation in hand. Concurrent attempts each see their own count: at most `max` pass.
 * Returns the keys reserved, for `release` once the attempt turns out to be legitimate.
 */
export const spend = (db: Kysely<DB>, ...budgets: KeyedLimit[]): Promise<string[]> => spendCounting(db, budgets, []);

/**
 * As `spend`, and also counts one hit on each of `alsoCounted` without being refused by them: a
 * known device's sign-in is gated by its own budget but still adds to the account's shared one,
 * whose lock the owner is told of (issue 35, finding 3). Returns every key counted.
 */
export async function spendCounting(
  db: Kysely<DB>,
  gating: readonly KeyedLimit[],
  alsoCounted: readonly KeyedLimit[],
): Promise<string[]> {
  const all = [...gating, ...alsoCounted];
  const windows = await countHits(
    db,
    all.map(([key, limit]) => ({ key, windowSec: limit.windowSec })),
  );
  const refused = overBudget(windows, gating);
  if (refused) throw refused;
  return all.map(([key]) => key);
}

/** The budgets as a statement that spends them on its way takes them (insertApplication). */
export const hitBudgets = (budgets: readonly KeyedLimit[]) =>
  budgets.map(([key, limit]) => ({ key, windowSec: limit.windowSec, max: limit.max }));

/**
 * The refusal of the first budget whose window, after this hit, is over its limit; null when all
 * are within theirs.
 */
export function overBudget(windows: readonly HitWindow[], budgets: readonly KeyedLimit[]): AppError | null {
  for (const [key, limit] of budgets) {
    const w = windows.find((r) => r.key === key);
    if (w && w.count > limit.max) return limited(w.resetAt);
  }
  return null;
}

/**
 * The per-recipient key: one budget per mailbox, whichever form or IP asks (decision 0701), the
 * canonical mailbox (issue 35, decision 0880), so `+tag`, case and gmail-dot variants share it.
 */
export const recipientKey = (email: string) => `mail:to:${canonicalMailbox(email)}`;

/**
 * Counts one anonymous email to `email` against its budget and says whether it may be sent. Call
 * it inside the transaction that queues the email: the row stays locked until the commit, so
 * concurrent requests for one address count one after the other, and a rolled-back request
 * gives its hit back. The caller decides what a refusal answers (decision 0701).
 */
export async function spendRecipient(
  db: Kysely<DB>,
  limit: Limit,
  email: string,
): Promise<{ allowed: true } | { allowed: false; error: AppError }> {
  const row = await countHit(db, recipientKey(email), limit.windowSec);
  return row.count > limit.max ? { allowed: false, error: limited(row.resetAt) } : { allowed: true };
}

/** Gives back the caller's own reservation (one hit a key); failures counted by others stay. */
export const release = (db: Kysely<DB>, keys: readonly string[]) => releaseHits(db, keys);

export const clear = (db: Kysely<DB>, key: string) => deleteWindow(db, key);
export const pruneRateLimits = (db: Kysely<DB>) => deleteExpiredWindows(db);

function limited(resetAt: Date): AppError {
  const retryAfterSec = Math.max(1, Math.ceil((new Date(resetAt).getTime() - Date.now()) / 1000));
  return new AppError('RATE_LIMITED', retryMessage(retryAfterSec), { retryAfterSec });
}
