import { adminActionId, bulkReviewInput } from '@dn/schema';
import { continueBulkReview, startBulkReview } from '../services/review/bulk';
import { undoAction } from '../services/review/undo';
import { alone, rest, reviewerProcedure, router } from '../trpc/init';

/**
 * Review at scale (issue 14): a decision over a selection of dealers, run in batches, and the
 * undo of any decision (single or bulk) within its window. docs/decisions/0620-bulk-review-and-undo.md.
 */
export const reviewRouter = router({
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
