/**
 * The admin console's toasts (issue 34): what each admin mutation says when it succeeds and when
 * it fails, written once (the web console's mutation specs read them; tests can too). No zod here.
 */

import { displayMoney } from './money';
import { plural } from './words';

export const ADMIN_MESSAGES = {
  tryAgain: 'Please try again.',
  // Dealers and applications (SPEC section 2).
  approve: { success: 'Dealer approved', failure: 'Failed to approve dealer' },
  reject: { success: 'Dealer application rejected', failure: 'Failed to reject dealer' },
  setStatus: { success: 'Dealer status updated', failure: 'Failed to update dealer status' },
  setTier: { success: 'Dealer tier updated', failure: 'Failed to update dealer tier' },
  grantAccess: { success: 'Access granted', failure: 'Failed to grant access' },
  resetPassword: { success: 'Password reset email sent', failure: 'Failed to send password reset' },
  sendApprovalEmail: { success: 'Approval email sent', failure: 'Failed to send approval email' },
  linkReferral: { success: 'Referral linked', failure: 'Failed to link referral' },
  clearAll: { success: 'All dealer applications cleared', failure: 'Failed to clear dealer applications' },
  saveExportColumns: { failure: 'Failed to save the columns' },
  revokeStatusLink: {
    success: 'Status link revoked',
    detail: 'The applicant’s link now shows “not found”.',
    failure: 'Could not revoke',
  },
  decided: { detail: 'Emails go out when this closes.', nothing: 'Nothing changed.' },
  bulk: { failure: 'Bulk action failed' },
  undo: {
    success: 'Undone',
    failure: 'Could not undo',
    detail: (kept: number) =>
      kept > 0
        ? `${plural(kept, 'dealer')} changed since ${kept === 1 ? 'was' : 'were'} kept. No email was sent.`
        : 'No email was sent.',
  },
  // Calls and content.
  setCallStatus: { success: 'Call status updated', failure: 'Failed to update call status' },
  updateForm: {
    success: (tier: string) => `${tier} form configuration updated`,
    failure: 'Failed to update form configuration',
  },
  updateVideo: { success: 'Video updated', failure: 'Failed to update video' },
  // Orders and commissions (issue 13).
  recordOrder: { success: 'Order recorded', again: 'Order was already recorded', failure: 'Failed to record order' },
  setOrderStatus: { failure: 'Failed to update order' },
  importOrders: {
    success: 'Orders imported',
    failure: 'Failed to import orders',
    detail: (r: { imported: number; skipped: number; rejected: number }) =>
      `${r.imported} imported, ${r.skipped} skipped, ${r.rejected} rejected`,
  },
  approveCommissions: {
    success: (n: number) => `${plural(n, 'commission')} approved`,
    skipped: (n: number, reason: string | undefined) => `${n} skipped: ${reason ?? ''}`,
    failure: 'Failed to approve commissions',
  },
  voidCommission: { success: 'Commission voided', failure: 'Failed to void commission' },
  saveRule: {
    success: (tier: string) => `${tier} rule saved`,
    detail: 'New orders use it; earned commissions keep theirs.',
    failure: 'Failed to save the rule',
  },
  createPayout: {
    success: 'Payout batch created',
    /** `total` is money on the wire ("1234.50"): shown with its sign. */
    detail: (total: string, recruiters: number) => `${displayMoney(total)} for ${plural(recruiters, 'recruiter')}`,
    failure: 'Failed to create payout batch',
  },
  markPaid: {
    success: 'Payout marked paid',
    detail: 'Each recruiter is emailed.',
    failure: 'Failed to mark payout paid',
  },
  // Team and the admin's own account (issue 14).
  invite: { success: 'Invitation sent', failure: 'Failed to send the invitation' },
  setRole: { success: 'Role changed', failure: 'Failed to change the role' },
  removeAdmin: { success: 'Admin removed', failure: 'Failed to remove the admin' },
  revokeInvitation: { success: 'Invitation revoked', failure: 'Failed to revoke the invitation' },
  changePassword: {
    success: 'Password changed',
    detail: (n: number) => `${plural(n, 'other session')} signed out`,
    failure: 'Could not change the password',
  },
  endSession: { success: 'Session ended', failure: 'Failed to end the session' },
  setBusinessSettings: { success: 'Business time zone saved', failure: 'Could not save the time zone' },
} as const;
