import {
  countSelection,
  type DealerSelection,
  extendActionWindow,
  insertAdminAction,
  lockAdminAction,
  lockSelectionBatch,
  recordActionBatch,
} from '@dn/db/queries/admin-actions';
import { BULK_BATCH_SIZE, type ReviewDecision, SKIP_REASONS, type SkipReason, UNDO_DONE } from '@dn/schema';
import { AppError } from '../../lib/app-error';
import { type AdminContext, decideBatch, mailNotBefore, sendWhenFinal, undoWindowSec } from './decide';

/**
 * A decision over a selection (picked rows, a page, or every dealer matching a filter). It runs
 * in batches of BULK_BATCH_SIZE, one transaction and one request each, so the admin sees
 * progress and a long run holds no lock for long: the first request creates the action and
 * decides the first batch, the web calls `continue` until `done`.
 */

export const ACTION_NOT_FOUND = 'Action not found';
const HOLD_WHILE_RUNNING_MS = 60 * 60_000;

export interface ActionParams {
  decision: ReviewDecision;
  selection: DealerSelection;
}

export async function startBulkReview(
  ctx: AdminContext,
  input: { selection: DealerSelection; decision: ReviewDecision },
) {
  // Counted and recorded in one transaction: its now() is the action's created_at, the moment a
  // filter's set is fixed (lockSelectionBatch), so the count is the set decided.
  const action = await ctx.db.transaction().execute(async (trx) => {
    const { selection } = input;
    const total = 'ids' in selection ? new Set(selection.ids).size : await countSelection(trx, selection.filter);
    return insertAdminAction(trx, {
      adminId: ctx.user.id,
      adminUsername: ctx.user.username,
      kind: input.decision.kind,
      params: { decision: input.decision, selection } satisfies ActionParams,
      windowSec: undoWindowSec(ctx),
      total,
    });
  });
  return continueBulkReview(ctx, action.id);
}

/** Decides the next batch of a bulk action; a finished action answers its summary. */
export async function continueBulkReview(ctx: AdminContext, id: string) {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const a = await lockAdminAction(trx, id);
    if (!a || a.adminId !== ctx.user.id) throw new AppError('NOT_FOUND', ACTION_NOT_FOUND);
    if (a.undoneAt) throw new AppError('CONFLICT', UNDO_DONE);
    if (a.done) return { a, changed: a.changed, skipped: a.skipped, processedNow: 0 };
    const { decision, selection } = a.params as unknown as ActionParams;
    const undoUntil = await extendActionWindow(trx, id, undoWindowSec(ctx));
    const rows = await lockSelectionBatch(trx, selection, a.cursor, BULK_BATCH_SIZE, id);
    const done = rows.length < BULK_BATCH_SIZE;
    // Until the last batch the emails are held (an abandoned run's go out an hour later).
    const held = done ? mailNotBefore(ctx, undoUntil) : new Date(undoUntil.getTime() + HOLD_WHILE_RUNNING_MS);
    const batch = await decideBatch(trx, ctx, { id, undoUntil, mailNotBefore: held }, decision, rows);
    const skipped: Record<string, number> = { ...a.skipped };
    for (const [k, n] of Object.entries(batch.skipped)) skipped[k] = (skipped[k] ?? 0) + n;
    await recordActionBatch(trx, id, {
      changed: a.changed + batch.changed,
      skipped,
      cursor: rows.at(-1)?.id ?? a.cursor,
      done,
      notBefore: mailNotBefore(ctx, undoUntil),
    });
    return { a: { ...a, undoUntil, done }, changed: a.changed + batch.changed, skipped, processedNow: rows.length };
  });
  if (result.a.done) sendWhenFinal(ctx, result.a.undoUntil);
  return actionSummary({ ...result.a, changed: result.changed, skipped: result.skipped });
}

/** What the web shows: progress, then the result (changed, skipped and why) with its Undo. */
export function actionSummary(a: {
  id: string;
  kind: string;
  total: number;
  changed: number;
  skipped: Record<string, number>;
  done: boolean;
  undoUntil: Date;
}) {
  const skipped = Object.entries(a.skipped).map(([reason, count]) => ({
    reason,
    count,
    why: SKIP_REASONS[reason as SkipReason] ?? reason,
  }));
  const processed = a.changed + skipped.reduce((n, s) => n + s.count, 0);
  return {
    id: a.id,
    kind: a.kind,
    done: a.done,
    total: Math.max(a.total, processed),
    processed,
    changed: a.changed,
    skipped,
    undoUntil: a.undoUntil.toISOString(),
  };
}
