import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin } from './helpers';
import { referredPair, setRuleForEveryTier } from './partner-fixtures';

/**
 * Issue 39, the two parts left out (decisions 0965, 0966): one payee of a batch marked paid as of
 * today (once, emailed once; the batch paid when every payee is), and the risk signal "the
 * recruiter's referrals order the minimum amount repeatedly".
 */

let h: Harness;
const cookies: Record<'owner' | 'reviewer' | 'viewer', string> = { owner: '', reviewer: '', viewer: '' };

beforeAll(async () => {
  h = await createHarness();
  for (const role of ['owner', 'reviewer', 'viewer'] as const) {
    const username = `payee-paid-${role}`;
    cookies[role] = await signInAdmin(h.app, username);
    await h.db.updateTable('admins').set({ role }).where('username', '=', username).execute();
  }
  await setRuleForEveryTier(h, cookies.owner, { type: 'fixed', value: '60.00', appliesTo: 'all', holdDays: 0 });
}, 180_000);
afterAll(async () => {
  await h?.close();
});

const call = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
  h.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

let orderSeq = 0;
async function order(dealerId: string, amount = '500.00', minutesAgo = 60) {
  const res = await call('POST', `/api/admin/dealers/${dealerId}/orders`, cookies.owner, {
    orderId: `pp-${++orderSeq}-${Math.random().toString(36).slice(2, 8)}`,
    amount,
    orderedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function approveAll() {
  const pending = await h.db.selectFrom('commissions').select('id').where('status', '=', 'pending').execute();
  if (pending.length === 0) return;
  const res = await call('POST', '/api/admin/commissions/approve', cookies.owner, { ids: pending.map((p) => p.id) });
  expect(res.statusCode, res.body).toBe(200);
}

const paidMails = (dealerId: string) =>
  h.db
    .selectFrom('emailOutbox')
    .select(['textBody'])
    .where('dealerId', '=', dealerId)
    .where('kind', '=', 'payout_sent')
    .execute();

const entryStates = (recruiterDealerId: string) =>
  h.db
    .selectFrom('commissions')
    .select(['status', 'paidAt'])
    .where('recruiterDealerId', '=', recruiterDealerId)
    .execute();

/** Two recruiters with a 60.00 commission each, batched. */
async function batchOfTwo() {
  const a = await referredPair(h);
  const b = await referredPair(h);
  await order(a.dealer.id);
  await order(b.dealer.id);
  await approveAll();
  const made = await call('POST', '/api/admin/payouts', cookies.owner, { minimum: '10.00' });
  expect(made.statusCode, made.body).toBe(200);
  return { a, b, id: made.json().id as string };
}

describe('one payee of a batch marked paid', () => {
  it('owner only, bad input stores nothing, concurrent requests pay and email once, the batch is paid when every payee is', async () => {
    const { a, b, id } = await batchOfTwo();
    const url = (r: string) => `/api/admin/payouts/${id}/payees/${r}/paid`;

    expect((await call('GET', `/api/admin/payouts/${id}/payees`, '')).statusCode).toBe(401);
    const listed = await call('GET', `/api/admin/payouts/${id}/payees`, cookies.viewer);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toHaveLength(2);
    expect(listed.json()).toContainEqual(
      expect.objectContaining({ recruiterId: a.recruiter.id, amount: '60.00', paid: false, paidAt: null }),
    );

    expect((await call('POST', url(a.recruiter.id), '', {})).statusCode).toBe(401);
    expect((await call('POST', url(a.recruiter.id), cookies.reviewer, {})).statusCode).toBe(403);
    expect((await call('POST', url(a.recruiter.id), cookies.viewer, {})).statusCode).toBe(403);
    const bad = await call('POST', url('not-a-uuid'), cookies.owner, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('recruiterId');
    const long = await call('POST', url(a.recruiter.id), cookies.owner, { reference: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('reference');
    const stranger = await createDealer(h.db, { status: 'active' });
    expect((await call('POST', url(stranger.id), cookies.owner, {})).statusCode).toBe(404);
    expect(
      (await call('POST', `/api/admin/payouts/${a.recruiter.id}/payees/${a.recruiter.id}/paid`, cookies.owner, {}))
        .statusCode,
    ).toBe(404);
    expect(await entryStates(a.recruiter.id)).toEqual([{ status: 'approved', paidAt: null }]);
    expect(await paidMails(a.recruiter.id)).toEqual([]);

    // Three at once: one transition, one email, one audit row; every answer says paid.
    const racing = await Promise.all(
      [0, 1, 2].map(() => call('POST', url(a.recruiter.id), cookies.owner, { reference: 'WIRE-7' })),
    );
    for (const r of racing) {
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({
        recruiterId: a.recruiter.id,
        amount: '60.00',
        paid: true,
        batchStatus: 'created',
      });
    }
    expect(await entryStates(a.recruiter.id)).toEqual([{ status: 'paid', paidAt: expect.any(Date) }]);
    const mails = await paidMails(a.recruiter.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain('WIRE-7');
    const audits = await h.db
      .selectFrom('auditLogs')
      .select('details')
      .where('eventType', '=', 'payout.payee_paid')
      .where('dealerId', '=', a.recruiter.id)
      .execute();
    expect(audits).toHaveLength(1);
    expect(await entryStates(b.recruiter.id)).toEqual([{ status: 'approved', paidAt: null }]);

    // The last payee: the batch is paid.
    const last = await call('POST', url(b.recruiter.id), cookies.owner, {});
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json()).toMatchObject({ paid: true, batchStatus: 'paid' });
    const batch = (await call('GET', '/api/admin/payouts', cookies.viewer))
      .json()
      .find((p: { id: string }) => p.id === id);
    expect(batch).toMatchObject({ status: 'paid', paidBy: 'payee-paid-owner' });
    expect((await call('POST', `/api/admin/payouts/${id}/paid`, cookies.owner, { reference: 'X' })).statusCode).toBe(
      409,
    );
    expect((await call('GET', `/api/admin/payouts/${id}/payees`, cookies.viewer)).json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ paid: true, paidAt: expect.any(String) })]),
    );
    // Again later: nothing changes, no second email.
    expect((await call('POST', url(b.recruiter.id), cookies.owner, {})).statusCode).toBe(200);
    expect(await paidMails(b.recruiter.id)).toHaveLength(1);
  });

  it('the batch marked paid after one payee was: the others are emailed, that payee not again', async () => {
    const { a, b, id } = await batchOfTwo();
    const one = await call('POST', `/api/admin/payouts/${id}/payees/${a.recruiter.id}/paid`, cookies.owner, {});
    expect(one.statusCode, one.body).toBe(200);
    const all = await call('POST', `/api/admin/payouts/${id}/paid`, cookies.owner, { reference: 'ACH-9' });
    expect(all.statusCode, all.body).toBe(200);
    expect(await paidMails(a.recruiter.id)).toHaveLength(1);
    expect(await paidMails(b.recruiter.id)).toHaveLength(1);
    expect((await entryStates(b.recruiter.id)).map((e) => e.status)).toEqual(['paid']);
  });
});

describe('risk: referrals ordering the minimum amount repeatedly', () => {
  const flagsOf = (ids: string[]) =>
    h.db
      .selectFrom('referralFlags')
      .select(['referredDealerId', 'signals', 'status', 'reason'])
      .where('referredDealerId', 'in', ids)
      .execute();
  const commissionStates = (referredDealerId: string) =>
    h.db
      .selectFrom('commissions')
      .select('status')
      .where('referredDealerId', '=', referredDealerId)
      .orderBy('createdAt')
      .execute()
      .then((rows) => rows.map((r) => r.status));

  it('3 orders by 2 referred dealers at the minimum within 30 days: one flag per referral, commissions held', async () => {
    const { recruiter, dealer: d1 } = await referredPair(h);
    const d2 = await createDealer(h.db, { status: 'approved', referredBy: recruiter.id });
    await order(d1.id, '25.00', 300);
    await order(d2.id, '25.00', 200);
    expect(await flagsOf([d1.id, d2.id])).toEqual([]);
    await order(d1.id, '25.00', 100);
    const flags = await flagsOf([d1.id, d2.id]);
    expect(flags).toHaveLength(2);
    for (const f of flags) {
      expect(f).toMatchObject({ signals: ['minimum_orders'], status: 'open' });
      expect(f.reason).toContain('$25.00');
    }
    expect(await commissionStates(d1.id)).toEqual(['held', 'held']);
    expect(await commissionStates(d2.id)).toEqual(['held']);
    // Once: a fourth order at the minimum is held, no second flag or audit row.
    await order(d2.id, '25.00', 50);
    expect(await flagsOf([d1.id, d2.id])).toHaveLength(2);
    expect(await commissionStates(d2.id)).toEqual(['held', 'held']);
    const audits = await h.db
      .selectFrom('auditLogs')
      .select('dealerId')
      .where('eventType', '=', 'referral.flagged')
      .where('dealerId', 'in', [d1.id, d2.id])
      .execute();
    expect(audits).toHaveLength(2);
    const risk = await call('GET', '/api/admin/risk?status=open', cookies.reviewer);
    expect(risk.json().filter((r: { referred: { id: string } }) => r.referred.id === d1.id)).toEqual([
      expect.objectContaining({ signals: ['minimum_orders'], held: { count: 2, amount: '120.00' } }),
    ]);
  });

  it('a normal pattern is not flagged: one dealer repeating the minimum, or varied amounts', async () => {
    const { recruiter, dealer: d3 } = await referredPair(h);
    const d4 = await createDealer(h.db, { status: 'approved', referredBy: recruiter.id });
    await order(d3.id, '25.00', 300);
    await order(d3.id, '25.00', 250);
    await order(d4.id, '80.00', 200);
    await order(d3.id, '25.00', 150);
    await order(d4.id, '140.00', 100);
    expect(await flagsOf([d3.id, d4.id])).toEqual([]);
    expect(await commissionStates(d3.id)).toEqual(['pending', 'pending', 'pending']);
    expect(await commissionStates(d4.id)).toEqual(['pending', 'pending']);
  });
});
