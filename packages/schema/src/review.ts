import { z } from 'zod';
import { uuid } from './common';
import { dealerStatus, rejectDealer, tier } from './dealer';

/** Bulk review and undo (issue 14, docs/decisions/0620-bulk-review-and-undo.md). */

/** How long an admin decision can be undone, and how long the emails it causes wait. */
export const UNDO_WINDOW_SECONDS = 10;
/** Dealers decided per request (and per transaction) of a large selection. */
export const BULK_BATCH_SIZE = 1000;
/** At most this many dealers picked one by one; beyond that, select all matching the filter. */
export const MAX_PICKED_DEALERS = 1000;

export const reviewDecision = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('approve') }),
    z.object({ kind: z.literal('reject'), reason: rejectDealer.shape.reason }),
    z.object({ kind: z.literal('status'), status: dealerStatus }),
    z.object({ kind: z.literal('tier'), tier }),
  ],
  { error: 'Please choose an action' },
);
export type ReviewDecision = z.output<typeof reviewDecision>;

export const reviewFilter = z.object({
  q: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  tier: tier.optional(),
  status: dealerStatus.optional(),
});

export const reviewSelection = z.union(
  [
    z.strictObject({
      ids: z
        .array(uuid('Unknown dealer'))
        .min(1, 'Select at least one dealer')
        .max(MAX_PICKED_DEALERS, `Select at most ${MAX_PICKED_DEALERS} dealers, or all matching the filter`),
    }),
    z.strictObject({ filter: reviewFilter }),
  ],
  { error: 'Please select dealers' },
);

export const bulkReviewInput = z.object({ selection: reviewSelection, decision: reviewDecision });
export const adminActionId = z.object({ id: uuid('Unknown action') });

/** Why a selected dealer was left as it was. */
export const SKIP_REASONS = {
  already_approved: 'already approved or active',
  already_rejected: 'already rejected',
  same_status: 'already in that status',
  same_tier: 'already in that tier',
} as const;
export type SkipReason = keyof typeof SKIP_REASONS;

export const UNDO_FINAL = 'This action is final: the undo window has passed';
export const UNDO_DONE = 'This action was already undone';
export const UNDO_NOT_YOURS = 'Only the admin who took this action can undo it';
