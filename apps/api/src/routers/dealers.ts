import {
  changeOwnPasswordInput,
  clearAllDealers,
  dealerId,
  dealerListQuery,
  dealerOptionsQuery,
  dealerProfileInput,
  linkReferralInput,
  ownOrdersQuery,
  saveExportColumnsInput,
  setDealerStatusInput,
  upgradeDealerTierInput,
} from '@dn/schema';
import { getDealerApplication } from '../services/dealers/application';
import { clearAllDealers as clearAll } from '../services/dealers/clear';
import { readExportColumns, saveExportColumns } from '../services/dealers/export-columns';
import { dealerListVersion, dealerOptions, listDealers } from '../services/dealers/list';
import { dealerMetricsVersion, getDealerMetrics } from '../services/dealers/metrics';
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
import { sendDealerPasswordReset } from '../services/dealers/password-reset';
import { linkDealerReferral } from '../services/dealers/referral';
import { setDealerStatus, upgradeDealerTier } from '../services/dealers/status';
import { getDealerTimeline } from '../services/dealers/timeline';
import {
  adminProcedure,
  alone,
  dealerProcedure,
  ownerProcedure,
  rest,
  reviewerProcedure,
  router,
  sessionOnly,
} from '../trpc/init';

/**
 * Dealers: the admin's table, metrics, timeline, status, tier and referral, the CSV column choice
 * and clear-all (the CSV itself is a file download: http/exports.ts); and the dealer's own
 * account in the portal.
 */

/** Part of `admin.*`: the dealer table and a dealer's record. */
export const dealersAdmin = router({
  dealers: adminProcedure
    .meta({
      ...rest(
        'GET',
        '/api/admin/dealers',
        'One page of dealers (search q, tier, status, sort, dir, page, pageSize) with the total and counts per status; a search answers from its newest 1,000 matches, capped: true when more matched',
      ),
      version: dealerListVersion,
    })
    .input(dealerListQuery)
    .query(({ ctx, input }) => listDealers(ctx, input)),
  // The export's column picker, remembered per admin (decision 0730). Reviewer and up: a viewer
  // may not export the personal data these columns hold (decision 0610).
  exportColumns: reviewerProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/preferences/export-columns',
        "The signed-in admin's column choice for the dealers CSV (every column until they choose)",
      ),
    )
    .query(({ ctx }) => readExportColumns(ctx)),
  saveExportColumns: reviewerProcedure
    .meta(
      rest(
        'PUT',
        '/api/admin/preferences/export-columns',
        "Remembers the signed-in admin's column choice for the dealers CSV (column keys, in file order)",
      ),
    )
    .input(saveExportColumnsInput)
    .mutation(({ ctx, input }) => saveExportColumns(ctx, input.columns)),
  dealerOptions: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/dealer-options',
        'Dealers matching a search, for the dealer pickers (at most 20); only=referrers: approved or active ones, as the Link Referral picker offers',
      ),
    )
    .input(dealerOptionsQuery)
    .query(({ ctx, input }) => dealerOptions(ctx, input.q, input.only)),
  dealerMetrics: adminProcedure
    .meta({
      ...rest(
        'GET',
        '/api/admin/dealer-metrics',
        'Summary cards: dealers per tier, pending applications, approved dealers, scheduled calls',
      ),
      version: dealerMetricsVersion,
    })
    .query(({ ctx }) => getDealerMetrics(ctx)),
  dealer: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/dealers/{id}',
        "A dealer's whole application (every answer of the wizard), status, referral with the referrer's name, and order totals",
      ),
    )
    .input(dealerId)
    .query(({ ctx, input }) => getDealerApplication(ctx, input.id)),
  dealerTimeline: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/dealers/{id}/timeline',
        "A dealer's history: audit trail, calls booked with the same email, emails sent",
      ),
    )
    .input(dealerId)
    .query(({ ctx, input }) => getDealerTimeline(ctx, input.id)),
  setStatus: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/dealers/{id}/status',
        "Sets a dealer's status; leaving approved/active signs the dealer out",
      ),
    )
    .input(setDealerStatusInput)
    .mutation(({ ctx, input }) => setDealerStatus(ctx, input.id, input.status)),
  upgradeTier: reviewerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/admin/dealers/{id}/upgrade-tier', "Changes a dealer's tier"))
    .input(upgradeDealerTierInput)
    .mutation(({ ctx, input }) => upgradeDealerTier(ctx, input.id, input.tier)),
  resetPassword: reviewerProcedure
    .meta(sessionOnly)
    .meta(alone)
    .meta(rest('POST', '/api/admin/dealers/{id}/reset-password', 'Emails the dealer a password reset link'))
    .input(dealerId)
    .mutation(({ ctx, input }) => sendDealerPasswordReset(ctx, input.id)),
  linkReferral: reviewerProcedure
    .meta(rest('POST', '/api/admin/dealers/{id}/link-referral', 'Sets who referred a dealer (referral type manual)'))
    .input(linkReferralInput)
    .mutation(({ ctx, input }) => linkDealerReferral(ctx, input.id, input.referredBy)),
  clearAllDealers: ownerProcedure
    .meta(
      rest('POST', '/api/admin/clear-all-dealers', 'Deletes every dealer application; requires { "confirm": true }'),
    )
    .input(clearAllDealers)
    .mutation(({ ctx }) => clearAll(ctx)),
});

/** Part of `account.*`: the dealer's own details, profile, password and sessions. */
export const dealersAccount = router({
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
    .meta(sessionOnly)
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
    .meta(sessionOnly)
    .meta(rest('GET', '/api/dealer/sessions', "The signed-in dealer's live sessions (device, last seen)"))
    .query(({ ctx }) => listDealerSessions(ctx)),
  devices: dealerProcedure
    .meta(sessionOnly)
    .meta(rest('GET', '/api/dealer/devices', "The browsers remembered for the signed-in dealer's sign-ins"))
    .query(({ ctx }) => listDealerDevices(ctx)),
  signOutEverywhere: dealerProcedure
    .meta(rest('POST', '/api/dealer/sessions/sign-out-others', 'Ends every other session of the signed-in dealer'))
    .mutation(({ ctx }) => signOutOtherSessions(ctx)),
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
});
