import type { Context, User } from '../../context';
import { lockApplication } from '../applications/review';
import { decideOne, sendWhenFinal } from './decide';

/**
 * Rejects an application with the admin's reason and tells the applicant (after the undo
 * window); a dealer who could sign in is signed out. Rejecting a rejected dealer changes
 * nothing and sends nothing (services/review/decide.ts, the same decision as a bulk rejection).
 */
export async function rejectDealer(ctx: Context & { user: User }, id: string, reason: string) {
  const action = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockApplication(trx, id);
    return decideOne(trx, ctx, { kind: 'reject', reason }, before);
  });
  sendWhenFinal(ctx, action?.undoUntil);
  return { ok: true as const, status: 'rejected' as const, alreadyRejected: !action, action };
}
