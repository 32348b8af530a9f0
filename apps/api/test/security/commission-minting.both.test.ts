import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, signInAdmin } from '../helpers';
import { daysAgo, postWebhook, referredPair, setRule, WEBHOOK_SECRET } from '../partner-fixtures';

/**
 * Issue 35, finding 4: a reviewer could mint a commission that pays at once and keep it. Orders
 * were accepted dated back to 2000 and the hold ran from the order date, so a backdated order was
 * approvable the same minute; after a refund the same reviewer could void the clawback. The hold
 * now runs from when the order was recorded (the later of recorded and ordered); voiding a
 * clawback, approving a commission on an order you recorded yourself and recording an order dated
 * more than 60 days back each need an owner (a reviewer gets 403), audited with both names.
 */

let h: Harness;
let owner: string;
let reviewer: string;
let otherReviewer: string;
beforeAll(async () => {
  h = await createHarness({ config: { ordersWebhookSecret: WEBHOOK_SECRET } });
  owner = await signInAdmin(h.app, 'mint-owner');
  reviewer = await signInAdmin(h.app, 'mint-reviewer');
  otherReviewer = await signInAdmin(h.app, 'mint-reviewer-2');
  await h.db.updateTable('admins').set({ role: 'reviewer' }).where('username', 'like', 'mint-reviewer%').execute();
});
afterAll(async () => {
  await h?.close();
});

const post = (url: string, cookie: string, payload: object) =>
  h.app.inject({ method: 'POST', url, headers: { cookie }, payload });
const recordOrder = (cookie: string, dealerId: string, orderId: string, orderedAt: string, amount = '200.00') =>
  post(`/api/admin/dealers/${dealerId}/orders`, cookie, { orderId, amount, orderedAt });
const commissionOf = (orderId: string) =>
  h.db
    .selectFrom('commissions')
    .select(['id', 'status', 'kind', 'holdUntil', 'approvedBy'])
    .where('orderId', '=', orderId)
    .orderBy('kind', 'asc')
    .execute();
const auditOf = (eventType: string, commissionId: string) =>
  h.db
    .selectFrom('auditLogs')
    .select(['message', 'details'])
    .where('eventType', '=', eventType)
    .where(({ eb, ref }) =>
      eb(eb.fn('jsonb_extract_path_text', [ref('details'), eb.val('commissionId')]), '=', commissionId),
    )
    .execute();

describe('the hold runs from when the order was recorded', () => {
  it('an order recorded today dated 40 days back is still on hold for 30 days, whoever approves it', async () => {
    await setRule(h, owner, 'Affiliate', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 30 });
    const { dealer } = await referredPair(h, { approvedDaysAgo: 200 });
    const res = await recordOrder(reviewer, dealer.id, 'MINT-40', daysAgo(40));
    expect(res.statusCode, res.body).toBe(200);
    const [c] = await commissionOf('MINT-40');
    expect(c!.holdUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // A second person, an owner even, cannot approve it before the hold is over.
    const approve = await post('/api/admin/commissions/approve', owner, { ids: [c!.id] });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json().approved).toEqual([]);
    expect(approve.json().skipped[0].reason).toMatch(/On hold until/);
    expect((await commissionOf('MINT-40'))[0]!.status).toBe('pending');
  });

  it('a webhook order dated a year back is on hold from when it arrived too', async () => {
    const { dealer } = await referredPair(h, { approvedDaysAgo: 400 });
    const res = await postWebhook(h, {
      orderId: 'MINT-HOOK',
      dealerId: dealer.id,
      amount: '50.00',
      orderedAt: daysAgo(365),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [c] = await commissionOf('MINT-HOOK');
    expect(c!.holdUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });
});

describe('the two-person rule', () => {
  it('a reviewer cannot record an order dated more than 60 days back (403, nothing stored); an owner can, audited', async () => {
    const { dealer } = await referredPair(h, { approvedDaysAgo: 300 });
    const res = await recordOrder(reviewer, dealer.id, 'MINT-90', daysAgo(90));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toMatch(/more than 60 days back.*owner/i);
    expect(await h.db.selectFrom('orders').select('id').where('externalOrderId', '=', 'MINT-90').execute()).toEqual([]);
    // 60 days back is still a reviewer's to record.
    expect((await recordOrder(reviewer, dealer.id, 'MINT-59', daysAgo(59))).statusCode).toBe(200);
    const ok = await recordOrder(owner, dealer.id, 'MINT-90', daysAgo(90));
    expect(ok.statusCode, ok.body).toBe(200);
    const audit = await h.db
      .selectFrom('auditLogs')
      .select(['details'])
      .where('eventType', '=', 'order.recorded')
      .where('dealerId', '=', dealer.id)
      .execute();
    expect(audit.map((a) => a.details)).toContainEqual(
      expect.objectContaining({ externalOrderId: 'MINT-90', actor: 'mint-owner' }),
    );
  });

  it('the reviewer who recorded an order cannot approve its commission (403); another person can, audited with both names', async () => {
    await setRule(h, owner, 'Affiliate', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 });
    const { dealer } = await referredPair(h, { approvedDaysAgo: 100 });
    expect((await recordOrder(reviewer, dealer.id, 'MINT-SELF', daysAgo(5))).statusCode).toBe(200);
    const [c] = await commissionOf('MINT-SELF');
    const self = await post('/api/admin/commissions/approve', reviewer, { ids: [c!.id] });
    expect(self.statusCode, self.body).toBe(403);
    expect(self.json().message).toMatch(/you recorded.*owner/i);
    expect((await commissionOf('MINT-SELF'))[0]!.status).toBe('pending');
    const other = await post('/api/admin/commissions/approve', otherReviewer, { ids: [c!.id] });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().approved).toEqual([c!.id]);
    const [a] = await auditOf('commission.approved', c!.id);
    expect(a!.details).toMatchObject({ approvedBy: 'mint-reviewer-2', recordedBy: 'mint-reviewer' });
    expect(a!.message).toMatch(/mint-reviewer-2.*recorded by mint-reviewer/);
  });

  it('an owner may approve a commission on an order a reviewer recorded', async () => {
    const { dealer } = await referredPair(h, { approvedDaysAgo: 100 });
    expect((await recordOrder(reviewer, dealer.id, 'MINT-OWNER', daysAgo(1))).statusCode).toBe(200);
    const [c] = await commissionOf('MINT-OWNER');
    const res = await post('/api/admin/commissions/approve', owner, { ids: [c!.id] });
    expect(res.json().approved).toEqual([c!.id]);
  });

  it('a reviewer cannot void the clawback of a refunded order (403); an owner can, audited with the refunder', async () => {
    await setRule(h, owner, 'Affiliate', { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 });
    const { dealer } = await referredPair(h, { approvedDaysAgo: 100 });
    const rec = await recordOrder(owner, dealer.id, 'MINT-CLAW', daysAgo(3));
    const orderRef = rec.json().order.id as string;
    const [c] = await commissionOf('MINT-CLAW');
    expect((await post('/api/admin/commissions/approve', reviewer, { ids: [c!.id] })).json().approved).toEqual([c!.id]);
    const refund = await post(`/api/admin/orders/${orderRef}/status`, reviewer, { status: 'refunded' });
    expect(refund.statusCode, refund.body).toBe(200);
    const claw = (await commissionOf('MINT-CLAW')).find((e) => e.kind === 'clawback')!;
    expect(claw.status).toBe('approved');
    const byReviewer = await post(`/api/admin/commissions/${claw.id}/void`, reviewer, { reason: 'Customer kept it' });
    expect(byReviewer.statusCode, byReviewer.body).toBe(403);
    expect(byReviewer.json().message).toMatch(/clawback.*owner/i);
    expect((await commissionOf('MINT-CLAW')).find((e) => e.kind === 'clawback')!.status).toBe('approved');
    const byOwner = await post(`/api/admin/commissions/${claw.id}/void`, owner, {
      reason: 'Refund reversed by the bank',
    });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    const [a] = await auditOf('commission.voided', claw.id);
    expect(a!.details).toMatchObject({ voidedBy: 'mint-owner', refundedBy: 'mint-reviewer' });
  });
});
