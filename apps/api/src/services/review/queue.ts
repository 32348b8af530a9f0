import { countPendingApplications, listPendingApplications } from '@dn/db/queries/review-queue';
import { REVIEW_BUSINESS_DAYS } from '@dn/schema';
import type { Deps } from '../../context';
import { describeApplication, reviewClock } from '../applications/review-promise';

/** The Applications section's review queue (issue 38): the rule is applications/review-promise.ts. */

export const QUEUE_LIMIT = 200;

/** The pending applications, oldest (so overdue) first, with their ages; `overdue`: only those. */
export async function reviewQueue(deps: Pick<Deps, 'db' | 'clock'>, input: { overdue?: boolean | undefined }) {
  const c = await reviewClock(deps);
  const [rows, counts] = await Promise.all([
    listPendingApplications(deps.db, {
      limit: QUEUE_LIMIT,
      submittedBefore: input.overdue ? c.overdueBefore : undefined,
    }),
    countPendingApplications(deps.db, c.overdueBefore),
  ]);
  return {
    timeZone: c.timeZone,
    today: c.today,
    reviewBusinessDays: REVIEW_BUSINESS_DAYS,
    pending: counts.pending,
    overdue: counts.overdue,
    items: rows.map((r) => describeApplication(r, c)),
  };
}
