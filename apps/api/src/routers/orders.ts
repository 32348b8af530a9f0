import { dealerOrdersQuery, importOrdersInput, recordOrderInput, setOrderStatusInput } from '@dn/schema';
import { importOrders } from '../services/orders/import';
import { listOrdersOfDealer, recordOrder, setOrderStatusByAdmin } from '../services/orders/record';
import { ordersWebhookStatus } from '../services/orders/webhook-status';
import { adminProcedure, alone, ownerProcedure, rest, reviewerProcedure, router } from '../trpc/init';

/**
 * Orders (issue 13). The signed webhook (POST /api/integrations/orders) is a hand-written route:
 * its signature covers the raw body (http/order-webhook.ts).
 */
export const ordersRouter = router({
  webhookStatus: ownerProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/integrations/orders-webhook',
        "The orders webhook's URL, whether its secret is set (never the secret) and its newest 20 deliveries with the status answered",
      ),
    )
    .query(({ ctx }) => ordersWebhookStatus(ctx)),
  record: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/dealers/{id}/orders',
        'Records an order on a dealer (idempotent on orderId; an id another source recorded is 409 unless differentOrder; dated more than 60 days back, owners only); updates totals, activation and the commission',
      ),
    )
    .input(recordOrderInput)
    .mutation(({ ctx, input }) =>
      recordOrder(ctx, {
        source: 'admin',
        dealer: { dealerId: input.id },
        orderId: input.orderId,
        amount: input.amount,
        orderedAt: input.orderedAt,
        status: 'placed',
        differentOrder: input.differentOrder,
      }),
    ),
  setStatus: reviewerProcedure
    .meta(
      rest('POST', '/api/admin/orders/{id}/status', 'Cancels or refunds an order; voids or claws back its commission'),
    )
    .input(setOrderStatusInput)
    .mutation(({ ctx, input }) => setOrderStatusByAdmin(ctx, input.id, input.status)),
  ofDealer: adminProcedure
    .meta(rest('GET', '/api/admin/dealers/{id}/orders', "A dealer's orders, newest first, with their totals"))
    .input(dealerOrdersQuery)
    .query(({ ctx, input }) => listOrdersOfDealer(ctx, input.id)),
  import: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/orders/import',
        'Imports orders from CSV text ({ csv }: header orderId, dealerId|dealerEmail|externalCrmId, amount, orderedAt[, status, eventAt, differentOrder]); rows already imported are skipped, rejected rows returned with reasons',
      ),
    )
    .input(importOrdersInput)
    .mutation(({ ctx, input }) => importOrders(ctx, input.csv)),
});
