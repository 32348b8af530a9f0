import { todayIn } from './call';
import { CALL_TIME_ZONE } from './constants';
import type { ApplicationStage } from './self-service';

/**
 * Where an application stands on its status page (issue 15, docs/decisions/0640-application-status-link.md).
 * A pending application is "received" on the day it arrives (and over a weekend): the team reviews on
 * business days, so it joins the review queue when the next business day begins in the business's
 * zone. It is "under review" from then on, or sooner once an admin has acted on it (any admin audit
 * row about it), and until it is decided.
 */
export function applicationStage(
  app: { status: string; submittedAt: Date; adminActed: boolean },
  now: Date = new Date(),
): ApplicationStage {
  if (app.status === 'rejected') return 'rejected';
  if (app.status !== 'pending') return 'approved';
  if (app.adminActed) return 'under_review';
  return todayIn(CALL_TIME_ZONE, now) >= reviewStartsOn(app.submittedAt) ? 'under_review' : 'received';
}

/** The day (yyyy-mm-dd, business zone) review starts: the first business day after the submission's day. */
export function reviewStartsOn(submittedAt: Date): string {
  return nextBusinessDay(todayIn(CALL_TIME_ZONE, submittedAt));
}

/** The first Monday-to-Friday day after `day` (yyyy-mm-dd). Public holidays are not counted. */
export function nextBusinessDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString().slice(0, 10);
}
