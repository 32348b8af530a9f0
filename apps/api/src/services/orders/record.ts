import type { DB, Kysely, Order, OrderSource } from '@dn/db';
import {
  activateApprovedDealer,
  countOrderEvents,
  countOtherOrders,
  dealerTotals,
  decidingOrderEvent,
  findDealerIdsByRef,
  findOrderById,
  findOrderByKey,
  findOrderOfOtherSource,
  insertOrderEvent,
  insertOrderOnce,
  listDealerOrders,
  lockDealerById,
  lockExternalOrderId,
  refreshDealerTotals,
  setOrderStatus,
} from '@dn/db/queries/orders';
import { BACKDATE_OWNER_DAYS, type DealerRef, displayMoney, type OrderStatus, type WebhookOrder } from '@dn/schema';
import type { Context } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { earnCommission } from '../commissions/earn';
import * as ledger from '../commissions/ledger';

/**
 * Recording an order, whichever way it comes in (admin, webhook, CSV import): idempotent on
 * (source, external order id); the dealer's totals, activation and the recruiter's commission
 * change in the same transaction (docs/decisions/0601-partner-program.md).
 *
 * Each call is an event of the order, kept (order_events); the order's status is the one its set of
 * events decides, so events may arrive in any order (issue 35, finding 10, decision 0892). One id is
 * one order across sources unless an admin says otherwise; an admin who is not an owner cannot
 * record an order dated more than BACKDATE_OWNER_DAYS back (finding 4, decision 0891).
 */

type Trx = Kysely<DB>;

export interface OrderEvent {
  source: OrderSource;
  dealer: DealerRef;
  orderId: string;
  amount: string;
  orderedAt: string;
  status: OrderStatus;
  /** When the event took effect at its sender; the order date when absent. */
  eventAt?: string | undefined;
  /** An admin's word that this is not the order another source recorded under the same id. */
  differentOrder?: boolean | undefined;
  /** An installed job's order (source `job`, issue 45): the job, and whether its seller installed it. */
  job?: { id: string; sellerInstalled: boolean } | undefined;
}

/** A webhook order or an imported CSV row as an event; its dealer by id, else email, else CRM id (the schema requires one). */
export function orderEvent(source: OrderSource, o: WebhookOrder): OrderEvent {
  const dealer =
    o.dealerId !== undefined
      ? { dealerId: o.dealerId }
      : o.dealerEmail !== undefined
        ? { dealerEmail: o.dealerEmail }
        : { externalCrmId: o.externalCrmId! };
  return {
    source,
    dealer,
    orderId: o.orderId,
    amount: o.amount,
    orderedAt: o.orderedAt,
    status: o.status,
    eventAt: o.eventAt,
  };
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

const SOURCE_NAMES: Record<OrderSource, string> = {
  webhook: 'the orders webhook',
  admin: "an admin's entry",
  import: 'a CSV import',
  job: 'an installed network job',
};
const DAY_MS = 24 * 60 * 60 * 1000;

/** The same, inside the caller's transaction (the CSV import records rows one savepoint at a time). */
export async function recordOrderIn(trx: Trx, ctx: Context, e: OrderEvent): Promise<RecordResult> {
  // Every recording of one id waits its turn, whatever its source or dealer; then the dealer's row
  // lock puts every order of one dealer in a line: totals, the first-order rule and activation never race.
  await lockExternalOrderId(trx, e.orderId);
  const dealerId = await resolveDealerId(trx, e.dealer);
  const dealer = await lockDealerById(trx, dealerId);
  if (!dealer) throw new AppError('NOT_FOUND', 'Unknown dealer');
  const existing = await findOrderByKey(trx, e.source, e.orderId);
  if (existing) return nextEvent(trx, ctx, existing, dealer, e);

  await assertMayRecord(trx, ctx, e);
  const by = recorder(ctx, e.source);
  const inserted = await insertOrderOnce(trx, {
    dealerId: dealer.id,
    source: e.source,
    externalOrderId: e.orderId,
    amount: e.amount,
    orderedAt: new Date(e.orderedAt),
    recordedBy: by,
    status: e.status,
    statusAt: eventTime(e),
    declaredDistinct: e.differentOrder === true,
  });
  if (!inserted) throw new AppError('CONFLICT', `Order ${e.orderId} is being recorded; try again`);

  await refreshDealerTotals(trx, dealer.id);
  await audit(trx, ctx, {
    eventType: 'order.recorded',
    category: ctx.user?.role === 'admin' ? 'admin' : 'system',
    message: `Order ${e.orderId} of ${displayMoney(e.amount)} recorded for ${dealer.email} (${e.source}${e.status === 'placed' ? '' : `, ${e.status}`})`,
    dealerId: dealer.id,
    details: {
      orderId: inserted.id,
      externalOrderId: e.orderId,
      source: e.source,
      amount: e.amount,
      status: e.status,
      orderedAt: e.orderedAt,
      ...(inserted.declaredDistinct ? { declaredDistinct: true } : {}),
    },
  });
  if (e.status === 'placed') await placed(trx, ctx, dealer, inserted, e.job);
  return { order: publicOrder(inserted), created: true, statusChanged: false };
}

const eventTime = (e: OrderEvent) => new Date(e.eventAt ?? e.orderedAt);

/**
 * A new order id from this source: refused (409, naming the first) when another source recorded it,
 * unless the admin said it is a different order; dated more than BACKDATE_OWNER_DAYS back, an
 * admin's entry or import needs an owner (403).
 */
async function assertMayRecord(trx: Trx, ctx: Context, e: OrderEvent) {
  if (!e.differentOrder) {
    const first = await findOrderOfOtherSource(trx, e.source, e.orderId);
    if (first) {
      const who = first.source === 'webhook' || !first.recordedBy ? '' : ` by ${first.recordedBy}`;
      throw new AppError(
        'CONFLICT',
        `Order ${e.orderId} was already recorded from ${SOURCE_NAMES[first.source]}${who} on ${first.createdAt.toISOString().slice(0, 10)}; if it is a different order, record it as one (differentOrder)`,
      );
    }
  }
  const user = ctx.user;
  if (user?.role === 'admin' && user.adminRole !== 'owner') {
    if (Date.parse(e.orderedAt) < Date.now() - BACKDATE_OWNER_DAYS * DAY_MS) {
      throw new AppError(
        'FORBIDDEN',
        `Order ${e.orderId} is dated more than ${BACKDATE_OWNER_DAYS} days back: an owner records it (two-person rule)`,
      );
    }
  }
}

/** What a placed order does: a first order activates an approved dealer; the recruiter's commission. */
async function placed(trx: Trx, ctx: Context, dealer: OrderDealerRow, order: Order, job?: OrderEvent['job']) {
  const isFirst = (await countOtherOrders(trx, dealer.id, order.id)) === 0;
  // The row is locked, so its status read above holds. An update that matches no row (the
  // dealer already active) would still run the dealers' four statement triggers.
  if (dealer.status === 'approved' && (await activateApprovedDealer(trx, dealer.id))) {
    await audit(trx, ctx, {
      eventType: 'dealer.activated',
      category: 'dealer',
      message: `${dealer.email} placed a first order and is now active`,
      dealerId: dealer.id,
      details: { before: { status: 'approved' }, after: { status: 'active' }, orderId: order.id },
    });
  }
  await earnCommission(trx, ctx, dealer, order, isFirst, job);
}

type OrderDealerRow = NonNullable<Awaited<ReturnType<typeof lockDealerById>>>;

/**
 * Another event of a recorded order (same source and id): kept, then the order's status is what the
 * set of its events decides. A placed event arriving after the order ended (out of order) still
 * earns and activates as it would have in order, and the commission is reversed at once, so every
 * order of arrival ends with the same order and the same ledger.
 */
async function nextEvent(
  trx: Trx,
  ctx: Context,
  existing: Order,
  dealer: OrderDealerRow,
  e: OrderEvent,
): Promise<RecordResult> {
  if (existing.dealerId !== dealer.id) {
    throw new AppError('CONFLICT', `Order ${e.orderId} was already recorded for another dealer`);
  }
  if (existing.amount !== e.amount) {
    throw new AppError('CONFLICT', `Order ${e.orderId} was already recorded with the amount ${existing.amount}`);
  }
  const kept = await insertOrderEvent(trx, {
    orderRef: existing.id,
    source: e.source,
    status: e.status,
    eventAt: eventTime(e),
    recordedBy: recorder(ctx, e.source),
  });
  if (!kept) return { order: publicOrder(existing), created: false, statusChanged: false };
  const firstPlaced = e.status === 'placed' && (await countOrderEvents(trx, existing.id, 'placed')) === 1;
  if (firstPlaced) await placed(trx, ctx, dealer, existing, e.job);
  const decided = await decidingOrderEvent(trx, existing.id);
  const next = decided.status;
  const order =
    next === existing.status ? publicOrder(existing) : await newStatus(trx, ctx, existing, next, decided.eventAt);
  if (next !== 'placed' && (existing.status === 'placed' || firstPlaced)) {
    await ledger.reverse(trx, ctx, { ...existing, status: next }, next);
  }
  return { order, created: false, statusChanged: next !== existing.status };
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
  const now = new Date();
  await insertOrderEvent(trx, {
    orderRef: order.id,
    source: 'admin',
    status,
    eventAt: now,
    recordedBy: ctx.user?.username ?? null,
  });
  const changed = await newStatus(trx, ctx, order, status, now);
  await ledger.reverse(trx, ctx, { ...order, status }, status);
  return changed;
}

/** Writes the order's new status (decided at `at`), its dealer's totals and the audit row. */
async function newStatus(trx: Trx, ctx: Context, order: Order, status: OrderStatus, at: Date) {
  await setOrderStatus(trx, order.id, status, at);
  await refreshDealerTotals(trx, order.dealerId);
  await audit(trx, ctx, {
    eventType: `order.${status}`,
    category: ctx.user?.role === 'admin' ? 'admin' : 'system',
    message: `Order ${order.externalOrderId} ${status}`,
    dealerId: order.dealerId,
    details: { orderId: order.id, before: { status: order.status }, after: { status } },
  });
  return publicOrder({ ...order, status, statusAt: at, updatedAt: new Date() });
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
