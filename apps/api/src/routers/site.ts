import {
  dealerApplication,
  publicDealerSearch,
  scheduleCall,
  statusTokenInput,
  trackEvent,
  trackSignup,
} from '@dn/schema';
import { trackReferralEvent, trackReferralSignup } from '../services/affiliate/tracking';
import { signup } from '../services/applications/signup';
import { applicationStatus } from '../services/applications/status-link';
import { scheduleCall as bookCall } from '../services/calls/booking';
import { landingVideos } from '../services/content/landing-videos';
import { publicDealers } from '../services/content/public-dealers';
import { alone, publicProcedure, rest, router } from '../trpc/init';

/** Public site procedures: the tRPC twins of rest/site.ts. */
export const siteRouter = router({
  scheduleCall: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/schedule-call', 'Books a free 15-minute call; emails a confirmation with an .ics file'))
    .input(scheduleCall)
    .mutation(({ ctx, input }) => bookCall(ctx, input)),
  signup: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/dealer-signup', 'Submits a dealer application (stored as pending)'))
    .input(dealerApplication)
    .mutation(({ ctx, input }) => signup(ctx, input)),
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
  publicDealers: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/dealers/public',
        "The referral picker: q (3+ characters) matches the start of a name or company, or of their words; at most 20 approved or active dealers who stay in the picker, ranked, as { ref, fullName, companyName }: ref is opaque, new in every answer, and good only as a signup's referredBy (24 hours)",
      ),
    )
    .input(publicDealerSearch)
    .query(({ ctx, input }) => publicDealers(ctx, input.q)),
  applicationStatus: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/application-status/{token}',
        "The applicant's private status page: stage, the reason when rejected, what happens next (404 once revoked)",
      ),
    )
    .input(statusTokenInput)
    .query(({ ctx, input }) => applicationStatus(ctx, input.token)),
  landingVideos: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/landing-videos',
        'Landing videos with the extracted Vimeo player URL (never the raw embed code)',
      ),
    )
    .query(({ ctx }) => landingVideos(ctx)),
});
