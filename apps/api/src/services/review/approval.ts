import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { approveDealers } from '../applications/approve';
import { canSignIn, lockApplication } from '../applications/review';
import { decideOne, sendWhenFinal } from './decide';

/**
 * Approve, Grant Access and Send Approval Email (docs/decisions/0300-admin-approval-and-access.md).
 * Each decides whether it applies; what approval does is written once, in `approveDealers` (./approve.ts).
 */

type AdminContext = Context & { user: User };

/**
 * Approves a dealer: status approved, access granted, and the approval email with a
 * set-password link, all in one transaction (services/review/decide.ts, the same decision as a
 * bulk approval, which calls approveDealers). The dealer's row is locked first: of two admins
 * approving at once the second waits and then finds the dealer approved, so there is one
 * approval, one audit row and one email. Approving an approved or active dealer changes nothing.
 * The email waits out the undo window.
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
    await approveDealers(trx, ctx, [before], { path: 'grant_access' });
    return true;
  });
  if (changed) ctx.mail.kick();
  return { ok: true as const, alreadyGranted: !changed };
}

/**
 * A fresh set-password link; every older unused link stops working, and an earlier email still
 * waiting in the outbox (an approval held for its undo window) is superseded, never sent. Only
 * for dealers who may sign in.
 */
export async function sendApprovalEmail(ctx: AdminContext, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const dealer = await lockApplication(trx, id);
    if (!canSignIn(dealer.status)) {
      throw new AppError(
        'CONFLICT',
        `This dealer is ${dealer.status}: approve the dealer before sending the approval email`,
      );
    }
    await approveDealers(trx, ctx, [dealer], { path: 'approval_email' });
  });
  ctx.mail.kick();
  return { ok: true as const };
}
