import { dealerApplication, scheduleCall, trackEvent, trackSignup } from '@dn/schema';
import { scheduleCall as bookCall } from '../services/calls';
import { signup } from '../services/signup';
import { landingVideos, publicDealers } from '../services/site-content';
import { trackReferralEvent, trackReferralSignup } from '../services/tracking';
import { publicProcedure, router } from '../trpc/init';

/** Public site procedures: the tRPC twins of rest/site.ts. */
export const siteRouter = router({
  scheduleCall: publicProcedure.input(scheduleCall).mutation(({ ctx, input }) => bookCall(ctx, input)),
  signup: publicProcedure.input(dealerApplication).mutation(({ ctx, input }) => signup(ctx, input)),
  trackEvent: publicProcedure.input(trackEvent).mutation(({ ctx, input }) => trackReferralEvent(ctx, input)),
  trackSignup: publicProcedure.input(trackSignup).mutation(({ ctx, input }) => trackReferralSignup(ctx, input)),
  publicDealers: publicProcedure.query(({ ctx }) => publicDealers(ctx)),
  landingVideos: publicProcedure.query(({ ctx }) => landingVideos(ctx)),
});
