import { expiringCompliance } from '@dn/db/queries/dealer-compliance';
import { CALL_TIME_ZONE, todayIn } from '@dn/schema';
import type { Deps } from '../../context';
import { listOnboardingDealers } from './list';

/**
 * Onboarding's sections of the daily digest to reviewers and owners (issue 38; the digest itself is
 * the scheduler's): the dealers whose onboarding is overdue, and the insurance certificates and
 * licences expiring within 30 days. Names and dates only, at most `limit` of each.
 */
export async function onboardingDigestSections(deps: Deps, limit = 50) {
  const today = todayIn(CALL_TIME_ZONE, deps.clock.now());
  const until = new Date(`${today}T00:00:00Z`);
  until.setUTCDate(until.getUTCDate() + 30);
  const [overdue, expiring] = await Promise.all([
    listOnboardingDealers(deps, { filter: 'overdue', page: 1 }),
    expiringCompliance(deps.db, today, until.toISOString().slice(0, 10), limit),
  ]);
  return {
    overdueOnboarding: overdue.items.slice(0, limit).map((d) => ({
      dealerId: d.id,
      fullName: d.fullName,
      reason: d.expired ? 'an insurance certificate or licence expired' : `onboarding call due ${d.callDueBy}`,
    })),
    moreOverdue: overdue.hasMore || overdue.items.length > limit,
    expiringDocuments: expiring,
  };
}
