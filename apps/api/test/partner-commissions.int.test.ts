import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createMailHarness, type MailHarness, signInAdmin, signInDealer } from './helpers';
import {
  asIfRecordedWhenOrdered,
  counts,
  daysAgo,
  postWebhook,
  referredPair,
  setRule,
  WEBHOOK_SECRET,
} from './partner-fixtures';

/** Commission rules, the ledger, approval, voiding, payout batches and the recruiter's view (issue 13). */

let h: MailHarness;
let admin: string;
let dealerCookie: string;
beforeAll(async () => {
  h = await createMailHarness({ config: { ordersWebhookSecret: WEBHOOK_SECRET } });
  admin = await signInAdmin(h.app);
  const d = await createDealer(h.db, { status: 'active' });
  dealerCookie = await signInDealer(h.app, d.email);
});
afterAll(async () => {
  await h?.close();
});

const get = (url: string, cookie = admin) => h.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, payload: unknown, cookie = admin) =>
  h.app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, payload: payload as object });

describe('commission rules', () => {
  it('sets a rule per tier as a new version; earned commissions keep their rule', async () => {
    const v1 = await setRule(h, admin, 'Preferred', { type: 'fixed', value: '25', appliesTo: 'first' });
    expect(v1).toMatchObject({
      tier: 'Preferred',
      type: 'fixed',
      value: '25.00',
      appliesTo: 'first',
      months: null,
      holdDays: 30,
    });
    const { dealer } = await referredPair(h, { tier: 'Preferred' });
    await postWebhook(h, { orderId: 'V-1', dealerId: dealer.id, amount: '1000.00', orderedAt: daysAgo(1) });
    const v2 = await setRule(h, admin, 'Preferred', {
      type: 'percent',
      value: '5.5',
      appliesTo: 'all',
      months: 12,
      holdDays: 0,
    });
    expect(v2.version).toBe(v1.version + 1);
    const rules = (await get('/api/admin/commission-rules')).json();
    expect(rules.find((r: { tier: string }) => r.tier === 'Preferred').rule).toMatchObject({
      version: v2.version,
      value: '5.50',
    });
    await postWebhook(h, { orderId: 'V-2', dealerId: dealer.id, amount: '1000.01', orderedAt: daysAgo(1) });
    const cs = await h.db
      .selectFrom('commissions')
      .select(['orderId', 'amount', 'ruleId'])
      .where('referredDealerId', '=', dealer.id)
      .orderBy('orderId')
      .execute();
    // V-1: fixed 25.00 under v1 (unchanged by v2); V-2: 5.5% of 1000.01 = 55.00055 -> 55.00 under v2
    expect(cs).toEqual([
      { orderId: 'V-1', amount: '25.00', ruleId: v1.id },
      { orderId: 'V-2', amount: '55.00', ruleId: v2.id },
    ]);
  });

  it('a first-order rule pays once; an all-orders rule stops N months after approval', async () => {
    await setRule(h, admin, 'Authorized', { type: 'fixed', value: '40.00', appliesTo: 'first' });
    const a = await referredPair(h, { tier: 'Authorized' });
    await postWebhook(h, { orderId: 'F-1', dealerId: a.dealer.id, amount: '10.00', orderedAt: daysAgo(2) });
    await postWebhook(h, { orderId: 'F-2', dealerId: a.dealer.id, amount: '10.00', orderedAt: daysAgo(1) });
    expect(
      await h.db.selectFrom('commissions').select('amount').where('referredDealerId', '=', a.dealer.id).execute(),
    ).toEqual([{ amount: '40.00' }]);
    await setRule(h, admin, 'Authorized', { type: 'percent', value: '10', appliesTo: 'all', months: 1 });
    const b = await referredPair(h, { tier: 'Authorized', approvedDaysAgo: 90 });
    await postWebhook(h, { orderId: 'M-old', dealerId: b.dealer.id, amount: '100.00', orderedAt: daysAgo(80) });
    await postWebhook(h, { orderId: 'M-new', dealerId: b.dealer.id, amount: '100.00', orderedAt: daysAgo(5) });
    expect(
      await h.db.selectFrom('commissions').select('orderId').where('referredDealerId', '=', b.dealer.id).execute(),
    ).toEqual([{ orderId: 'M-old' }]);
  });

  it('refuses bad rules with 400 (nothing stored), 401 signed out, 403 for a dealer', async () => {
    const before = await h.db.selectFrom('commissionRules').select('id').execute();
    for (const [tier, body] of [
      ['Affiliate', { type: 'percent', value: '100.01', appliesTo: 'all', holdDays: 30 }],
      ['Affiliate', { type: 'percent', value: '-1', appliesTo: 'all', holdDays: 30 }],
      ['Affiliate', { type: 'bonus', value: '1', appliesTo: 'all', holdDays: 30 }],
      ['Affiliate', { type: 'fixed', value: '1', appliesTo: 'first', months: 3, holdDays: 30 }],
      ['Affiliate', { type: 'fixed', value: '1', appliesTo: 'all', holdDays: -1 }],
      ['Affiliate', { type: 'fixed', value: '1.001', appliesTo: 'all', holdDays: 3 }],
      ['Gold', { type: 'fixed', value: '1', appliesTo: 'all', holdDays: 3 }],
    ] as const) {
      const res = await h.app.inject({
        method: 'PUT',
        url: `/api/admin/commission-rules/${tier}`,
        headers: { cookie: admin },
        payload: body,
      });
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(400);
    }
    const ok = { type: 'fixed', value: '1', appliesTo: 'all', holdDays: 3 };
    expect(
      (await h.app.inject({ method: 'PUT', url: '/api/admin/commission-rules/Affiliate', payload: ok })).statusCode,
    ).toBe(401);
    expect(
      (
        await h.app.inject({
          method: 'PUT',
          url: '/api/admin/commission-rules/Affiliate',
          headers: { cookie: dealerCookie },
          payload: ok,
        })
      ).statusCode,
    ).toBe(403);
    expect((await get('/api/admin/commission-rules', dealerCookie)).statusCode).toBe(403);
    expect((await get('/api/admin/commission-rules', '')).statusCode).toBe(401);
    expect(await h.db.selectFrom('commissionRules').select('id').execute()).toHaveLength(before.length);
  });
});

describe('ledger: list, approve, void', () => {
  it('lists with filters and totals; approves only after the hold; voids with a reason, audited with the admin', async () => {
    await setRule(h, admin, 'Affiliate', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 30 });
    const { dealer, recruiter } = await referredPair(h, { approvedDaysAgo: 100 });
    await postWebhook(h, { orderId: 'L-young', dealerId: dealer.id, amount: '100.00', orderedAt: daysAgo(2) });
    await postWebhook(h, { orderId: 'L-old', dealerId: dealer.id, amount: '200.00', orderedAt: daysAgo(40) });
    await postWebhook(h, { orderId: 'L-void', dealerId: dealer.id, amount: '300.00', orderedAt: daysAgo(40) });
    // The hold runs from when an order was recorded (issue 35, finding 4): as if each came in when placed.
    await asIfRecordedWhenOrdered(h, dealer.id);
    const list = (await get(`/api/admin/commissions?recruiterDealerId=${recruiter.id}`)).json();
    expect(list.total).toBe(3);
    expect(list.totals).toMatchObject({ pending: '60.00', approved: '0.00', paid: '0.00' });
    const id = (o: string) => list.items.find((i: { orderId: string }) => i.orderId === o).id as string;
    const res = await post('/api/admin/commissions/approve', { ids: [id('L-young'), id('L-old')] });
    expect(res.statusCode).toBe(200);
    expect(res.json().approved).toEqual([id('L-old')]);
    expect(res.json().skipped[0]).toMatchObject({ id: id('L-young'), reason: expect.stringMatching(/On hold until/) });
    const v = await post(`/api/admin/commissions/${id('L-void')}/void`, { reason: 'Duplicate order' });
    expect(v.statusCode, v.body).toBe(200);
    expect((await post(`/api/admin/commissions/${id('L-void')}/void`, { reason: 'again' })).statusCode).toBe(409);
    const approvedOnly = (await get(`/api/admin/commissions?recruiterDealerId=${recruiter.id}&status=approved`)).json();
    expect(approvedOnly.items.map((i: { orderId: string }) => i.orderId)).toEqual(['L-old']);
    const audit = await h.db
      .selectFrom('auditLogs')
      .select(['eventType', 'details'])
      .where('eventType', 'in', ['commission.approved', 'commission.voided'])
      .where('dealerId', '=', dealer.id)
      .execute();
    expect(audit).toHaveLength(2);
    for (const a of audit) expect(a.details).toMatchObject({ actorRole: 'admin' });
  });

  it('refuses bad input with 400 (nothing changed), 401 and 403', async () => {
    const before = await counts(h);
    expect((await post('/api/admin/commissions/approve', { ids: [] })).statusCode).toBe(400);
    expect((await post('/api/admin/commissions/approve', { ids: ['nope'] })).statusCode).toBe(400);
    expect(
      (await post('/api/admin/commissions/00000000-0000-4000-8000-000000000000/void', { reason: ' ' })).statusCode,
    ).toBe(400);
    expect(
      (await post('/api/admin/commissions/00000000-0000-4000-8000-000000000000/void', { reason: 'x' })).statusCode,
    ).toBe(404);
    expect((await get('/api/admin/commissions?status=lost')).statusCode).toBe(400);
    expect((await get('/api/admin/commissions?from=yesterday')).statusCode).toBe(400);
    expect((await post('/api/admin/commissions/approve', { ids: [] }, '')).statusCode).toBe(401);
    expect((await post('/api/admin/commissions/approve', { ids: [] }, dealerCookie)).statusCode).toBe(403);
    expect((await get('/api/admin/commissions', dealerCookie)).statusCode).toBe(403);
    expect(
      (await post('/api/admin/commissions/00000000-0000-4000-8000-000000000000/void', { reason: 'x' }, dealerCookie))
        .statusCode,
    ).toBe(403);
    expect(await counts(h)).toEqual(before);
  });
});

describe('payouts and the recruiter view', () => {
  it('batches approved commissions above the minimum, exports CSV, marks paid and emails the recruiter', async () => {
    await setRule(h, admin, 'Affiliate', { type: 'fixed', value: '60.00', appliesTo: 'all', holdDays: 0 });
    const big = await referredPair(h);
    const small = await referredPair(h);
    await setRule(h, admin, 'Affiliate', { type: 'fixed', value: '60.00', appliesTo: 'all', holdDays: 0 });
    await postWebhook(h, { orderId: 'B-1', dealerId: big.dealer.id, amount: '10.00', orderedAt: daysAgo(1) });
    await setRule(h, admin, 'Affiliate', { type: 'fixed', value: '20.00', appliesTo: 'all', holdDays: 0 });
    await postWebhook(h, { orderId: 'B-2', dealerId: small.dealer.id, amount: '10.00', orderedAt: daysAgo(1) });
    const all = (await get('/api/admin/commissions?status=pending&pageSize=200')).json();
    await post('/api/admin/commissions/approve', { ids: all.items.map((i: { id: string }) => i.id) });

    const mine = await signInDealer(h.app, big.recruiter.email);
    const view = await get('/api/affiliate/commissions', mine);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      summary: { pending: '0.00', approved: '60.00', paid: '0.00' },
      total: 1,
      page: 1,
    });
    expect(view.json().items[0]).toMatchObject({ referredName: 'Dan Dealer', amount: '60.00', status: 'approved' });
    expect(view.json().items[0].referredEmail).toMatch(/\*/);

    const batch = await post('/api/admin/payouts', {});
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json()).toMatchObject({ minimum: '50.00', status: 'created' });
    const entries = await h.db
      .selectFrom('commissions')
      .select(['orderId', 'payoutId'])
      .where('orderId', 'in', ['B-1', 'B-2'])
      .orderBy('orderId')
      .execute();
    expect(entries).toEqual([
      { orderId: 'B-1', payoutId: batch.json().id },
      { orderId: 'B-2', payoutId: null },
    ]);
    // a commission is in at most one batch
    const second = await post('/api/admin/payouts', { minimum: '50.00' });
    expect(second.statusCode).toBe(409);

    const csv = await get(`/api/admin/payouts/${batch.json().id}/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body).toContain(
      `Rita Recruiter,${big.recruiter.recruiterId},${big.recruiter.email},60.00,1,${batch.json().id}`,
    );

    const paid = await post(`/api/admin/payouts/${batch.json().id}/paid`, { reference: 'ACH-2026-11-24' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', reference: 'ACH-2026-11-24' });
    expect((await post(`/api/admin/payouts/${batch.json().id}/paid`, { reference: 'again' })).statusCode).toBe(409);
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(big.recruiter.email, /Your payout of \$60\.00 was sent/);
    expect(mail.text).toContain('ACH-2026-11-24');
    await h.smtp.waitFor(big.recruiter.email, /You earned a \$60\.00 commission/);
    expect((await get('/api/affiliate/commissions', mine)).json().summary).toMatchObject({
      paid: '60.00',
      approved: '0.00',
    });
    expect((await get('/api/admin/payouts')).json()[0]).toMatchObject({ id: batch.json().id, status: 'paid' });
    // a paid commission cannot be voided
    const paidId = (
      await h.db.selectFrom('commissions').select('id').where('orderId', '=', 'B-1').executeTakeFirstOrThrow()
    ).id;
    expect((await post(`/api/admin/commissions/${paidId}/void`, { reason: 'late' })).statusCode).toBe(409);
  });

  it("the summary's this month counts the commissions earned this month only (not last month's, not voided ones, not another recruiter's)", async () => {
    await setRule(h, admin, 'Authorized', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 });
    const { recruiter, dealer } = await referredPair(h, { tier: 'Authorized' });
    const other = await referredPair(h, { tier: 'Authorized' });
    const order = async (orderId: string, dealerId: string, amount: string) => {
      const res = await postWebhook(h, { orderId, dealerId, amount, orderedAt: daysAgo(1) });
      expect(res.statusCode, res.body).toBe(200);
    };
    await order(`M-now-${dealer.id}`, dealer.id, '100.00'); // 10.00, this month
    await order(`M-last-${dealer.id}`, dealer.id, '50.00'); // 5.00, moved to last month below
    await order(`M-void-${dealer.id}`, dealer.id, '30.00'); // 3.00, voided: the order is cancelled
    await order(`M-other-${other.dealer.id}`, other.dealer.id, '70.00'); // 7.00, another recruiter's
    const cancel = await postWebhook(h, {
      orderId: `M-void-${dealer.id}`,
      dealerId: dealer.id,
      amount: '30.00',
      orderedAt: daysAgo(1),
      status: 'cancelled',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    // Last month: the day before this month's first (UTC), when the commission was earned.
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 86_400_000);
    await h.db
      .updateTable('commissions')
      .set({ createdAt: lastMonth })
      .where('orderId', '=', `M-last-${dealer.id}`)
      .execute();

    const view = await get('/api/affiliate/commissions', await signInDealer(h.app, recruiter.email));
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().summary).toEqual({
      pending: '15.00',
      approved: '0.00',
      paid: '0.00',
      clawbacks: '0.00',
      thisMonth: '10.00',
      payable: '0.00',
    });
    expect(view.json().total).toBe(3);
  });

  it('refuses bad payout input with 400, 401, 403; the recruiter view is dealer-only', async () => {
    expect((await post('/api/admin/payouts', { minimum: 'ten' })).statusCode).toBe(400);
    expect((await post('/api/admin/payouts/nope/paid', { reference: 'x' })).statusCode).toBe(400);
    expect(
      (await post('/api/admin/payouts/00000000-0000-4000-8000-000000000000/paid', { reference: '' })).statusCode,
    ).toBe(400);
    expect(
      (await post('/api/admin/payouts/00000000-0000-4000-8000-000000000000/paid', { reference: 'x' })).statusCode,
    ).toBe(404);
    expect((await get('/api/admin/payouts/00000000-0000-4000-8000-000000000000/export')).statusCode).toBe(404);
    expect((await get('/api/admin/payouts/nope/export')).statusCode).toBe(400);
    expect((await post('/api/admin/payouts', {}, '')).statusCode).toBe(401);
    expect((await post('/api/admin/payouts', {}, dealerCookie)).statusCode).toBe(403);
    expect((await get('/api/admin/payouts/00000000-0000-4000-8000-000000000000/export', dealerCookie)).statusCode).toBe(
      403,
    );
    expect((await get('/api/admin/payouts/00000000-0000-4000-8000-000000000000/export', '')).statusCode).toBe(401);
    expect((await get('/api/affiliate/commissions', '')).statusCode).toBe(401);
    expect((await get('/api/affiliate/commissions')).statusCode).toBe(403);
    expect((await get('/api/affiliate/commissions?page=0', dealerCookie)).statusCode).toBe(400);
    const empty = (await get('/api/affiliate/commissions', dealerCookie)).json();
    expect(empty).toMatchObject({ summary: { pending: '0.00', approved: '0.00', paid: '0.00' }, items: [], total: 0 });
  });
});

describe('holds are instants (issue 47, item 5)', () => {
  const recordOrder = (dealerId: string, orderId: string, orderedAt: string) =>
    post(`/api/admin/dealers/${dealerId}/orders`, { orderId, amount: '150.00', orderedAt });

  it('a rule of 0 days: the commission is approved on the day it is earned, even for an order dated later today', async () => {
    await setRule(h, admin, 'Authorized', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 });
    const { dealer, recruiter } = await referredPair(h, { tier: 'Authorized', approvedDaysAgo: 10 });
    // The console used to send a picked day as noon UTC: in the morning (UTC) that is hours ahead.
    const laterToday = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const rec = await recordOrder(dealer.id, 'SAME-DAY-1', laterToday);
    expect(rec.statusCode, rec.body).toBe(200);
    const list = (await get(`/api/admin/commissions?recruiterDealerId=${recruiter.id}&status=pending`)).json();
    expect(list.items).toHaveLength(1);
    expect(Date.parse(list.items[0].holdUntil)).toBeLessThanOrEqual(Date.now());
    const res = await post('/api/admin/commissions/approve', { ids: [list.items[0].id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ approved: [list.items[0].id], skipped: [] });
  });

  it('a hold not over yet: skipped with the instant it ends (to the minute, UTC) and holdUntil for the reader’s zone', async () => {
    await setRule(h, admin, 'Preferred', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 1 });
    const { dealer, recruiter } = await referredPair(h, { tier: 'Preferred', approvedDaysAgo: 10 });
    const before = Date.now();
    expect((await recordOrder(dealer.id, 'SAME-DAY-2', new Date().toISOString())).statusCode).toBe(200);
    const list = (await get(`/api/admin/commissions?recruiterDealerId=${recruiter.id}&status=pending`)).json();
    const id = list.items[0].id as string;
    const res = await post('/api/admin/commissions/approve', { ids: [id] });
    expect(res.statusCode).toBe(200);
    const [skip] = res.json().skipped;
    expect(res.json().approved).toEqual([]);
    const until = Date.parse(skip.holdUntil);
    // One day from the recording: an instant, not the end of a date in some zone.
    expect(until).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);
    expect(skip.reason).toBe(`On hold until ${skip.holdUntil.slice(0, 16).replace('T', ' ')} UTC`);
    // Bad input: nothing approved, a clear 400; a dealer cannot approve.
    const bad = await post('/api/admin/commissions/approve', { ids: ['nope'] });
    expect(bad.statusCode).toBe(400);
    expect((await post('/api/admin/commissions/approve', { ids: [id] }, dealerCookie)).statusCode).toBe(403);
    const still = (await get(`/api/admin/commissions?recruiterDealerId=${recruiter.id}&status=pending`)).json();
    expect(still.items.map((i: { id: string }) => i.id)).toEqual([id]);
  });
});
