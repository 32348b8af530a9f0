import { dealersWithOnboarding, type OnboardingFlags, onboardingFlagsOf } from '@dn/db/queries/onboarding-summary';
import { CALL_TIME_ZONE, ONBOARDING_STEPS, type OnboardingListQuery, todayIn } from '@dn/schema';
import type { Context, Deps } from '../../context';
import { zonedInstant } from '../../lib/business-days';
import { callDueBy } from './status';

/** The admin's dealer list and its onboarding: a column per page, and the incomplete / overdue lists. */

const PAGE_SIZE = 50;

const plusDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/**
 * The instant before which an approval makes the onboarding call overdue today: the start (in the
 * business's zone) of the day after the last approval day whose due date is already past.
 */
export function overdueBefore(today: string): Date {
  let day = plusDays(today, -1);
  // callDueBy grows with the approval day: walk back to the last one due before today (<= 2 weeks).
  while ((callDueBy(zonedInstant(day, '12:00', CALL_TIME_ZONE)) ?? today) >= today) day = plusDays(day, -1);
  return zonedInstant(plusDays(day, 1), '00:00', CALL_TIME_ZONE);
}

function summaryOf(f: OnboardingFlags, today: string) {
  const keys = ONBOARDING_STEPS[f.tier];
  const doneOf = {
    agreement: f.agreement,
    onboardingCall: f.call,
    initialInventory: f.inventory,
    insurance: f.insurance,
    license: f.license,
  };
  const done = keys.filter((k) => doneOf[k]).length;
  const due = callDueBy(f.approvalDate);
  return {
    id: f.id,
    fullName: f.fullName,
    companyName: f.companyName,
    tier: f.tier,
    status: f.status,
    approvalDate: f.approvalDate?.toISOString() ?? null,
    done,
    total: keys.length,
    complete: done === keys.length,
    overdue: (!f.call && due !== null && due < today) || f.expired,
    expired: f.expired,
    callDueBy: due,
  };
}

/** The onboarding column of a page of dealers (the approved ones among `ids`). */
export async function onboardingSummaries(ctx: Context, ids: readonly string[]) {
  const today = todayIn(CALL_TIME_ZONE, ctx.clock.now());
  const rows = await onboardingFlagsOf(ctx.db, ids, today);
  return rows.map((r) => summaryOf(r, today));
}

export async function listOnboardingDealers(ctx: Deps, query: OnboardingListQuery) {
  const today = todayIn(CALL_TIME_ZONE, ctx.clock.now());
  const rows = await dealersWithOnboarding(
    ctx.db,
    query.filter,
    today,
    overdueBefore(today),
    PAGE_SIZE + 1,
    (query.page - 1) * PAGE_SIZE,
  );
  return {
    items: rows.slice(0, PAGE_SIZE).map((r) => summaryOf(r, today)),
    page: query.page,
    hasMore: rows.length > PAGE_SIZE,
  };
}
