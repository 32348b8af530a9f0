import { markAccessGranted, markDealerApproved } from '@dn/db/queries/dealers';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { queueApprovalEmail } from '../accounts/emails';
import { type AuditEntry, audit } from '../audit/audit';
import { decideOne, sendWhenFinal } from '../review/decide';
import { type Application, canSignIn, lockApplication } from './review';

/**
 * Approve, Grant Access and Send Approval Email (docs/decisions/0300-admin-approval-and-access.md).
 * Each decides whether it applies; what approval does is written once, in `approve`.
 */

type AdminContext = Context & { user: User };

/** Which admin action approved: each keeps its own audit event. */
type ApprovalPath = 'approve' | 'grant_access' | 'approval_email';

/**
 * The one approval, inside the caller's transaction on a locked dealer: a dealer who may not
 * sign in yet becomes approved (date, admin, no rejection reason) with access; one who may but
 * has no access gets it; then the approval email (a fresh set-password link; older unused
 * links stop working) and the audit row of the path.
 */
async function approve(trx: Context['db'], ctx: AdminContext, before: Application, path: ApprovalPath) {
  const approving = !canSignIn(before.status);
  if (approving) await markDealerApproved(trx, before.id, ctx.user.username);
  else if (!before.accessGranted) await markAccessGranted(trx, before.id);
  await queueApprovalEmail(trx, before, ctx.config);
  await audit(trx, ctx, approvalAudit(ctx.user.username, before, approving, path));
}

function approvalAudit(admin: string, before: Application, approving: boolean, path: ApprovalPath): AuditEntry {
  const dealerId = before.id;
  switch (path) {
    case 'approve':
      return {
        eventType: 'dealer.approved',
        category: 'admin',
        message: `${admin} approved ${before.email}`,
        dealerId,
        details: { after: { status: 'approved', accessGranted: true }, emailed: 'approval' },
      };
    case 'grant_access':
      return {
        eventType: 'dealer.access_granted',
        category: 'admin',
        message: `${admin} granted access to ${before.email}`,
        dealerId,
        details: {
          before: { status: before.status, accessGranted: before.accessGranted },
          after: { status: approving ? 'approved' : before.status, accessGranted: true },
          emailed: 'approval',
        },
      };
    case 'approval_email':
      return {
        eventType: 'dealer.approval_email_sent',
        category: 'email',
        message: `${admin} sent the approval email to ${before.email}`,
        dealerId,
        details: { emailed: 'approval', ...(before.accessGranted ? {} : { after: { accessGranted: true } }) },
      };
  }
}

/**
 * Approves a dealer: status approved, access granted, and the approval email with a
 * set-password link, all in one transaction (services/review/decide.ts, the same decision as a
 * bulk approval). The dealer's row is locked first: of two admins approving at once the second
 * waits and then finds the dealer approved, so there is one approval, one audit row and one
 * email. Approving an approved or active dealer changes nothing. The email waits out the undo window.
 */
export async function approveDealer(ctx: AdminContext, id: string) {
  const action = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockApplication(trx, id);
    return decideOne(trx, ctx, { kind: 'approve' }, before);
  });
  sendWhenFinal(ctx, action?.undoUntil);
  return { ok: true as const, alreadyApproved: !action, status: 'approved' as const, action };
}

/**
 * Grant Access (offered for pending dealers without access): lets the dealer in now. It
 * approves a pending dealer and sends the set-password email; a dealer who already has access
 * is left alone, so a double click sends one email.
 */
export async function grantDealerAccess(ctx: AdminContext, id: string) {
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockApplication(trx, id);
    if (before.accessGranted && canSignIn(before.status)) return false;
    if (!canSignIn(before.status) && before.status !== 'pending') {
      throw new AppError('CONFLICT', `This dealer is ${before.status}: change the status before granting access`);
    }
    await approve(trx, ctx, before, 'grant_access');
    return true;
  });
  if (changed) ctx.mail.kick();
  return { ok: true as const, alreadyGranted: !changed };
}

/** A fresh set-password link; older unused links stop working. Only for dealers who may sign in. */
export async function sendApprovalEmail(ctx: AdminContext, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const dealer = await lockApplication(trx, id);
    if (!canSignIn(dealer.status)) {
      throw new AppError(
        'CONFLICT',
        `This dealer is ${dealer.status}: approve the dealer before sending the approval email`,
      );
    }
    await approve(trx, ctx, dealer, 'approval_email');
  });
  ctx.mail.kick();
  return { ok: true as const };
}
