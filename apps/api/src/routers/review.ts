import { adminActionId, bulkReviewInput, dealerId, rejectDealerInput, reviewQueueQuery } from '@dn/schema';
import { approveDealer, grantDealerAccess, sendApprovalEmail } from '../services/review/approval';
import { continueBulkReview, startBulkReview } from '../services/review/bulk';
import { reviewQueue } from '../services/review/queue';
import { rejectDealer } from '../services/review/rejection';
import { undoAction } from '../services/review/undo';
import { adminProcedure, alone, rest, reviewerProcedure, router } from '../trpc/init';

/**
 * Review at scale (issue 14): a decision over a selection of dealers, run in batches, and the
 * undo of any decision (single or bulk) within its window. docs/decisions/0620-bulk-review-and-undo.md.
 */
export const reviewRouter = router({
  // Issue 38: the pending applications with their age in business days, overdue first.
  queue: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/applications/review-queue',
        'Pending applications, oldest first, with their age in business days, overdue flag and decision-expected date (overdue=true: only the overdue)',
      ),
    )
    .input(reviewQueueQuery)
    .query(({ ctx, input }) => reviewQueue(ctx, input)),
  bulk: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/review/bulk',
        'Approves, rejects (one reason), sets the status or the tier of selected dealers (ids, or all matching a filter); decides the first batch and answers the progress',
      ),
    )
    .input(bulkReviewInput)
    .mutation(({ ctx, input }) => startBulkReview(ctx, input)),
  continue: reviewerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/admin/review/actions/{id}/continue', 'Decides the next batch of a bulk action'))
    .input(adminActionId)
    .mutation(({ ctx, input }) => continueBulkReview(ctx, input.id)),
  undo: reviewerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/review/actions/{id}/undo',
        'Undoes a decision within its undo window: no email is sent and the dealers are restored',
      ),
    )
    .input(adminActionId)
    .mutation(({ ctx, input }) => undoAction(ctx, input.id)),
});

/** Part of `admin.*`: the single decisions from the dealer table (the same decision as bulk: services/review/decide.ts). */
export const reviewAdmin = router({
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
});
