/**
 * The periodic work of every domain (reminders, deadlines, expiries, digests), as sweeps: each finds
 * what is due by `deps.clock` and acts on it once; a conditional update in the same transaction as
 * its effect makes it once-only across instances and restarts. The scheduler runs each every
 * `everySeconds`, one instance at a time. A domain appends its sweeps here.
 */
import { pruneExpiredSessions } from '@dn/db/queries/sessions';
import type { Deps } from '../../context';
import { pruneRateLimits } from '../accounts/rate-limit';
import { sendCallReminders } from '../calls/reminders';
import { expireDueOffers } from '../jobs/expiry';
import { sendOfferReminders } from '../jobs/offer-mail';
import { withdrawIneligibleOffers } from '../jobs/offers';
import { refreshInstallerScores } from '../jobs/scores';
import { sendUnroutedDigest } from '../jobs/unrouted-digest';
import { remindComplianceExpiries, remindOnboardingCalls } from '../onboarding/sweeps';
import { sendDailyDigest } from '../review/digest';
import { SAMPLE_SECONDS, sampleSystem, scheduledBackup } from '../system/sweeps';

export interface Sweep {
  /** Stable and unique: the scheduler's row for it is keyed by this name. */
  name: string;
  everySeconds: number;
  /** Acts on what is due; resolves with how many things it handled. */
  run(deps: Deps): Promise<number>;
}

export const SWEEPS: Sweep[] = [
  // What server.ts's housekeeping interval did (issue 38): expired sessions and rate-limit windows.
  { name: 'accounts.prune-sessions', everySeconds: 600, run: (deps) => pruneExpiredSessions(deps.db) },
  { name: 'accounts.prune-rate-limits', everySeconds: 600, run: (deps) => pruneRateLimits(deps.db) },
  // Issue 38: the free call's reminder 24 hours before (decision 0943), the reviewers' 08:00 digest (0942),
  // the onboarding call's reminder and the insurance and licence expiry notices (0950-0953).
  { name: 'calls.reminders', everySeconds: 60, run: sendCallReminders },
  { name: 'review.daily-digest', everySeconds: 300, run: (deps) => sendDailyDigest(deps) },
  { name: 'onboarding.call-reminders', everySeconds: 300, run: remindOnboardingCalls },
  { name: 'onboarding.compliance-expiry', everySeconds: 3600, run: remindComplianceExpiries },
  // Issue 40: the System page's 24-hour samples, and the daily backup when BACKUP_DIR is set.
  { name: 'system.samples', everySeconds: SAMPLE_SECONDS, run: sampleSystem },
  { name: 'system.backup', everySeconds: 3600, run: scheduledBackup },
  // Issue 37: an offer whose deadline passed goes to the next installer (decision 0911).
  { name: 'jobs.offer-expiry', everySeconds: 30, run: expireDueOffers },
  // Issue 45: unrouted jobs reach the team as one digest at most every 15 minutes (decision 1022).
  { name: 'jobs.unrouted-digest', everySeconds: 60, run: sendUnroutedDigest },
  // Issue 45 (decision 1002): an open offer whose installer no longer qualifies (a compliance document
  // expired today, a change made without Deps.offers) is withdrawn and passed on.
  { name: 'jobs.ineligible-offers', everySeconds: 60, run: withdrawIneligibleOffers },
  // Issue 47: the installer's reminder when a quarter of an offer's window is left (decision 1060).
  { name: 'jobs.offer-reminders', everySeconds: 60, run: sendOfferReminders },
  // Issue 50: scores the 90-day window moved past, and each tier's median (decision 1120).
  { name: 'jobs.installer-scores', everySeconds: 3600, run: refreshInstallerScores },
];
