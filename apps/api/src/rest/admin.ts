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
import { exportDealersCsv, exportFileName } from '../services/admin-export';
import type { Context, User } from '../trpc/context';
import { defineRoute, type RestRoute } from './route';

/** The admin plugin's hook has refused everyone but admins before a handler runs. */
const admin = (ctx: Context) => ctx as Context & { user: User };

/** The admin console (issue: admin console). Every route is access 'admin'. */
export const adminRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    url: '/api/call-schedules',
    access: 'admin',
    summary: 'Call requests: scheduled first (soonest first), then completed and cancelled',
    handler: (ctx) => listCallSchedules(ctx),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/call-schedules/:id/status',
    access: 'admin',
    summary: 'Marks a call request scheduled, completed or cancelled',
    input: setCallStatusInput,
    handler: (ctx, input) => setCallStatus(admin(ctx), input.id, input.status),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/affiliate-tracking',
    access: 'admin',
    summary: 'Referral funnel per recruiter (visits, signups, approvals) and recent tracking events',
    handler: (ctx) => affiliateTracking(ctx),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/dealers',
    access: 'admin',
    summary:
      'One page of dealers (search q, tier, status, sort, dir, page, pageSize) with the total and counts per status',
    input: dealerListQuery,
    handler: (ctx, input) => listDealers(ctx, input),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/dealer-options',
    access: 'admin',
    summary: 'Dealers matching a search, for the Link Referral picker (at most 20)',
    input: dealerOptionsQuery,
    handler: (ctx, input) => dealerOptions(ctx, input.q),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/dealer-metrics',
    access: 'admin',
    summary: 'Summary cards: dealers per tier, pending applications, approved dealers, scheduled calls',
    handler: (ctx) => getDealerMetrics(ctx),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/dealers/export',
    access: 'admin',
    summary: 'Streams every dealer as CSV (dealers-export-yyyy-mm-dd.csv)',
    responds: 'text/csv attachment',
    handler: async (ctx, _input, { reply }) => {
      const stream = await exportDealersCsv(admin(ctx));
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName()}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff');
      return reply.send(stream);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/dealers/:id/timeline',
    access: 'admin',
    summary: "A dealer's history: audit trail, calls booked with the same email, emails sent",
    input: dealerId,
    handler: (ctx, input) => getDealerTimeline(ctx, input.id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/approve',
    access: 'admin',
    summary: 'Approves a dealer, grants access and emails a set-password link (idempotent)',
    input: dealerId,
    handler: (ctx, input) => approveDealer(admin(ctx), input.id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/reject',
    access: 'admin',
    summary: 'Rejects a dealer with a reason',
    input: rejectDealerInput,
    handler: (ctx, input) => rejectDealer(admin(ctx), input.id, input.reason),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/status',
    access: 'admin',
    summary: "Sets a dealer's status; leaving approved/active signs the dealer out",
    input: setDealerStatusInput,
    handler: (ctx, input) => setDealerStatus(admin(ctx), input.id, input.status),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/upgrade-tier',
    access: 'admin',
    summary: "Changes a dealer's tier",
    input: upgradeDealerTierInput,
    handler: (ctx, input) => upgradeDealerTier(admin(ctx), input.id, input.tier),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/send-approval-email',
    access: 'admin',
    summary: 'Emails a fresh set-password link to an approved or active dealer',
    input: dealerId,
    handler: (ctx, input) => sendApprovalEmail(admin(ctx), input.id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/grant-access',
    access: 'admin',
    summary: 'Approves a pending dealer, grants access and emails a set-password link',
    input: dealerId,
    handler: (ctx, input) => grantDealerAccess(admin(ctx), input.id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/reset-password',
    access: 'admin',
    summary: 'Emails the dealer a password reset link',
    input: dealerId,
    handler: (ctx, input) => sendDealerPasswordReset(admin(ctx), input.id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/dealers/:id/link-referral',
    access: 'admin',
    summary: 'Sets who referred a dealer (referral type manual)',
    input: linkReferralInput,
    handler: (ctx, input) => linkDealerReferral(admin(ctx), input.id, input.referredBy),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/first-order-forms',
    access: 'admin',
    summary: 'First-order form configuration of every tier',
    handler: (ctx) => listFirstOrderForms(ctx),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/admin/first-order-forms/:tier',
    access: 'admin',
    summary:
      "Sets a tier's Google Form URL (https, normalised) and required flag (always on for Authorized and Preferred)",
    input: updateFirstOrderForm,
    handler: (ctx, input) => updateFirstOrderFormConfig(admin(ctx), input),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admin/clear-all-dealers',
    access: 'admin',
    summary: 'Deletes every dealer application; requires { "confirm": true }',
    input: clearAllDealers,
    handler: (ctx) => clearAll(admin(ctx)),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admin/landing-videos',
    access: 'admin',
    summary: 'Landing videos as configured (title, key, stored player URL)',
    handler: (ctx) => listLandingVideosForAdmin(ctx),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/admin/landing-videos/:videoId',
    access: 'admin',
    summary: 'Sets a landing video title and Vimeo embed (only the extracted player URL is stored)',
    input: updateLandingVideo,
    handler: (ctx, input) => updateLandingVideoConfig(admin(ctx), input),
  }),
];
