import { z } from 'zod';
import { email, pageNumber } from './common';
import { RECRUITER_ID_MESSAGE, RECRUITER_ID_RE } from './constants';

export const createAffiliateLink = z.object({
  recruiterId: z
    .string({ error: 'Recruiter ID is required' })
    .trim()
    .min(1, 'Recruiter ID is required')
    .regex(RECRUITER_ID_RE, RECRUITER_ID_MESSAGE),
});
/** The dashboard's form words an empty field its own way. */
export const affiliateLinkForm = z.object({
  recruiterId: z.string().trim().min(1, 'Please enter a recruiter ID').regex(RECRUITER_ID_RE, RECRUITER_ID_MESSAGE),
});

const detailValue = z.union([z.string().max(2_048), z.number(), z.boolean(), z.null()]);
const details = z
  .record(z.string().max(64), detailValue)
  .refine((r) => Object.keys(r).length <= 16, 'Too many details')
  .optional();

export const trackEvent = z.object({
  eventType: z.enum(['cookie_set', 'url_capture'], { error: 'Unknown event type' }),
  recruiterId: z.string().trim().min(1, 'Recruiter ID is required').max(100, 'Recruiter ID is too long'),
  details,
});
export type TrackEventInput = z.input<typeof trackEvent>;

export const trackSignup = z.object({
  recruiterId: z.string().trim().min(1, 'Recruiter ID is required').max(100, 'Recruiter ID is too long'),
  userData: z.object({ email: email() }),
  clientHash: z.string().trim().max(128).optional(),
});
export type TrackSignupInput = z.input<typeof trackSignup>;

/** Referrals per page of the recruiter's full referral list (dashboard). */
export const REFERRALS_PAGE_SIZE = 10;

/** GET /api/affiliate/referrals: every referral of the signed-in dealer, paged. */
export const ownReferralsQuery = z.object({ page: pageNumber() });

/**
 * A referral's status as its recruiter sees it (decision 0720): applied (pending review),
 * approved, active (placed a first order), declined (rejected) or inactive (inactive or
 * suspended). The reason of a rejection stays the admin's.
 */
export const REFERRAL_STATUSES = ['applied', 'approved', 'active', 'declined', 'inactive'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

export function referralStatusOf(dealerStatus: string): ReferralStatus {
  switch (dealerStatus) {
    case 'pending':
      return 'applied';
    case 'approved':
      return 'approved';
    case 'active':
      return 'active';
    case 'rejected':
      return 'declined';
    default:
      return 'inactive';
  }
}
