import type { DB, Kysely, Order, OrderSource } from '@dn/db';
import {
  activateApprovedDealer,
  countOtherOrders,
  dealerTotals,
  findDealerIdsByRef,
  findOrderById,
  findOrderByKey,
  insertOrderOnce,
  listDealerOrders,
  lockDealerById,
  refreshDealerTotals,
  setOrderStatus,
} from '@dn/db/queries/orders';
import { type DealerRef, displayMoney, type OrderStatus, type WebhookOrder } from '@dn/schema';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { earnCommission } from '../commissions/earn';
import * as ledger from '../commissions/ledger';

/**
 * Recording an order, whichever way it comes in (admin, webhook, CSV import): idempotent on
 * (source, external order id); the dealer's totals, activation and the recruiter's commission
 * change in the same transaction (docs/decisions/0601-partner-program.md).
 */

type Trx = Kysely<DB>;

export interface OrderEvent {
  source: OrderSource;
  dealer: DealerRef;
  orderId: string;
  amount: string;
  orderedAt: string;
  status: OrderStatus;
}

/** A webhook order or an imported CSV row as an event; its dealer by id, else email, else CRM id (the schema requires one). */
export function orderEvent(source: OrderSource, o: WebhookOrder): OrderEvent {
  const dealer =
    o.dealerId !== undefined
      ? { dealerId: o.dealerId }
      : o.dealerEmail !== undefined
        ? { dealerEmail: o.dealerEmail }
        : { externalCrmId: o.externalCrmId! };
  return { source, dealer, orderId: o.orderId, amount: o.amount, orderedAt: o.orderedAt, status: o.status };
}

export interface RecordResult {
  order: PublicOrder;
  /** false when the same order was already recorded (a replay) */
  created: boolean;
  /** whether this call changed the order's status */
  statusChanged: boolean;
}

export type PublicOrder = ReturnType<typeof publicOrder>;

export function publicOrder(o: Order) {
  return {
    id: o.id,
    dealerId: o.dealerId,
    orderId: o.externalOrderId,
    source: o.source,
    amount: o.amount,
    currency: o.currency,
    orderedAt: o.orderedAt.toISOString(),
    status: o.status,
    recordedBy: o.recordedBy,
    createdAt: o.createdAt.toISOString(),
  };
}

async function resolveDealerId(trx: Trx, ref: DealerRef): Promise<string> {
  if ('dealerId' in ref) return ref.dealerId;
  const ids = await findDealerIdsByRef(
    trx,
    'dealerEmail' in ref ? { email: ref.dealerEmail } : { externalCrmId: ref.externalCrmId },
  );
  const what = 'dealerEmail' in ref ? `dealerEmail ${ref.dealerEmail}` : `externalCrmId ${ref.externalCrmId}`;
  if (ids.length === 0) throw new AppError('NOT_FOUND', `No dealer matches ${what}`);
  if (ids.length > 1) throw new AppError('CONFLICT', `More than one dealer matches ${what}; send dealerId instead`);
  return ids[0]!.id;
}

const recorder = (ctx: Context, source: OrderSource) =>
  ctx.user ? ctx.user.username : source === 'webhook' ? 'webhook' : source;

/** Records one order event in its own transaction. */
export async function recordOrder(ctx: Context, e: OrderEvent): Promise<RecordResult> {
  const result = await ctx.db.transaction().execute((trx) => recordOrderIn(trx, ctx, e));
  if (result.created || result.statusChanged) ctx.mail.kick();
  return result;
}

/** The same, inside the caller's transaction (the CSV import records rows one savepoint at a time). */
export async function recordOrderIn(trx: Trx, ctx: Context, e: OrderEvent): Promise<RecordResult> {
  const dealerId = await resolveDealerId(trx, e.dealer);
  // The dealer's row lock puts every order of one dealer in a line: totals, the first-order rule
  // and activation never race.
  const dealer = await lockDealerById(trx, dealerId);
  if (!dealer) throw new AppError('NOT_FOUND', 'Unknown dealer');
  let existing = await findOrderByKey(trx, e.source, e.orderId);
  let inserted: Order | undefined;
  if (!existing) {
    inserted = await insertOrderOnce(trx, {
      dealerId: dealer.id,
      source: e.source,
      externalOrderId: e.orderId,
      amount: e.amount,
      orderedAt: new Date(e.orderedAt),
      recordedBy: recorder(ctx, e.source),
      status: e.status,
    });
    // A concurrent request for another dealer's lock inserted it first: read what it stored.
    if (!inserted) existing = await findOrderByKey(trx, e.source, e.orderId);
  }
  if (existing) return replay(trx, ctx, existing, dealer.id, e);
  if (!inserted) throw new AppError('CONFLICT', `Order ${e.orderId} is being recorded; try again`);

  await refreshDealerTotals(trx, dealer.id);
  await audit(trx, ctx, {
    eventType: 'order.recorded',
    category: ctx.user?.role === 'admin' ? 'admin' : 'system',
    message: `Order ${e.orderId} of ${displayMoney(e.amount)} recorded for ${dealer.email} (${e.source}${e.status === 'placed' ? '' : `, ${e.status}`})`,
    dealerId: dealer.id,
    details: { orderId: inserted.id, externalOrderId: e.orderId, source: e.source, amount: e.amount, status: e.status },
  });
  if (e.status === 'placed') {
    const isFirst = (await countOtherOrders(trx, dealer.id, inserted.id)) === 0;
    // The row is locked, so its status read above holds. An update that matches no row (the
    // dealer already active) would still run the dealers' four statement triggers.
    if (dealer.status === 'approved' && (await activateApprovedDealer(trx, dealer.id))) {
      await audit(trx, ctx, {
        eventType: 'dealer.activated',
        category: 'dealer',
        message: `${dealer.email} placed a first order and is now active`,
        dealerId: dealer.id,
        details: { before: { status: 'approved' }, after: { status: 'active' }, orderId: inserted.id },
      });
    }
    await earnCommission(trx, ctx, dealer, inserted, isFirst);
  }
  return { order: publicOrder(inserted), created: true, statusChanged: false };
}

/** The same (source, id) again: the same order, or a later event changing its status. */
async function replay(trx: Trx, ctx: Context, existing: Order, dealerId: string, e: OrderEvent): Promise<RecordResult> {
  if (existing.dealerId !== dealerId) {
    throw new AppError('CONFLICT', `Order ${e.orderId} was already recorded for another dealer`);
  }
  if (existing.amount !== e.amount) {
    throw new AppError('CONFLICT', `Order ${e.orderId} was already recorded with the amount ${existing.amount}`);
  }
  if (existing.status === e.status) return { order: publicOrder(existing), created: false, statusChanged: false };
  if (e.status === 'placed') {
    throw new AppError('CONFLICT', `Order ${e.orderId} is ${existing.status}; it cannot be placed again`);
  }
  const order = await changeStatusIn(trx, ctx, existing, e.status);
  return { order, created: false, statusChanged: true };
}

/** An admin cancels or refunds an order. */
export async function setOrderStatusByAdmin(ctx: Context, id: string, status: 'cancelled' | 'refunded') {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const first = await findOrderById(trx, id);
    if (!first) throw new AppError('NOT_FOUND', 'Unknown order');
    await lockDealerById(trx, first.dealerId);
    const order = await findOrderById(trx, id);
    if (!order) throw new AppError('NOT_FOUND', 'Unknown order');
    if (order.status === status) return { order: publicOrder(order), statusChanged: false };
    return { order: await changeStatusIn(trx, ctx, order, status), statusChanged: true };
  });
  return result;
}

async function changeStatusIn(trx: Trx, ctx: Context, order: Order, status: 'cancelled' | 'refunded') {
  if (order.status !== 'placed') {
    throw new AppError('CONFLICT', `Order ${order.externalOrderId} is already ${order.status}`);
  }
  await setOrderStatus(trx, order.id, status);
  await refreshDealerTotals(trx, order.dealerId);
  await audit(trx, ctx, {
    eventType: `order.${status}`,
    category: ctx.user?.role === 'admin' ? 'admin' : 'system',
    message: `Order ${order.externalOrderId} ${status}`,
    dealerId: order.dealerId,
    details: { orderId: order.id, before: { status: order.status }, after: { status } },
  });
  await ledger.reverse(trx, ctx, { ...order, status }, status);
  return publicOrder({ ...order, status, updatedAt: new Date() });
}

/** A dealer's orders and totals, for the admin timeline. */
export async function listOrdersOfDealer(ctx: Context, dealerId: string) {
  const totals = await dealerTotals(ctx.db, dealerId);
  if (!totals) throw new AppError('NOT_FOUND', 'Unknown dealer');
  const orders = await listDealerOrders(ctx.db, dealerId);
  return {
    totals: {
      totalOrders: totals.totalOrders,
      totalRevenue: totals.totalRevenue,
      averageOrderValue: totals.averageOrderValue,
      lastOrderDate: totals.lastOrderDate?.toISOString() ?? null,
    },
    orders: orders.map(publicOrder),
  };
}
