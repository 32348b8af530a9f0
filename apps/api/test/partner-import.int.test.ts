import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from './helpers';
import { counts, daysAgo, referredPair, setRule } from './partner-fixtures';

/** POST /api/admin/orders/import (issue 13). */

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  admin = await signInAdmin(h.app);
  await setRule(h, admin, 'Affiliate', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 30 });
});
afterAll(async () => {
  await h?.close();
});

const importCsv = (csv: unknown, cookie = admin) =>
  h.app.inject({
    method: 'POST',
    url: '/api/admin/orders/import',
    headers: cookie ? { cookie } : {},
    payload: { csv },
  });

describe('POST /api/admin/orders/import', () => {
  it('imports rows, skips rows already imported, rejects bad rows with their line and reason', async () => {
    const { dealer } = await referredPair(h);
    const csv = [
      'orderId,dealerEmail,amount,orderedAt,note',
      `I-1,${dealer.email},100.00,${daysAgo(2)},first`,
      `I-2,${dealer.email},"1,000.00",${daysAgo(1)},comma`,
      `I-3,nobody@example.com,5.00,${daysAgo(1)},`,
      `I-4,${dealer.email},250.5,${daysAgo(1)},`,
    ].join('\r\n');
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      rows: 4,
      imported: 2,
      skipped: 0,
      rejected: [
        { line: 3, orderId: 'I-2', reason: expect.stringMatching(/dollars and cents/) },
        { line: 4, orderId: 'I-3', reason: expect.stringMatching(/No dealer matches/) },
      ],
    });
    const again = await importCsv(csv);
    expect(again.json()).toMatchObject({ imported: 0, skipped: 2 });
    const d = await h.db
      .selectFrom('dealers')
      .select(['totalOrders', 'totalRevenue'])
      .where('id', '=', dealer.id)
      .executeTakeFirstOrThrow();
    expect(d).toEqual({ totalOrders: 2, totalRevenue: '350.50' });
    const cs = await h.db
      .selectFrom('commissions')
      .select('amount')
      .where('referredDealerId', '=', dealer.id)
      .orderBy('amount')
      .execute();
    expect(cs.map((c) => c.amount)).toEqual(['10.00', '25.05']);
  });

  it('reads quoted fields (RFC 4180): a comma, a line break and doubled quotes inside a field stay in their row', async () => {
    const { dealer } = await referredPair(h);
    const csv = [
      'orderId,dealerEmail,amount,orderedAt,note',
      `"Q-1, ""big""",${dealer.email},12.34,${daysAgo(2)},"two lines:\nthe second, with a comma"`,
      `Q-2,${dealer.email},5.00,${daysAgo(1)},"say ""hi"",\r\nthen ""bye"""`,
      `Q-3,nobody@example.com,1.00,${daysAgo(1)},"""quoted"" and, comma"`,
    ].join('\r\n');
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    // Rejected rows are numbered by record (the header is 1), whatever line breaks the fields hold.
    expect(res.json()).toEqual({
      rows: 3,
      imported: 2,
      skipped: 0,
      rejected: [{ line: 4, orderId: 'Q-3', reason: expect.stringMatching(/No dealer matches/) }],
    });
    const orders = await h.db
      .selectFrom('orders')
      .select(['externalOrderId', 'amount'])
      .where('dealerId', '=', dealer.id)
      .orderBy('amount', 'desc')
      .execute();
    expect(orders).toEqual([
      { externalOrderId: 'Q-1, "big"', amount: '12.34' },
      { externalOrderId: 'Q-2', amount: '5.00' },
    ]);
    expect((await importCsv(csv)).json()).toMatchObject({ imported: 0, skipped: 2 });
  });

  it('refuses a file it cannot read with 400 and stores nothing; 401 and 403', async () => {
    const before = await counts(h);
    for (const csv of [
      '',
      'orderId,amount\nx,1.00',
      'orderId,amount,orderedAt\nx,1.00,2026-01-01T00:00:00Z',
      'orderId,dealerId,amount,orderedAt\n"x,1',
      42,
    ]) {
      const res = await importCsv(csv);
      expect(res.statusCode, `${JSON.stringify(csv)} ${res.body}`).toBe(400);
    }
    const many = ['orderId,dealerId,amount,orderedAt', ...Array.from({ length: 501 }, (_, i) => `m${i},x,1,y`)].join(
      '\n',
    );
    expect((await importCsv(many)).statusCode).toBe(400);
    expect((await importCsv('orderId,dealerId,amount,orderedAt', '')).statusCode).toBe(401);
    const d = await createDealer(h.db, { status: 'active' });
    expect((await importCsv('orderId,dealerId,amount,orderedAt', await signInDealer(h.app, d.email))).statusCode).toBe(
      403,
    );
    expect(await counts(h)).toEqual(before);
  });
});
