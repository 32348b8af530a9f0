import { lockAdminAction, markActionUndone, restoreActionItems } from '@dn/db/queries/admin-actions';
import { insertAuditLogs } from '@dn/db/queries/audit-logs';
import { deleteQueuedMailOfAction } from '@dn/db/queries/email-outbox';
import { retireTokensOfAction } from '@dn/db/queries/magic-link-tokens';
import { UNDO_DONE, UNDO_FINAL } from '@dn/schema';
import { AppError } from '../../lib/app-error';
import { auditRow } from '../audit/audit';
import { ACTION_NOT_FOUND } from './bulk';
import type { AdminContext } from './decide';

/**
 * Undoes an admin decision while its window is open (by the database clock): its held emails
 * are deleted, the set-up links it issued stop working, and each dealer it changed gets its
 * before-state back unless something else changed that dealer since (then it is kept and
 * counted). Sessions it ended stay ended. After the window the action is final.
 */
export async function undoAction(ctx: AdminContext, id: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const a = await lockAdminAction(trx, id);
    if (!a || a.adminId !== ctx.user.id) throw new AppError('NOT_FOUND', ACTION_NOT_FOUND);
    if (a.undoneAt) throw new AppError('CONFLICT', UNDO_DONE);
    if (!a.open) throw new AppError('CONFLICT', UNDO_FINAL);
    const emailsCancelled = await deleteQueuedMailOfAction(trx, id);
    if (a.kind === 'approve') await retireTokensOfAction(trx, id, a.createdAt);
    const restored = await restoreActionItems(trx, id);
    await markActionUndone(trx, id);
    await ctx.offers?.withdrawIneligible(
      trx,
      restored.map((r) => r.id),
    );
    await insertAuditLogs(
      trx,
      restored.map((r) =>
        auditRow(ctx, {
          eventType: 'dealer.decision_undone',
          category: 'admin',
          message: `${ctx.user.username} undid the ${a.kind} decision on ${r.email}`,
          dealerId: r.id,
          details: { actionId: id, kind: a.kind, restored: { status: r.status, tier: r.tier } },
        }),
      ),
    );
    return {
      ok: true as const,
      restored: restored.length,
      kept: a.changed - restored.length,
      emailsCancelled,
    };
  });
}
