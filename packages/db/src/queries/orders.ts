import { sql } from 'kysely';
import type { OrderSource, OrderStatus } from '../types';
import type { Executor } from './executor';

/** Orders (issue 13) and the per-dealer totals they keep. */

const DEALER_COLUMNS = ['id', 'tier', 'status', 'email', 'fullName', 'referredBy', 'approvalDate'] as const;

/**
 * Locks the dealer an order belongs to: every change to a dealer's orders runs one at a time,
 * so totals, activation and the "first order" rule see a settled history.
 */
export function lockDealerById(db: Executor, id: string) {
  return db.selectFrom('dealers').select(DEALER_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Dealer ids by email (case-insensitive) or external CRM id; at most two, to tell an ambiguous reference. */
export function findDealerIdsByRef(db: Executor, ref: { email: string } | { externalCrmId: string }) {
  const q = db.selectFrom('dealers').select('id').limit(2);
  return 'email' in ref
    ? q.where(sql<string>`lower(email)`, '=', ref.email.toLowerCase()).execute()
    : q.where('externalCrmId', '=', ref.externalCrmId).execute();
}

const ORDER_COLUMNS = [
  'id',
  'dealerId',
  'source',
  'externalOrderId',
  'amount',
  'currency',
  'orderedAt',
  'status',
  'recordedBy',
  'createdAt',
  'updatedAt',
  'statusAt',
  'declaredDistinct',
] as const;

/**
 * Puts every recording of one external order id in a line, whatever its source or dealer (issue 35,
 * finding 10): the check for another source's order and the insert never race. Taken first, before
 * the dealer's row lock, by every path that records an order event.
 */
export async function lockExternalOrderId(db: Executor, externalOrderId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(35010, hashtext(${externalOrderId}))`.execute(db);
}

/** The first order recorded with this id from another source than `source` (the one a 409 names). */
export function findOrderOfOtherSource(db: Executor, source: OrderSource, externalOrderId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'source', 'recordedBy', 'createdAt'])
    .where('externalOrderId', '=', externalOrderId)
    .where('source', '<>', source)
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** Keeps an order event; undefined when the same event (order, status, event time) was kept before. */
export function insertOrderEvent(
  db: Executor,
  e: { orderRef: string; source: OrderSource; status: OrderStatus; eventAt: Date; recordedBy: string | null },
) {
  return db
    .insertInto('orderEvents')
    .values(e)
    .onConflict((oc) => oc.columns(['orderRef', 'status', 'eventAt']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/** How many distinct events of this status the order has. */
export async function countOrderEvents(db: Executor, orderRef: string, status: OrderStatus): Promise<number> {
  const row = await db
    .selectFrom('orderEvents')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('orderRef', '=', orderRef)
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The event that decides an order's status, from the set of its events (so whatever order they
 * arrived in): a cancel or a refund ends an order, the latest of them by event time (a refund on a
 * tie); an order with neither is placed. Its recorder is who ended the order.
 */
export async function decidingOrderEvent(db: Executor, orderRef: string) {
  // The order's own status is in the set too: an order written before its events were kept (or by
  // a bulk seed) still has one. It changes nothing otherwise: it is what the events decided.
  const r = await sql<{ status: OrderStatus; eventAt: Date; recordedBy: string | null }>`
    select status, event_at as "eventAt", recorded_by as "recordedBy" from (
      select status, event_at, recorded_by, true as kept from order_events where order_ref = ${orderRef}
      union all
      select status, status_at, recorded_by, false from orders where id = ${orderRef}
    ) e
    order by status <> 'placed' desc, event_at desc, status = 'refunded' desc, kept desc
    limit 1`.execute(db);
  const row = r.rows[0];
  if (!row) throw new Error(`no order ${orderRef}`);
  return { ...row, eventAt: new Date(row.eventAt) };
}

export function findOrderByKey(db: Executor, source: OrderSource, externalOrderId: string) {
  return db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('source', '=', source)
    .where('externalOrderId', '=', externalOrderId)
    .executeTakeFirst();
}

export function findOrderById(db: Executor, id: string) {
  return db.selectFrom('orders').select(ORDER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * Inserts an order unless (source, external id) exists, with its first event (status at `statusAt`,
 * by default the order date); undefined when it existed (someone else won).
 */
export async function insertOrderOnce(
  db: Executor,
  o: {
    dealerId: string;
    source: OrderSource;
    externalOrderId: string;
    amount: string;
    orderedAt: Date;
    recordedBy: string | null;
    status: OrderStatus;
    statusAt?: Date;
    declaredDistinct?: boolean;
  },
) {
  const statusAt = o.statusAt ?? o.orderedAt;
  const order = await db
    .insertInto('orders')
    .values({ ...o, statusAt, declaredDistinct: o.declaredDistinct ?? false, updatedAt: new Date() })
    .onConflict((oc) => oc.columns(['source', 'externalOrderId']).doNothing())
    .returning(ORDER_COLUMNS)
    .executeTakeFirst();
  if (order) {
    await insertOrderEvent(db, {
      orderRef: order.id,
      source: o.source,
      status: o.status,
      eventAt: statusAt,
      recordedBy: o.recordedBy,
    });
  }
  return order;
}

export async function setOrderStatus(db: Executor, id: string, status: OrderStatus, statusAt: Date): Promise<void> {
  await db.updateTable('orders').set({ status, statusAt, updatedAt: new Date() }).where('id', '=', id).execute();
}

/** How many orders the dealer has besides `exceptId` (any status): 0 means this is the first. */
export async function countOtherOrders(db: Executor, dealerId: string, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('dealerId', '=', dealerId)
    .where('id', '<>', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Recomputes the dealer's totals from the placed orders (and the first order's date from every
 * order, any status: decision 0720), in numeric arithmetic: the totals
 * always equal the sum of the orders, whatever happened before. Average rounds half away from zero.
 */
export async function refreshDealerTotals(db: Executor, dealerId: string): Promise<void> {
  await sql`
    update dealers d set
      total_orders = s.n,
      total_revenue = s.revenue,
      last_order_date = s.last,
      average_order_value = case when s.n = 0 then 0 else round(s.revenue / s.n, 2) end,
      first_order_at = s.first,
      updated_at = now()
    from (
      select count(*) filter (where status = 'placed')::int as n,
        coalesce(sum(amount) filter (where status = 'placed'), 0) as revenue,
        max(ordered_at) filter (where status = 'placed') as last,
        min(ordered_at) as first
      from orders where dealer_id = ${dealerId}
    ) s
    where d.id = ${dealerId}`.execute(db);
}

/** A first order makes an approved dealer active; returns whether it did. */
export async function activateApprovedDealer(db: Executor, dealerId: string): Promise<boolean> {
  const r = await db
    .updateTable('dealers')
    .set({ status: 'active', updatedAt: new Date() })
    .where('id', '=', dealerId)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export function dealerTotals(db: Executor, dealerId: string) {
  return db
    .selectFrom('dealers')
    .select(['totalOrders', 'totalRevenue', 'lastOrderDate', 'averageOrderValue', 'status'])
    .where('id', '=', dealerId)
    .executeTakeFirst();
}

/** A dealer's orders, newest first (the timeline shows at most `limit`). */
export function listDealerOrders(db: Executor, dealerId: string, limit = 200) {
  return db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('dealerId', '=', dealerId)
    .orderBy('orderedAt', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The signed-in dealer's own orders, newest first, one page (GET /api/dealer/orders). */
export function listOwnOrders(db: Executor, dealerId: string, page: { limit: number; offset: number }) {
  return db
    .selectFrom('orders')
    .select(['id', 'externalOrderId', 'amount', 'orderedAt', 'status'])
    .where('dealerId', '=', dealerId)
    .orderBy('orderedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many orders the dealer has (any status) and the date of the first one. */
export async function ownOrdersSummary(db: Executor, dealerId: string) {
  const row = await db
    .selectFrom('dealers as d')
    .select((eb) => [
      'd.firstOrderAt',
      eb.selectFrom('orders').select(eb.fn.countAll<string>().as('n')).whereRef('dealerId', '=', 'd.id').as('total'),
    ])
    .where('d.id', '=', dealerId)
    .executeTakeFirst();
  return { firstOrderAt: row?.firstOrderAt ?? null, total: Number(row?.total ?? 0) };
}
