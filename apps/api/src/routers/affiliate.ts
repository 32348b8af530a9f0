import { createAffiliateLink, ownReferralsQuery, trackEvent, trackSignup } from '@dn/schema';
import { createLink } from '../services/affiliate/links';
import { ownReferralFunnel, ownReferrals } from '../services/affiliate/referrals';
import { affiliateStats, affiliateStatsVersion } from '../services/affiliate/stats';
import { affiliateTracking, trackReferralEvent, trackReferralSignup } from '../services/affiliate/tracking';
import { adminProcedure, dealerProcedure, publicProcedure, rest, router } from '../trpc/init';

/** Affiliate: referral tracking from the site, a recruiter's links and stats, the admin's funnel. */

/** Part of `site.*`: referral events from the landing. */
export const affiliateSite = router({
  trackEvent: publicProcedure
    .meta(
      rest(
        'POST',
        '/api/affiliate/track-event',
        'Records a referral event (cookie_set, url_capture) in the audit trail',
      ),
    )
    .input(trackEvent)
    .mutation(({ ctx, input }) => trackReferralEvent(ctx, input)),
  trackSignup: publicProcedure
    .meta(rest('POST', '/api/affiliate/track-signup', 'Records a referred signup in the audit trail'))
    .input(trackSignup)
    .mutation(({ ctx, input }) => trackReferralSignup(ctx, input)),
});

/** Part of `account.*`: the recruiter's link, stats and referrals. */
export const affiliateAccount = router({
  createAffiliateLink: dealerProcedure
    .meta(
      rest(
        'POST',
        '/api/affiliate/create-link',
        "Creates the signed-in dealer's affiliate link (409 when the recruiter id is taken)",
      ),
    )
    .input(createAffiliateLink)
    .mutation(({ ctx, input }) => createLink(ctx, input)),
  affiliateStats: dealerProcedure
    .meta({
      ...rest('GET', '/api/affiliate/stats', "The signed-in dealer's affiliate link and 5 most recent referrals"),
      version: affiliateStatsVersion,
    })
    .query(({ ctx }) => affiliateStats(ctx)),
  referrals: dealerProcedure
    .meta(
      rest(
        'GET',
        '/api/affiliate/referrals',
        "Every dealer the signed-in dealer referred, newest first, paged (?page=), with each one's status",
      ),
    )
    .input(ownReferralsQuery)
    .query(({ ctx, input }) => ownReferrals(ctx, input.page)),
  referralFunnel: dealerProcedure
    .meta(
      rest(
        'GET',
        '/api/affiliate/funnel',
        "The signed-in recruiter's funnel: link visits, applications, approvals, first orders",
      ),
    )
    .query(({ ctx }) => ownReferralFunnel(ctx)),
});

/** Part of `admin.*`: the referral funnel per recruiter. */
export const affiliateAdmin = router({
  affiliateTracking: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/affiliate-tracking',
        'Referral funnel per recruiter (visits, signups, approvals) and recent tracking events',
      ),
    )
    .query(({ ctx }) => affiliateTracking(ctx)),
});
