import {
  clearAllDealers,
  dealerId,
  dealerListQuery,
  dealerOptionsQuery,
  linkReferralInput,
  rejectDealerInput,
  saveExportColumnsInput,
  setCallStatusInput,
  setDealerStatusInput,
  updateFirstOrderForm,
  updateLandingVideo,
  upgradeDealerTierInput,
} from '@dn/schema';
import { affiliateTracking } from '../services/affiliate/tracking';
import { approveDealer, grantDealerAccess, sendApprovalEmail } from '../services/applications/approval';
import { rejectDealer } from '../services/applications/rejection';
import { callSchedulesVersion, listCallSchedules, setCallStatus } from '../services/calls/status';
import { listFirstOrderForms, updateFirstOrderFormConfig } from '../services/content/first-order-forms';
import { listLandingVideosForAdmin, updateLandingVideoConfig } from '../services/content/landing-videos';
import { clearAllDealers as clearAll } from '../services/dealers/clear';
import { readExportColumns, saveExportColumns } from '../services/dealers/export-columns';
import { dealerListVersion, dealerOptions, listDealers } from '../services/dealers/list';
import { dealerMetricsVersion, getDealerMetrics } from '../services/dealers/metrics';
import { sendDealerPasswordReset } from '../services/dealers/password-reset';
import { linkDealerReferral } from '../services/dealers/referral';
import { setDealerStatus, upgradeDealerTier } from '../services/dealers/status';
import { getDealerTimeline } from '../services/dealers/timeline';
import { adminProcedure, alone, ownerProcedure, rest, reviewerProcedure, router } from '../trpc/init';

/**
 * The admin console (issue: admin console). Every procedure here is an adminProcedure. The CSV
 * export is the one route that is not a procedure: a file download (plugins/dealer-export.ts).
 */
export const adminRouter = router({
  callSchedules: adminProcedure
    .meta({
      ...rest(
        'GET',
        '/api/call-schedules',
        'Call requests: scheduled first (soonest first), then completed and cancelled',
      ),
      version: callSchedulesVersion,
    })
    .query(({ ctx }) => listCallSchedules(ctx)),
  setCallStatus: reviewerProcedure
    .meta(
      rest('POST', '/api/admin/call-schedules/{id}/status', 'Marks a call request scheduled, completed or cancelled'),
    )
    .input(setCallStatusInput)
    .mutation(({ ctx, input }) => setCallStatus(ctx, input.id, input.status)),
  affiliateTracking: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/affiliate-tracking',
        'Referral funnel per recruiter (visits, signups, approvals) and recent tracking events',
      ),
    )
    .query(({ ctx }) => affiliateTracking(ctx)),
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
      rest('GET', '/api/admin/dealer-options', 'Dealers matching a search, for the Link Referral picker (at most 20)'),
    )
    .input(dealerOptionsQuery)
    .query(({ ctx, input }) => dealerOptions(ctx, input.q)),
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
  approve: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/dealers/{id}/approve',
        'Approves a dealer, grants access and emails a set-password link (idempotent)',
      ),
    )
    .input(dealerId)
    .mutation(({ ctx, input }) => approveDealer(ctx, input.id)),
  reject: reviewerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/admin/dealers/{id}/reject', 'Rejects a dealer with a reason'))
    .input(rejectDealerInput)
    .mutation(({ ctx, input }) => rejectDealer(ctx, input.id, input.reason)),
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
  sendApprovalEmail: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/dealers/{id}/send-approval-email',
        'Emails a fresh set-password link to an approved or active dealer',
      ),
    )
    .input(dealerId)
    .mutation(({ ctx, input }) => sendApprovalEmail(ctx, input.id)),
  grantAccess: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/dealers/{id}/grant-access',
        'Approves a pending dealer, grants access and emails a set-password link',
      ),
    )
    .input(dealerId)
    .mutation(({ ctx, input }) => grantDealerAccess(ctx, input.id)),
  resetPassword: reviewerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/admin/dealers/{id}/reset-password', 'Emails the dealer a password reset link'))
    .input(dealerId)
    .mutation(({ ctx, input }) => sendDealerPasswordReset(ctx, input.id)),
  linkReferral: reviewerProcedure
    .meta(rest('POST', '/api/admin/dealers/{id}/link-referral', 'Sets who referred a dealer (referral type manual)'))
    .input(linkReferralInput)
    .mutation(({ ctx, input }) => linkDealerReferral(ctx, input.id, input.referredBy)),
  firstOrderForms: adminProcedure
    .meta(rest('GET', '/api/admin/first-order-forms', 'First-order form configuration of every tier'))
    .query(({ ctx }) => listFirstOrderForms(ctx)),
  updateFirstOrderForm: ownerProcedure
    .meta(
      rest(
        'PUT',
        '/api/admin/first-order-forms/{tier}',
        "Sets a tier's Google Form URL (https, normalised) and required flag (always on for Authorized and Preferred)",
      ),
    )
    .input(updateFirstOrderForm)
    .mutation(({ ctx, input }) => updateFirstOrderFormConfig(ctx, input)),
  clearAllDealers: ownerProcedure
    .meta(
      rest('POST', '/api/admin/clear-all-dealers', 'Deletes every dealer application; requires { "confirm": true }'),
    )
    .input(clearAllDealers)
    .mutation(({ ctx }) => clearAll(ctx)),
  landingVideos: adminProcedure
    .meta(rest('GET', '/api/admin/landing-videos', 'Landing videos as configured (title, key, stored player URL)'))
    .query(({ ctx }) => listLandingVideosForAdmin(ctx)),
  updateLandingVideo: ownerProcedure
    .meta(
      rest(
        'PUT',
        '/api/admin/landing-videos/{videoId}',
        'Sets a landing video title and Vimeo embed (only the extracted player URL is stored)',
      ),
    )
    .input(updateLandingVideo)
    .mutation(({ ctx, input }) => updateLandingVideoConfig(ctx, input)),
});
