/**
 * Issue 50: words of routing by score (decisions 1120-1124): the pause after offers expired in a row,
 * and the owners' monthly tier review.
 */

/** How many offers expire one after another (no accept or decline between) before the area pauses. */
export const EXPIRED_IN_A_ROW = 3;

/** Resume without a service area (404). */
export const SERVICE_AREA_NOT_SET = 'Set your service area first';

export const EXPIRED_PAUSE_WORDS = {
  /** The service area panel's state (the installer's dashboard). */
  state: `Paused after ${EXPIRED_IN_A_ROW} offers expired`,
  explain:
    'You receive no job offers until you resume. Answer offers (accept or decline) before they close, so homeowners are not kept waiting.',
  resume: 'Resume',
  resumed: 'Offers resumed',
  resumedMessage: 'You receive job offers again.',
  emailSubject: `Your job offers are paused: ${EXPIRED_IN_A_ROW} offers expired without an answer`,
  emailWhy: `The last ${EXPIRED_IN_A_ROW} job offers we sent you expired without an answer, one after another, so we paused your service area: you receive no job offers for now.`,
  emailWhyItMatters:
    'A homeowner waits while an offer is open, so we pass jobs to installers who answer them. Declining is fine: it passes the job on at once.',
  emailHowToResume:
    'When you are ready for jobs again, open your dashboard and press Resume under your service area. Nothing else changes: your area, radius and weekly capacity stay as they are.',
} as const;

export const TIER_REVIEW_WORDS = {
  title: 'Tier reviews',
  open: 'Tier reviews',
  hide: 'Hide tier reviews',
  intro: (month: string) =>
    `${month}: installers whose last 90 days suggest a tier change. A Preferred installer scoring below the Authorized median, or an Authorized one above the Preferred median, with at least 5 offers answered or expired.`,
  empty: 'No tier changes suggested this month.',
  medians: (p: string, a: string) => `Median score: Preferred ${p}, Authorized ${a}`,
  upgrade: 'Upgrade to Preferred',
  downgrade: 'Downgrade to Authorized',
  changed: 'Tier changed',
} as const;

/** A score as people read it: one decimal ("4.6"). */
export const formatScore = (score: string | number | null) => (score == null ? '—' : Number(score).toFixed(1));

/** A median time to answer, in hours and minutes ("2 h 05 min"), or "—" without offers. */
export function formatAnswerTime(seconds: number | null): string {
  if (seconds == null) return '—';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
