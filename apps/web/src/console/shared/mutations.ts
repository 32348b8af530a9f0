import { APPROVAL_WORDS, displayDateTime, ADMIN_MESSAGES as M } from '@dn/schema';
import type { Trpc } from '../../shared/lib/trpc';
import { adminMutation } from './admin-mutation';

/**
 * Every admin mutation of the console, each with its words and the queries it makes stale
 * (issue 34). A screen calls `useAdminMutation(ADMIN_MUTATIONS.x, { onSuccess })`.
 */

// What a change makes stale, by domain: a dealer decision also writes the activity log.
const dealers = (t: Trpc) => [t.admin.pathKey(), t.review.pathKey(), t.activity.pathKey()];
// An order changes the dealer's totals and status (admin), and earns, voids or claws back a commission.
const orders = (t: Trpc) => [t.orders.pathKey(), t.admin.pathKey(), t.commissions.pathKey()];
const commissions = (t: Trpc) => [t.commissions.pathKey()];
const team = (t: Trpc) => [t.team.pathKey()];
const content = (t: Trpc) => [t.admin.pathKey()];
const nothing = () => [];
/** A review decision: its notice carries Undo while the server's window is open. */
const decision = (words: { success: string; failure: string }) => ({
  success: { decision: words.success },
  failure: words.failure,
});

export const ADMIN_MUTATIONS = {
  approve: adminMutation({ procedure: (t) => t.admin.approve, ...decision(M.approve), invalidates: dealers }),
  reject: adminMutation({ procedure: (t) => t.admin.reject, ...decision(M.reject), invalidates: dealers }),
  setStatus: adminMutation({ procedure: (t) => t.admin.setStatus, ...decision(M.setStatus), invalidates: dealers }),
  setTier: adminMutation({ procedure: (t) => t.admin.upgradeTier, ...decision(M.setTier), invalidates: dealers }),
  grantAccess: adminMutation({ procedure: (t) => t.admin.grantAccess, ...M.grantAccess, invalidates: dealers }),
  resetPassword: adminMutation({ procedure: (t) => t.admin.resetPassword, ...M.resetPassword, invalidates: dealers }),
  sendApprovalEmail: adminMutation({
    procedure: (t) => t.admin.sendApprovalEmail,
    ...M.sendApprovalEmail,
    invalidates: dealers,
  }),
  linkReferral: adminMutation({ procedure: (t) => t.admin.linkReferral, ...M.linkReferral, invalidates: dealers }),
  clearAll: adminMutation({
    procedure: (t) => t.admin.clearAllDealers,
    ...M.clearAll,
    invalidates: (t) => [...dealers(t), t.commissions.pathKey(), t.orders.pathKey()],
  }),
  // The screen puts the saved choice in the cache itself: nothing to refetch.
  saveExportColumns: adminMutation({
    procedure: (t) => t.admin.saveExportColumns,
    failure: M.saveExportColumns.failure,
    invalidates: nothing,
  }),
  revokeStatusLink: adminMutation({
    procedure: (t) => t.statusLinks.revoke,
    success: { title: M.revokeStatusLink.success, message: M.revokeStatusLink.detail },
    failure: M.revokeStatusLink.failure,
    invalidates: (t) => [t.statusLinks.pathKey(), t.admin.pathKey()],
  }),
  // The bulk run reports once, at its end, with its Undo (BulkBar).
  bulkStart: adminMutation({ procedure: (t) => t.review.bulk, failure: M.bulk.failure, invalidates: dealers }),
  bulkContinue: adminMutation({ procedure: (t) => t.review.continue, failure: M.bulk.failure, invalidates: dealers }),
  // Its words (M.undo) replace the decision's notice in place (use-decision.tsx).
  undo: adminMutation({ procedure: (t) => t.review.undo, failure: M.undo.failure, invalidates: dealers }),
  setCallStatus: adminMutation({ procedure: (t) => t.admin.setCallStatus, ...M.setCallStatus, invalidates: content }),
  updateForm: adminMutation({
    procedure: (t) => t.admin.updateFirstOrderForm,
    success: (_, input) => M.updateForm.success(input.tier),
    failure: M.updateForm.failure,
    invalidates: content,
  }),
  updateVideo: adminMutation({ procedure: (t) => t.admin.updateLandingVideo, ...M.updateVideo, invalidates: content }),
  recordOrder: adminMutation({
    procedure: (t) => t.orders.record,
    success: (r) => (r.created ? M.recordOrder.success : M.recordOrder.again),
    failure: M.recordOrder.failure,
    invalidates: orders,
  }),
  setOrderStatus: adminMutation({
    procedure: (t) => t.orders.setStatus,
    failure: M.setOrderStatus.failure,
    invalidates: orders,
  }),
  // One call per chunk of the file: ImportOrders reports the whole file's result once.
  importOrders: adminMutation({
    procedure: (t) => t.orders.import,
    failure: M.importOrders.failure,
    invalidates: orders,
  }),
  approveCommissions: adminMutation({
    procedure: (t) => t.commissions.approve,
    // All approved: green. Some or none (issue 47, item 5): a warning that says when the hold ends, in the reader's zone.
    success: (r) => {
      if (!r.skipped.length) return { title: M.approveCommissions.success(r.approved.length) };
      const ends = r.skipped.flatMap((k) => (k.holdUntil ? [k.holdUntil] : [])).sort();
      return {
        title: APPROVAL_WORDS.title(r.approved.length, r.skipped.length),
        message: ends.length ? APPROVAL_WORDS.onHold(displayDateTime(ends[0]!)) : (r.skipped[0]?.reason ?? ''),
        warning: true,
      };
    },
    failure: M.approveCommissions.failure,
    invalidates: commissions,
  }),
  voidCommission: adminMutation({
    procedure: (t) => t.commissions.void,
    ...M.voidCommission,
    invalidates: commissions,
  }),
  saveRule: adminMutation({
    procedure: (t) => t.commissions.setRule,
    success: (_, input) => ({ title: M.saveRule.success(input.tier), message: M.saveRule.detail }),
    failure: M.saveRule.failure,
    invalidates: commissions,
  }),
  createPayout: adminMutation({
    procedure: (t) => t.commissions.createPayout,
    success: (p) => ({
      title: M.createPayout.success,
      message: M.createPayout.detail(p.total, p.recruiterCount),
    }),
    failure: M.createPayout.failure,
    invalidates: commissions,
  }),
  markPaid: adminMutation({
    procedure: (t) => t.commissions.markPaid,
    success: { title: M.markPaid.success, message: M.markPaid.detail },
    failure: M.markPaid.failure,
    invalidates: commissions,
  }),
  invite: adminMutation({ procedure: (t) => t.team.invite, ...M.invite, invalidates: team }),
  setRole: adminMutation({ procedure: (t) => t.team.setRole, ...M.setRole, invalidates: team }),
  removeAdmin: adminMutation({ procedure: (t) => t.team.remove, ...M.removeAdmin, invalidates: team }),
  revokeInvitation: adminMutation({
    procedure: (t) => t.team.revokeInvitation,
    ...M.revokeInvitation,
    invalidates: team,
  }),
  changePassword: adminMutation({
    procedure: (t) => t.team.changePassword,
    success: (r) => ({ title: M.changePassword.success, message: M.changePassword.detail(r.otherSessionsEnded) }),
    failure: M.changePassword.failure,
    invalidates: team,
  }),
  endSession: adminMutation({ procedure: (t) => t.team.endSession, ...M.endSession, invalidates: team }),
  // Issue 38: the zone business days and the digest are counted in changes every review age.
  setBusinessSettings: adminMutation({
    procedure: (t) => t.settings.setBusiness,
    ...M.setBusinessSettings,
    invalidates: (t) => [t.settings.pathKey(), t.review.pathKey()],
  }),
};
