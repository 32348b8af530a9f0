import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as m0720 from '../migrations/2026-11-24-0720-dealer-first-order';
import { createTestDatabase, newDealer, type TestDatabase } from '../testing';
import { insertDealer } from './dealers';
import { insertOrderOnce, listOwnOrders, ownOrdersSummary, refreshDealerTotals } from './orders';

/** The first order's date (decision 0720): kept by the totals recompute, backfilled by its migration. */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const dealer = async () => (await insertDealer(t.db, newDealer(`first.order.${++n}@example.com`))).id;
const order = (dealerId: string, id: string, at: string, status: 'placed' | 'cancelled' = 'placed') =>
  insertOrderOnce(t.db, {
    dealerId,
    source: 'admin',
    externalOrderId: id,
    amount: '10.00',
    orderedAt: new Date(at),
    recordedBy: null,
    status,
  });
const firstOrderAt = async (id: string) =>
  (await t.db.selectFrom('dealers').select('firstOrderAt').where('id', '=', id).executeTakeFirstOrThrow()).firstOrderAt;

describe('dealers.first_order_at', () => {
  it('refreshDealerTotals sets it to the earliest order of any status; totals stay placed-only', async () => {
    const d = await dealer();
    expect(await ownOrdersSummary(t.db, d)).toEqual({ firstOrderAt: null, total: 0 });
    await order(d, `${d}-a`, '2026-03-10T10:00:00Z');
    await order(d, `${d}-b`, '2026-02-01T10:00:00Z', 'cancelled');
    await refreshDealerTotals(t.db, d);
    expect(await firstOrderAt(d)).toEqual(new Date('2026-02-01T10:00:00Z'));
    const totals = await t.db
      .selectFrom('dealers')
      .select(['totalOrders', 'totalRevenue', 'lastOrderDate'])
      .where('id', '=', d)
      .executeTakeFirstOrThrow();
    expect(totals).toEqual({ totalOrders: 1, totalRevenue: '10.00', lastOrderDate: new Date('2026-03-10T10:00:00Z') });
    expect(await ownOrdersSummary(t.db, d)).toEqual({ firstOrderAt: new Date('2026-02-01T10:00:00Z'), total: 2 });
    const page = await listOwnOrders(t.db, d, { limit: 1, offset: 1 });
    expect(page.map((o) => o.externalOrderId)).toEqual([`${d}-b`]);
  });

  it('the migration backfills it from the orders already stored', async () => {
    const d = await dealer();
    const none = await dealer();
    await order(d, `${d}-x`, '2026-05-05T00:00:00Z');
    await order(d, `${d}-y`, '2026-04-04T00:00:00Z');
    await m0720.down(t.db);
    await m0720.up(t.db);
    expect(await firstOrderAt(d)).toEqual(new Date('2026-04-04T00:00:00Z'));
    expect(await firstOrderAt(none)).toBeNull();
  });
});
