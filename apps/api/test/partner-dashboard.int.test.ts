import { DEALER_ORDERS_PAGE_SIZE, REFERRALS_PAGE_SIZE } from '@dn/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDealer, harnessForFile, signInAdmin, signInDealer } from './helpers';
import { counts, daysAgo } from './partner-fixtures';

/**
 * The partner program's dashboards (issue 13, decision 0720): the dealer's own orders and first
 * order date, the recruiter's full referral list and funnel, the admin's activation figures.
 */

const h = harnessForFile();
let admin: string;
beforeAll(async () => {
  admin = await signInAdmin(h.app);
});

const get = (url: string, cookie?: string) => h.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

async function recordOrder(dealerId: string, orderId: string, amount: string, orderedAt: string) {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/admin/dealers/${dealerId}/orders`,
    headers: { cookie: admin },
    payload: { orderId, amount, orderedAt },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const firstOrderAtOf = async (id: string) =>
  (await h.db.selectFrom('dealers').select('firstOrderAt').where('id', '=', id).executeTakeFirstOrThrow()).firstOrderAt;

describe('GET /api/dealer/orders (the dealer dashboard)', () => {
  it('before a first order: no date, no orders', async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    const res = await get('/api/dealer/orders', await signInDealer(h.app, d.email));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ firstOrderAt: null, items: [], total: 0, page: 1, pageSize: DEALER_ORDERS_PAGE_SIZE });
  });

  it("pages the dealer's own orders newest first, with the first order's date; another dealer's are not there", async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    const other = await createDealer(h.db, { status: 'approved' });
    await recordOrder(other.id, `OTHER-${other.id}`, '999.00', daysAgo(30));
    const n = DEALER_ORDERS_PAGE_SIZE + 2;
    for (let i = 0; i < n; i++) await recordOrder(d.id, `D-${d.id}-${i}`, `${i + 1}.50`, daysAgo(i + 1));
    const cookie = await signInDealer(h.app, d.email);

    const p1 = (await get('/api/dealer/orders', cookie)).json();
    expect(p1.total).toBe(n);
    expect(p1.items).toHaveLength(DEALER_ORDERS_PAGE_SIZE);
    expect(p1.items[0]).toMatchObject({ orderId: `D-${d.id}-0`, amount: '1.50', status: 'placed' });
    expect(p1.firstOrderAt).toBe(new Date(p1.firstOrderAt).toISOString());
    // The first order is the oldest one: i = n - 1, dated n days ago.
    const oldest = (await get('/api/dealer/orders?page=2', cookie)).json();
    expect(oldest.items.map((o: { orderId: string }) => o.orderId)).toEqual([
      `D-${d.id}-${n - 2}`,
      `D-${d.id}-${n - 1}`,
    ]);
    expect(oldest.firstOrderAt).toBe(oldest.items[1].orderedAt);
    expect(oldest.items.every((o: { orderId: string }) => !o.orderId.startsWith('OTHER'))).toBe(true);
    // Past the end: an empty page, not an error.
    expect((await get('/api/dealer/orders?page=50', cookie)).json()).toMatchObject({ items: [], total: n, page: 50 });
    // Through tRPC too (the dashboard's way in).
    const trpc = await get(`/trpc/account.orders?input=${encodeURIComponent(JSON.stringify({ page: 2 }))}`, cookie);
    expect(trpc.statusCode, trpc.body).toBe(200);
    expect(trpc.json().result.data.items).toHaveLength(2);
  });

  it('a cancelled first order stays the first order (the dealer placed it; activation is not undone)', async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    const first = await recordOrder(d.id, `C-${d.id}`, '10.00', daysAgo(5));
    await recordOrder(d.id, `C2-${d.id}`, '20.00', daysAgo(2));
    const cancel = await h.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${first.order.id}/status`,
      headers: { cookie: admin },
      payload: { status: 'cancelled' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const body = (await get('/api/dealer/orders', await signInDealer(h.app, d.email))).json();
    expect(body.total).toBe(2);
    expect(body.items.map((o: { status: string }) => o.status)).toEqual(['placed', 'cancelled']);
    expect(body.firstOrderAt).toBe(body.items[1].orderedAt);
  });

  it('orders recorded in parallel: the first order date is the earliest of them', async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    const dates = [3, 9, 1, 7, 5, 2, 8, 4].map(daysAgo);
    await Promise.all(dates.map((at, i) => recordOrder(d.id, `P-${d.id}-${i}`, '5.00', at)));
    expect((await firstOrderAtOf(d.id))?.toISOString()).toBe(dates[1]);
    const body = (await get('/api/dealer/orders', await signInDealer(h.app, d.email))).json();
    expect(body.firstOrderAt).toBe(dates[1]);
    expect(body.total).toBe(dates.length);
  });

  it('refuses a bad page with 400 and stores nothing', async () => {
    const d = await createDealer(h.db, { status: 'approved' });
    const cookie = await signInDealer(h.app, d.email);
    const before = await counts(h);
    for (const q of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'page=100001']) {
      const res = await get(`/api/dealer/orders?${q}`, cookie);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error ?? res.json().message, q).toMatch(/Page/);
    }
    expect(await counts(h)).toEqual(before);
  });

  it('401 signed out, 403 for an admin', async () => {
    expect((await get('/api/dealer/orders')).statusCode).toBe(401);
    expect((await get('/api/dealer/orders', admin)).statusCode).toBe(403);
  });
});

describe('GET /api/affiliate/referrals and /api/affiliate/funnel (the recruiter)', () => {
  async function recruiterWithLink() {
    const r = await createDealer(h.db, { status: 'active', fullName: 'Rita Recruiter' });
    const cookie = await signInDealer(h.app, r.email);
    const recruiterId = `rita${Math.random().toString(36).slice(2, 10)}`;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/create-link',
      headers: { cookie },
      payload: { recruiterId },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { ...r, cookie, recruiterId };
  }

  async function referred(recruiterId: string, status: 'pending' | 'approved' | 'active' | 'rejected' | 'suspended') {
    const d = await createDealer(h.db, { status, referredBy: recruiterId, fullName: `Ref ${status}` });
    if (status !== 'pending' && status !== 'rejected') {
      await h.db.updateTable('dealers').set({ approvalDate: new Date() }).where('id', '=', d.id).execute();
    }
    return d;
  }

  const visit = (recruiterId: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/affiliate/track-event',
      payload: { eventType: 'url_capture', recruiterId },
    });

  it("lists every referral, paged newest first, with each one's status; only the recruiter's own", async () => {
    const r = await recruiterWithLink();
    const someoneElse = await recruiterWithLink();
    await referred(someoneElse.id, 'approved');
    const statuses = ['pending', 'approved', 'active', 'rejected', 'suspended'] as const;
    const made = [];
    for (let i = 0; i < REFERRALS_PAGE_SIZE + 3; i++) made.push(await referred(r.id, statuses[i % statuses.length]!));

    const p1 = (await get('/api/affiliate/referrals', r.cookie)).json();
    expect(p1.total).toBe(made.length);
    expect(p1.items).toHaveLength(REFERRALS_PAGE_SIZE);
    const p2 = (await get('/api/affiliate/referrals?page=2', r.cookie)).json();
    expect(p2.items).toHaveLength(3);
    const all = [...p1.items, ...p2.items];
    expect(new Set(all.map((x: { id: string }) => x.id))).toEqual(new Set(made.map((m) => m.id)));
    const byId = new Map(all.map((x: { id: string; status: string; email: string; fullName: string }) => [x.id, x]));
    const expected = {
      pending: 'applied',
      approved: 'approved',
      active: 'active',
      rejected: 'declined',
      suspended: 'inactive',
    };
    made.forEach((m, i) => {
      const row = byId.get(m.id)!;
      expect(row.status).toBe(expected[statuses[i % statuses.length]!]);
      expect(row.email).toMatch(/^.\*\*\*@example\.com$/);
    });
    // The documented stats endpoint still lists only the five latest.
    const stats = (await get('/api/affiliate/stats', r.cookie)).json();
    expect(stats.referrals).toHaveLength(5);
    expect(stats.totalReferrals).toBe(made.length);
  });

  it('a recruiter without referrals gets an empty list and a zero funnel', async () => {
    const r = await createDealer(h.db, { status: 'approved' });
    const cookie = await signInDealer(h.app, r.email);
    expect((await get('/api/affiliate/referrals', cookie)).json()).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageSize: REFERRALS_PAGE_SIZE,
    });
    expect((await get('/api/affiliate/funnel', cookie)).json()).toEqual({
      visits: 0,
      applications: 0,
      approvals: 0,
      firstOrders: 0,
    });
  });

  it('the funnel counts link visits, applications, approvals and first orders of the recruiter only', async () => {
    const r = await recruiterWithLink();
    const other = await recruiterWithLink();
    for (let i = 0; i < 4; i++) expect((await visit(r.recruiterId)).statusCode).toBe(200);
    expect((await visit(other.recruiterId)).statusCode).toBe(200);
    // A cookie event is not a visit.
    await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/track-event',
      payload: { eventType: 'cookie_set', recruiterId: r.recruiterId },
    });
    await referred(r.id, 'pending');
    await referred(r.id, 'rejected');
    const a = await referred(r.id, 'approved');
    const b = await referred(r.id, 'approved');
    await referred(r.id, 'suspended');
    await referred(other.id, 'approved');
    await recordOrder(a.id, `F-${a.id}`, '100.00', daysAgo(1));
    await recordOrder(a.id, `F2-${a.id}`, '100.00', daysAgo(1));
    await recordOrder(b.id, `F-${b.id}`, '50.00', daysAgo(1));
    const res = await get('/api/affiliate/funnel', r.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ visits: 4, applications: 5, approvals: 3, firstOrders: 2 });
    // The referral list shows the activation.
    const list = (await get('/api/affiliate/referrals', r.cookie)).json();
    expect(list.items.find((x: { id: string }) => x.id === a.id)).toMatchObject({ status: 'active' });
    expect(list.items.find((x: { id: string }) => x.id === a.id).firstOrderAt).not.toBeNull();
  });

  it('refuses a bad page with 400 and stores nothing; 401 signed out, 403 for an admin', async () => {
    const r = await recruiterWithLink();
    const before = await counts(h);
    for (const q of ['page=0', 'page=x', 'page=2.5']) {
      expect((await get(`/api/affiliate/referrals?${q}`, r.cookie)).statusCode, q).toBe(400);
    }
    expect(await counts(h)).toEqual(before);
    for (const url of ['/api/affiliate/referrals', '/api/affiliate/funnel']) {
      expect((await get(url)).statusCode, url).toBe(401);
      expect((await get(url, admin)).statusCode, url).toBe(403);
    }
  });
});

describe('GET /api/admin/dealer-metrics: activation rate and median days to first order', () => {
  // A database of its own: the figures count every dealer in it.
  const m = harnessForFile();
  let owner: string;
  beforeAll(async () => {
    owner = await signInAdmin(m.app);
  });
  const metrics = async (cookie = owner) => {
    const res = await m.app.inject({ method: 'GET', url: '/api/admin/dealer-metrics', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const day = 86_400_000;
  const base = Date.now() - 40 * day;

  async function approvedOn(approvedAt: number) {
    const d = await createDealer(m.db, { status: 'approved' });
    await m.db
      .updateTable('dealers')
      .set({ approvalDate: new Date(approvedAt) })
      .where('id', '=', d.id)
      .execute();
    return d;
  }
  async function order(dealerId: string, at: number) {
    const res = await m.app.inject({
      method: 'POST',
      url: `/api/admin/dealers/${dealerId}/orders`,
      headers: { cookie: owner },
      payload: { orderId: `M-${dealerId}-${at}`, amount: '10.00', orderedAt: new Date(at).toISOString() },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('no approved dealers: both figures null; the documented fields stay', async () => {
    const body = await metrics();
    expect(body).toMatchObject({ activationRate: null, medianDaysToFirstOrder: null, activeDealers: 0 });
    for (const k of ['totalDealers', 'byTier', 'pendingApplications', 'approvedDealers', 'scheduledCalls']) {
      expect(body, k).toHaveProperty(k);
    }
  });

  it('activation rate is active / (approved + active); the median of approval-to-first-order days, an earlier order as 0', async () => {
    const a = await approvedOn(base);
    const b = await approvedOn(base);
    const c = await approvedOn(base + 10 * day);
    await approvedOn(base); // approved, no order yet
    await createDealer(m.db, { status: 'pending' }); // not in either figure
    await order(a.id, base + 6 * day); // 6 days
    await order(a.id, base + 7 * day); // a second order changes nothing
    await order(b.id, base + 9 * day); // 9 days
    let body = await metrics();
    // 2 active of 4 approved or active; median of [6, 9] = 7.5
    expect(body).toMatchObject({
      activeDealers: 2,
      approvedDealers: 4,
      activationRate: 50,
      medianDaysToFirstOrder: 7.5,
    });
    await order(c.id, base + 2 * day); // ordered before approval: 0 days
    body = await metrics();
    // 3 of 4 = 75.0%; median of [0, 6, 9] = 6
    expect(body).toMatchObject({ activeDealers: 3, activationRate: 75, medianDaysToFirstOrder: 6 });
    // One decimal: 3 of 7
    for (let i = 0; i < 3; i++) await approvedOn(base);
    expect((await metrics()).activationRate).toBe(42.9);
  });

  it('a viewer reads it; a dealer is 403, signed out 401', async () => {
    const viewer = await signInAdmin(m.app, 'metrics-viewer');
    await m.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'metrics-viewer').execute();
    expect((await metrics(viewer)).activationRate).not.toBeUndefined();
    const d = await createDealer(m.db, { status: 'approved' });
    const dealer = await signInDealer(m.app, d.email);
    expect(
      (await m.app.inject({ method: 'GET', url: '/api/admin/dealer-metrics', headers: { cookie: dealer } })).statusCode,
    ).toBe(403);
    expect((await m.app.inject({ method: 'GET', url: '/api/admin/dealer-metrics' })).statusCode).toBe(401);
  });
});
