import type { Executor } from './executor';

/** The reviewers' daily digest (issue 38): one row per business date it went out for. */

/**
 * Claims the digest of `businessDate`: true for the one caller that inserts its row (in the
 * transaction that queues the emails), false when it was already sent.
 */
export async function claimDigest(
  db: Executor,
  d: { businessDate: string; sentAt: Date; recipients: number; pending: number; overdue: number },
): Promise<boolean> {
  const rows = await db
    .insertInto('dailyDigests')
    .values(d)
    .onConflict((oc) => oc.column('businessDate').doNothing())
    .returning('businessDate')
    .execute();
  return rows.length === 1;
}

export const findDigest = (db: Executor, businessDate: string) =>
  db.selectFrom('dailyDigests').selectAll().where('businessDate', '=', businessDate).executeTakeFirst();
