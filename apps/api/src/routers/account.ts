import {
  changeOwnPasswordInput,
  createAffiliateLink,
  dealerProfileInput,
  ownOrdersQuery,
  ownReferralsQuery,
  resetPassword,
  setupPassword,
} from '@dn/schema';
import { requestPasswordReset, setupPasswordWithToken } from '../services/accounts/passwords';
import { createLink } from '../services/affiliate/links';
import { ownReferralFunnel, ownReferrals } from '../services/affiliate/referrals';
import { affiliateStats, affiliateStatsVersion } from '../services/affiliate/stats';
import { dealerFirstOrderForm } from '../services/content/first-order-forms';
import {
  changeDealerPassword,
  listDealerDevices,
  listDealerSessions,
  ownProfile,
  signOutOtherSessions,
  updateOwnProfile,
} from '../services/dealers/own-account';
import { dealerInfo, dealerInfoVersion } from '../services/dealers/own-info';
import { ownOrders } from '../services/dealers/own-orders';
import { alone, dealerProcedure, publicProcedure, rest, router } from '../trpc/init';

/** Accounts and the dealer portal (issue: accounts). */
export const accountRouter = router({
  setupPassword: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/dealer/setup-password', 'Sets the password from an emailed link and signs the dealer in'))
    .input(setupPassword)
    .mutation(({ ctx, input }) => setupPasswordWithToken(ctx, input)),
  resetPassword: publicProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/dealer/reset-password',
        'Emails a password link to a dealer who may sign in; the same answer for any address',
      ),
    )
    .input(resetPassword)
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
  info: dealerProcedure
    .meta({ ...rest('GET', '/api/dealer/info', "The signed-in dealer's own details"), version: dealerInfoVersion })
    .query(({ ctx }) => dealerInfo(ctx)),
  profile: dealerProcedure
    .meta(rest('GET', '/api/dealer/profile', "The signed-in dealer's editable profile"))
    .query(({ ctx }) => ownProfile(ctx)),
  updateProfile: dealerProcedure
    .meta(
      rest(
        'PUT',
        '/api/dealer/profile',
        "Updates company name, phone, address, logo link and CRM (the wizard rules); audited. Email and tier stay the admin's",
      ),
    )
    .input(dealerProfileInput)
    .mutation(({ ctx, input }) => updateOwnProfile(ctx, input)),
  changePassword: dealerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/dealer/password',
        'Changes the password (current one required); other sessions end; a "password changed" email',
      ),
    )
    .input(changeOwnPasswordInput)
    .mutation(({ ctx, input }) => changeDealerPassword(ctx, input)),
  sessions: dealerProcedure
    .meta(rest('GET', '/api/dealer/sessions', "The signed-in dealer's live sessions (device, last seen)"))
    .query(({ ctx }) => listDealerSessions(ctx)),
  devices: dealerProcedure
    .meta(rest('GET', '/api/dealer/devices', "The browsers remembered for the signed-in dealer's sign-ins"))
    .query(({ ctx }) => listDealerDevices(ctx)),
  signOutEverywhere: dealerProcedure
    .meta(rest('POST', '/api/dealer/sessions/sign-out-others', 'Ends every other session of the signed-in dealer'))
    .mutation(({ ctx }) => signOutOtherSessions(ctx)),
  firstOrderForm: dealerProcedure
    .meta(rest('GET', '/api/first-order-forms', "The first-order form of the signed-in dealer's tier"))
    .query(({ ctx }) => dealerFirstOrderForm(ctx)),
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
  orders: dealerProcedure
    .meta(
      rest(
        'GET',
        '/api/dealer/orders',
        "The signed-in dealer's own orders, newest first, paged (?page=), and the date of their first order",
      ),
    )
    .input(ownOrdersQuery)
    .query(({ ctx, input }) => ownOrders(ctx, input.page)),
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
