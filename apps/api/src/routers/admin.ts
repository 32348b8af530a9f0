import {
  clearAllDealers,
  dealerId,
  dealerListQuery,
  dealerOptionsQuery,
  linkReferralInput,
  rejectDealerInput,
  setCallStatusInput,
  setDealerStatusInput,
  updateFirstOrderForm,
  updateLandingVideo,
  upgradeDealerTierInput,
} from '@dn/schema';
import { clearAllDealers as clearAll } from '../services/admin-clear';
import {
  listCallSchedules,
  listFirstOrderForms,
  listLandingVideosForAdmin,
  setCallStatus,
  updateFirstOrderFormConfig,
  updateLandingVideoConfig,
} from '../services/admin-content';
import {
  approveDealer,
  grantDealerAccess,
  linkDealerReferral,
  rejectDealer,
  sendApprovalEmail,
  sendDealerPasswordReset,
  setDealerStatus,
  upgradeDealerTier,
} from '../services/admin-dealer-actions';
import {
  affiliateTracking,
  dealerOptions,
  getDealerMetrics,
  getDealerTimeline,
  listDealers,
} from '../services/admin-dealers';
import { adminProcedure, router } from '../trpc/init';

/**
 * The admin console (issue: admin console). Every procedure here is an adminProcedure. The CSV
 * export has no twin: it is a file download, served by GET /api/admin/dealers/export.
 */
export const adminRouter = router({
  callSchedules: adminProcedure.query(({ ctx }) => listCallSchedules(ctx)),
  setCallStatus: adminProcedure
    .input(setCallStatusInput)
    .mutation(({ ctx, input }) => setCallStatus(ctx, input.id, input.status)),
  affiliateTracking: adminProcedure.query(({ ctx }) => affiliateTracking(ctx)),
  dealers: adminProcedure.input(dealerListQuery).query(({ ctx, input }) => listDealers(ctx, input)),
  dealerOptions: adminProcedure.input(dealerOptionsQuery).query(({ ctx, input }) => dealerOptions(ctx, input.q)),
  dealerMetrics: adminProcedure.query(({ ctx }) => getDealerMetrics(ctx)),
  dealerTimeline: adminProcedure.input(dealerId).query(({ ctx, input }) => getDealerTimeline(ctx, input.id)),
  approve: adminProcedure.input(dealerId).mutation(({ ctx, input }) => approveDealer(ctx, input.id)),
  reject: adminProcedure
    .input(rejectDealerInput)
    .mutation(({ ctx, input }) => rejectDealer(ctx, input.id, input.reason)),
  setStatus: adminProcedure
    .input(setDealerStatusInput)
    .mutation(({ ctx, input }) => setDealerStatus(ctx, input.id, input.status)),
  upgradeTier: adminProcedure
    .input(upgradeDealerTierInput)
    .mutation(({ ctx, input }) => upgradeDealerTier(ctx, input.id, input.tier)),
  sendApprovalEmail: adminProcedure.input(dealerId).mutation(({ ctx, input }) => sendApprovalEmail(ctx, input.id)),
  grantAccess: adminProcedure.input(dealerId).mutation(({ ctx, input }) => grantDealerAccess(ctx, input.id)),
  resetPassword: adminProcedure.input(dealerId).mutation(({ ctx, input }) => sendDealerPasswordReset(ctx, input.id)),
  linkReferral: adminProcedure
    .input(linkReferralInput)
    .mutation(({ ctx, input }) => linkDealerReferral(ctx, input.id, input.referredBy)),
  firstOrderForms: adminProcedure.query(({ ctx }) => listFirstOrderForms(ctx)),
  updateFirstOrderForm: adminProcedure
    .input(updateFirstOrderForm)
    .mutation(({ ctx, input }) => updateFirstOrderFormConfig(ctx, input)),
  clearAllDealers: adminProcedure.input(clearAllDealers).mutation(({ ctx }) => clearAll(ctx)),
  landingVideos: adminProcedure.query(({ ctx }) => listLandingVideosForAdmin(ctx)),
  updateLandingVideo: adminProcedure
    .input(updateLandingVideo)
    .mutation(({ ctx, input }) => updateLandingVideoConfig(ctx, input)),
});
