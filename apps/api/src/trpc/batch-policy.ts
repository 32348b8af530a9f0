import { TRPCError } from '@trpc/server';

/**
 * Batching limits on /trpc (decision 0630). A batch is one HTTP request, so without a cap it can
 * carry hundreds of calls, each a password hash or an email. The web client batches only the
 * queries one screen makes, far fewer than this.
 */
export const MAX_BATCH_SIZE = 10;

/**
 * Procedures that hash a password or send an email: they are answered one per request. A batch
 * that holds one of them together with anything else is refused whole with 400, before any entry
 * runs (simpler to reason about than a half-run batch; the web client sends each of these alone).
 */
export const NOT_BATCHABLE: ReadonlySet<string> = new Set([
  'auth.dealerLogin',
  'auth.adminLogin',
  'account.setupPassword',
  'account.resetPassword',
  'account.changePassword',
  'team.acceptInvite',
  'team.changePassword',
  'team.invite',
  'site.signup',
  'site.scheduleCall',
  'admin.approve',
  'admin.sendApprovalEmail',
  'admin.grantAccess',
  'admin.resetPassword',
  'review.bulk',
]);

/** Throws 400 when a batch of several calls includes a procedure that must be called alone. */
export function refuseUnbatchable(info: { isBatchCall: boolean; calls: readonly { path: string }[] } | undefined) {
  if (!info?.isBatchCall || info.calls.length < 2) return;
  const alone = info.calls.find((c) => NOT_BATCHABLE.has(c.path));
  if (alone) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `${alone.path} cannot be batched: send it alone.` });
  }
}
