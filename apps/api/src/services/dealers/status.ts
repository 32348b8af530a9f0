import type { DealerStatus, Tier } from '@dn/schema';
import type { Context, User } from '../../context';
import { lockApplication } from '../applications/review';
import { decideOne, sendWhenFinal } from '../review/decide';

type AdminContext = Context & { user: User };

/**
 * Any of the six statuses, no ordering enforced (SPEC section 4). Leaving approved/active signs
 * the dealer out; a suspension and a reactivation are emailed after the undo window. The
 * decision is services/review/decide.ts, the same as a bulk status change.
 */
export async function setDealerStatus(ctx: AdminContext, id: string, status: DealerStatus) {
  const action = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockApplication(trx, id);
    return decideOne(trx, ctx, { kind: 'status', status }, before);
  });
  sendWhenFinal(ctx, action?.undoUntil);
  return { ok: true as const, status, action };
}

/** A new tier, emailed to the dealer (old and new tier, what changes) after the undo window. */
export async function upgradeDealerTier(ctx: AdminContext, id: string, tier: Tier) {
  const action = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockApplication(trx, id);
    return decideOne(trx, ctx, { kind: 'tier', tier }, before);
  });
  sendWhenFinal(ctx, action?.undoUntil);
  return { ok: true as const, tier, action };
}
