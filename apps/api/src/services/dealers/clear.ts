import { deleteAllDealers } from '@dn/db/queries/dealers';
import { endSessionsOfRole } from '@dn/db/queries/sessions';
import type { Context, User } from '../../context';
import { audit } from '../audit/audit';

/**
 * Deletes every dealer application (links, tokens and commissions go with them by foreign key)
 * and ends every dealer session. The audit trail keeps how many were removed; audit rows have
 * no foreign key, so the history outlives the dealers.
 */
export async function clearAllDealers(ctx: Context & { user: User }) {
  const removed = await ctx.db.transaction().execute(async (trx) => {
    const count = await deleteAllDealers(trx);
    await endSessionsOfRole(trx, 'dealer');
    await audit(trx, ctx, {
      eventType: 'dealers.cleared',
      category: 'admin',
      message: `${ctx.user.username} cleared all dealer applications (${count} removed)`,
      details: { removed: count },
    });
    return count;
  });
  return { ok: true as const, removed };
}
