import { listOwnOrders, ownOrdersSummary } from '@dn/db/queries/orders';
import { DEALER_ORDERS_PAGE_SIZE } from '@dn/schema';
import type { Context, User } from '../../context';

/**
 * The signed-in dealer's own orders, newest first, one page, and the date of their first order
 * (GET /api/dealer/orders; decision 0720). Nothing of anyone else's: the dealer is the session's.
 */
export async function ownOrders(ctx: Context & { user: User }, page: number) {
  const [summary, rows] = await Promise.all([
    ownOrdersSummary(ctx.db, ctx.user.id),
    listOwnOrders(ctx.db, ctx.user.id, {
      limit: DEALER_ORDERS_PAGE_SIZE,
      offset: (page - 1) * DEALER_ORDERS_PAGE_SIZE,
    }),
  ]);
  return {
    firstOrderAt: summary.firstOrderAt?.toISOString() ?? null,
    items: rows.map((o) => ({
      id: o.id,
      orderId: o.externalOrderId,
      amount: o.amount,
      status: o.status,
      orderedAt: o.orderedAt.toISOString(),
    })),
    total: summary.total,
    page,
    pageSize: DEALER_ORDERS_PAGE_SIZE,
  };
}
