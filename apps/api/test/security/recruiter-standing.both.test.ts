import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInDealer } from '../helpers';
import { referredPair, setRuleForEveryTier, signInAdmin } from '../partner-fixtures';
import { application } from './support';

/**
 * Issue 35, finding 5: suspended or rejected recruiters kept earning and were paid; their link
 * kept attributing, and orders of pending, rejected or suspended referred dealers earned too.
 * Now a recruiter earns only while approved or active, their link attributes only then, a payout
 * batch leaves out (and lists, with a reason) recruiters not in good standing, and an order of a
 * referred dealer who is not approved or active is recorded but earns nothing; each case says why
 * in the audit trail.
 */
let h: Harness;
let owner: string;
beforeAll(async () => {
  h = await createHarness();
  owner = await signInAdmin(h.app);
  await setRuleForEveryTier(h, owner, { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 });
});
afterAll(async () => {
  await h?.close();
});

let n = 0;
const tag = () => `${Date.now().toString(36)}${++n}`;
const setStatus = (id: string, status: 'pending' | 'approved' | 'active' | 'rejected' | 'suspended') =>
  h.db.updateTable('dealers').set({ status }).where('id', '=', id).execute();
const order = (dealerId: string, amount = '1000.00') =>
  h.app.inject({
    method: 'POST',
    url: `/api/admin/dealers/${dealerId}/orders`,
    headers: { cookie: owner },
    payload: { orderId: `ord-${tag()}`, amount, orderedAt: new Date(Date.now() - 60_000).toISOString() },
  });
const commissionsOf = (referredDealerId: string) =>
  h.db.selectFrom('commissions').selectAll().where('referredDealerId', '=', referredDealerId).execute();
const notEarned = (dealerId: string) =>
  h.db
    .selectFrom('auditLogs')
    .select(['message', 'details'])
    .where('dealerId', '=', dealerId)
    .where('eventType', '=', 'commission.not_earned')
    .execute();

describe('a recruiter not in good standing', () => {
  for (const status of ['suspended', 'rejected', 'pending'] as const) {
    it(`(${status}) earns nothing on a referred dealer's order, which is still recorded, with the reason audited`, async () => {
      const { recruiter, dealer } = await referredPair(h);
      await setStatus(recruiter.id, status);
      const res = await order(dealer.id);
      expect(res.statusCode, res.body).toBe(200);
      const orders = await h.db.selectFrom('orders').select('id').where('dealerId', '=', dealer.id).execute();
      expect(orders).toHaveLength(1);
      expect(await commissionsOf(dealer.id)).toEqual([]);
      const why = await notEarned(dealer.id);
      expect(why).toHaveLength(1);
      expect(why[0]!.message).toContain(`recruiter is ${status}`);
    });
  }

  it('their affiliate link stops attributing signups while suspended, and attributes again once active', async () => {
    const recruiter = await createDealer(h.db, { status: 'active' });
    const cookie = await signInDealer(h.app, recruiter.email);
    const recruiterId = `sr${tag()}`.slice(0, 20);
    const link = await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/create-link',
      headers: { cookie },
      payload: { recruiterId },
    });
    expect(link.statusCode, link.body).toBe(200);
    await setStatus(recruiter.id, 'suspended');
    const signup = (email: string, i: number) =>
      h.app.inject({
        method: 'POST',
        url: '/api/dealer-signup',
        remoteAddress: `10.135.${i}.1`,
        payload: application(email, {
          recruiterId,
          phoneE164: `51255${String(10_000 + i).slice(-5)}`,
          addressJson: { street: `${i} Elm St`, city: 'Dallas', state: 'TX', zipCode: '75201' },
        }),
      });
    const during = `during.${tag()}@example.com`;
    expect((await signup(during, 1)).statusCode).toBe(200);
    const row = await h.db.selectFrom('dealers').select(['referredBy']).where('email', '=', during).executeTakeFirst();
    expect(row?.referredBy).toBeNull();
    await setStatus(recruiter.id, 'active');
    const after = `after.${tag()}@example.com`;
    expect((await signup(after, 2)).statusCode).toBe(200);
    const later = await h.db.selectFrom('dealers').select(['referredBy']).where('email', '=', after).executeTakeFirst();
    expect(later?.referredBy).toBe(recruiter.id);
  });
});

describe('a referred dealer not approved or active', () => {
  for (const status of ['pending', 'rejected', 'suspended'] as const) {
    it(`(${status}): the order is recorded, it earns nothing, the reason is audited`, async () => {
      const { dealer } = await referredPair(h);
      await setStatus(dealer.id, status);
      const res = await order(dealer.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(await commissionsOf(dealer.id)).toEqual([]);
      const why = await notEarned(dealer.id);
      expect(why).toHaveLength(1);
      expect(why[0]!.message).toContain(`referred dealer is ${status}`);
    });
  }
});

describe('a payout batch', () => {
  it('leaves out recruiters not in good standing and lists them as held with a reason; their entries stay unbatched', async () => {
    const good = await referredPair(h);
    const bad = await referredPair(h);
    for (const p of [good, bad]) expect((await order(p.dealer.id, '2000.00')).statusCode).toBe(200);
    const ids = [...(await commissionsOf(good.dealer.id)), ...(await commissionsOf(bad.dealer.id))].map((c) => c.id);
    expect(ids).toHaveLength(2);
    const approve = await h.app.inject({
      method: 'POST',
      url: '/api/admin/commissions/approve',
      headers: { cookie: owner },
      payload: { ids },
    });
    expect(approve.statusCode, approve.body).toBe(200);
    await setStatus(bad.recruiter.id, 'suspended');

    const res = await h.app.inject({
      method: 'POST',
      url: '/api/admin/payouts',
      headers: { cookie: owner },
      payload: { minimum: '1.00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const payout = res.json();
    const batched = await h.db
      .selectFrom('commissions')
      .select('recruiterDealerId')
      .where('payoutId', '=', payout.id)
      .execute();
    expect(batched.map((b) => b.recruiterDealerId)).toContain(good.recruiter.id);
    expect(batched.map((b) => b.recruiterDealerId)).not.toContain(bad.recruiter.id);
    expect(payout.held).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          recruiterDealerId: bad.recruiter.id,
          amount: '200.00',
          reason: 'Recruiter is suspended',
        }),
      ]),
    );
    const left = await commissionsOf(bad.dealer.id);
    expect(left.map((c) => [c.status, c.payoutId])).toEqual([['approved', null]]);
    const audit = await h.db
      .selectFrom('auditLogs')
      .select('details')
      .where('eventType', '=', 'payout.created')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.details)).toContain(bad.recruiter.id);
  });
});
