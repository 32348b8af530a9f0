import { z } from 'zod';
import { MAX_LONG_TEXT, pageNumber, uuid } from './common';
import { jobStatusToken } from './jobs';

/**
 * Issue 50 (decisions 1100-1102): the homeowner's review of an installed job (1 to 5 stars, an
 * optional text comment, consent to show it publicly), and the installer's scorecard.
 */

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const REVIEW_COMMENT_MAX = MAX_LONG_TEXT;
/** The scorecard's window for offers and completed jobs, in days. */
export const SCORECARD_DAYS = 90;
/** How many of the latest reviews a scorecard shows. */
export const SCORECARD_LATEST_REVIEWS = 5;

export const RATING_INVALID = `Rating must be a whole number of stars from ${RATING_MIN} to ${RATING_MAX}`;
export const REVIEW_COMMENT_NO_LINKS =
  'Comment must be text only: no links, web addresses or email addresses (a review is read by the installer and our team, and links in reviews are how spam and phishing travel)';
export const REVIEW_COMMENT_TOO_LONG = `Comment must be at most ${REVIEW_COMMENT_MAX} characters`;
export const REVIEW_NOT_INSTALLED = 'You can rate your installation once the installer has marked it installed';
export const REVIEW_ALREADY_GIVEN = 'This installation was already rated: a job takes one review';
export const SCORECARD_INSTALLERS_ONLY =
  'Scorecards are for installers: only Authorized and Preferred dealers receive job offers and reviews';

/**
 * Top-level domains people and spammers write bare ("example.com", "bit.ly"): a host name ending in
 * one of these is a link. Two-letter country codes that are also English words ("it", "is", "in",
 * "me", "so", "to", "no", "at", "be", "do", "go", "us") are left out of the bare form, so a missing
 * space after a full stop ("was.It") is not refused; with a scheme, `www.` or a path they are links.
 */
const BARE_TLDS =
  'com|net|org|info|biz|io|co|ly|xyz|online|site|shop|store|app|dev|ru|cn|uk|de|fr|top|club|link|click|live|pro|tk|ml|ga|cf|gq|gl|gg|ai|tv|cc|ws|su|icu|vip|win|bid|loan|work|page|gov|edu|mil|ca|au|nz|ie|eu';

/** A scheme ("https://", "ftp://") or a link scheme without slashes ("mailto:", "javascript:"). */
const SCHEME = /\b[a-z][a-z0-9+.-]{1,20}:\/\/|\b(?:mailto|tel|sms|javascript|data|file):/i;
/** "www." anything, or a host name with a path ("site.xy/abc"). */
const WWW_OR_PATH = /\bwww\d{0,3}\.|\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,24}\/\S/iu;
/** A bare host name ending in a common top-level domain, and so any email address at one. */
const BARE_HOST = new RegExp(
  String.raw`(?:^|[^\p{L}\p{N}_.-])[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*\.(?:${BARE_TLDS})(?![\p{L}\p{N}-])`,
  'iu',
);

/** Whether `text` holds a link, a web address or an email address (reviews are text only). */
export function containsLink(text: string): boolean {
  return SCHEME.test(text) || WWW_OR_PATH.test(text) || BARE_HOST.test(text);
}

const rating = z
  .number({ error: RATING_INVALID })
  .int(RATING_INVALID)
  .min(RATING_MIN, RATING_INVALID)
  .max(RATING_MAX, RATING_INVALID);

/** The optional comment: trimmed text, an empty one is none, never a link. */
export const reviewComment = z
  .string({ error: 'Comment must be text' })
  .trim()
  .max(REVIEW_COMMENT_MAX, REVIEW_COMMENT_TOO_LONG)
  .refine((v) => !containsLink(v), REVIEW_COMMENT_NO_LINKS)
  .optional()
  .transform((v) => (v ? v : undefined));

/** What the homeowner sends: the stars, a comment, and whether it may be shown publicly. */
export const jobReviewFields = z.object({
  rating,
  comment: reviewComment,
  publicConsent: z.boolean({ error: 'Public consent must be true or false' }).default(false),
});
export type JobReviewFields = z.infer<typeof jobReviewFields>;

/** `POST /api/installation-status/{token}/review`. */
export const jobReviewInput = jobStatusToken.extend(jobReviewFields.shape);
export type JobReviewInput = z.infer<typeof jobReviewInput>;

/** A scorecard's figures, in the order the card and the console's table show them. */
export const SCORECARD_FIGURES = [
  'averageRating',
  'reviewCount',
  'received',
  'accepted',
  'declined',
  'expired',
  'acceptanceRate',
  'medianAnswerMinutes',
  'jobsCompleted',
] as const;

/** The console's scorecard table: sorted by one figure (nulls last either way), a page at a time. */
export const SCORECARD_SORTS = ['name', 'tier', ...SCORECARD_FIGURES] as const;
export type ScorecardSort = (typeof SCORECARD_SORTS)[number];

export const adminScorecardsQuery = z.object({
  sort: z
    .enum(SCORECARD_SORTS, { error: `Sort must be one of ${SCORECARD_SORTS.join(', ')}` })
    .default('averageRating'),
  dir: z.enum(['asc', 'desc'], { error: 'Direction must be asc or desc' }).default('desc'),
  page: pageNumber(),
});
export type AdminScorecardsQuery = z.infer<typeof adminScorecardsQuery>;

export const dealerScorecardInput = z.object({ id: uuid('Dealer id must be a valid id') });

/** How a scorecard's figures read (the dashboard card, the console). */
export const SCORECARD_LABELS = {
  averageRating: 'Average rating',
  reviewCount: 'Reviews',
  received: 'Offers received',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
  acceptanceRate: 'Acceptance rate',
  medianAnswerMinutes: 'Median time to answer',
  jobsCompleted: 'Jobs completed',
} as const;

/** "42 min", "3 h 5 min", "2 d 4 h": a median answer time for people. */
export function answerTime(minutes: number | null): string {
  if (minutes === null) return '—';
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  if (m < 24 * 60) return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
  const h = Math.round(m / 60);
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

/** "67%" (an acceptance rate, 0 to 1), or a dash without offers answered. */
export const ratePercent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);
