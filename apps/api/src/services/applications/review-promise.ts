import { REVIEW_BUSINESS_DAYS } from '@dn/schema';
import type { Deps } from '../../context';
import {
  addBusinessDays,
  addDays,
  businessDaysBetween,
  isBusinessDay,
  localDate,
  zonedTime,
} from '../../lib/business-days';
import { businessSettings } from '../accounts/business-settings';

/**
 * The review promise (issue 38, decision 0942): "Application review within 2-3 business days". An
 * application's age is the business days after the day it was submitted up to today, both in the
 * business's time zone; over REVIEW_BUSINESS_DAYS it is overdue. A decision is expected by the
 * REVIEW_BUSINESS_DAYS-th business day after the submission's day.
 */

/** The business day a decision on an application submitted at `submittedAt` is expected by. */
export const decisionExpectedBy = (submittedAt: Date, timeZone: string) =>
  addBusinessDays(localDate(submittedAt, timeZone), REVIEW_BUSINESS_DAYS);

/**
 * The instant before which a submission is overdue on `today`: the start (in `timeZone`) of the
 * (REVIEW_BUSINESS_DAYS + 1)-th business day counted back from today, today included.
 */
export function overdueBefore(today: string, timeZone: string): Date {
  let d = today;
  let found = isBusinessDay(d) ? 1 : 0;
  while (found < REVIEW_BUSINESS_DAYS + 1) {
    d = addDays(d, -1);
    if (isBusinessDay(d)) found++;
  }
  return zonedTime(d, 0, timeZone);
}

/** How the queue reads at `now`: the time zone, today, and the overdue line. */
export async function reviewClock(deps: Pick<Deps, 'db' | 'clock'>) {
  const { timeZone } = await businessSettings(deps);
  const now = deps.clock.now();
  const today = localDate(now, timeZone);
  return { timeZone, today, overdueBefore: overdueBefore(today, timeZone) };
}

export function describeApplication(
  a: {
    id: string;
    fullName: string;
    companyName: string | null;
    email: string;
    tier: string;
    createdAt: Date | string;
  },
  c: { timeZone: string; today: string },
) {
  const submittedAt = new Date(a.createdAt);
  const ageBusinessDays = businessDaysBetween(localDate(submittedAt, c.timeZone), c.today);
  return {
    id: a.id,
    fullName: a.fullName,
    companyName: a.companyName,
    email: a.email,
    tier: a.tier,
    submittedAt: submittedAt.toISOString(),
    ageBusinessDays,
    overdue: ageBusinessDays > REVIEW_BUSINESS_DAYS,
    decisionExpectedBy: decisionExpectedBy(submittedAt, c.timeZone),
  };
}
