import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, createDealer, createHarness, type Harness, signInAdmin } from '../helpers';
import { setRuleForEveryTier } from '../partner-fixtures';
import { application } from './support';

/**
 * Issue 35, finding 6: a dealer could refer themselves; the only check was the email. A variant
 * of the recruiter's own mailbox is a duplicate application (decision 0880, tested in
 * email-variants); any other match with the recruiter (phone, the signup's device cookie, an IP
 * of the recruiter's sign-ins: the same IPv4 address or IPv6 /64, the business address) attributes
 * the referral but flags it, and its commissions are `held`, never payable, until an owner clears
 * the flag; the reason is shown in the admin's commission list.
 */
let h: Harness;
let owner: string;
let reviewer: string;
beforeAll(async () => {
  h = await createHarness();
  owner = await signInAdmin(h.app);
  reviewer = await signInAdmin(h.app, `rev${Date.now().toString(36)}`);
  await h.db.updateTable('admins').set({ role: 'reviewer' }).where('username', 'like', 'rev%').execute();
  await setRuleForEveryTier(h, owner, { type: 'percent', value: '10.00', appliesTo: 'all', holdDays: 0 });
});
afterAll(async () => {
  await h?.close();
});

let n = 0;
const tag = () => `${Date.now().toString(36)}${++n}`;
const RECRUITER_IP = '2001:db8:35:6::10';
const RECRUITER_PHONE = '+15125550199';
const RECRUITER_ADDRESS = { street: '77 Referral Way', city: 'Austin', state: 'TX', zipCode: '78702' };

/** An active recruiter with a link, signed in once from RECRUITER_IP (which sets their device cookie). */
async function recruiterWithLink() {
  const r = await createDealer(h.db, { status: 'active' });
  await h.db
    .updateTable('dealers')
    .set({ phoneE164: RECRUITER_PHONE, addressJson: JSON.stringify({ ...RECRUITER_ADDRESS, country: 'US' }) })
    .where('id', '=', r.id)
    .execute();
  const login = await h.app.inject({
    method: 'POST',
    url: '/api/dealer/login',
    remoteAddress: RECRUITER_IP,
    payload: { username: r.email, password: r.password },
  });
  expect(login.statusCode, login.body).toBe(200);
  const cookie = cookieOf(login);
  const raw = login.headers['set-cookie'];
  const device = ((Array.isArray(raw) ? raw : [raw ?? '']).find((c) => c.startsWith('dn_device=')) ?? '').split(
    ';',
  )[0]!;
  expect(device).not.toBe('');
  const recruiterId = `sf${tag()}`.slice(0, 20);
  const link = await h.app.inject({
    method: 'POST',
    url: '/api/affiliate/create-link',
    headers: { cookie },
    payload: { recruiterId },
  });
  expect(link.statusCode, link.body).toBe(200);
  return { ...r, recruiterId, device };
}

let ip = 0;
/** A signup through the recruiter's link sharing nothing with them unless `over` says so. */
async function signupVia(
  recruiterId: string,
  over: Record<string, unknown> = {},
  opts: { ip?: string; cookie?: string } = {},
) {
  const email = `signup.${tag()}@example.com`;
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/dealer-signup',
    remoteAddress: opts.ip ?? `10.136.${++ip % 250}.7`,
    headers: opts.cookie ? { cookie: opts.cookie } : {},
    payload: application(email, {
      recruiterId,
      phoneE164: `51255${String(20_000 + ip).slice(-5)}`,
      addressJson: { street: `${ip} Oak St`, city: 'Houston', state: 'TX', zipCode: '77002' },
      ...over,
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return h.db.selectFrom('dealers').select(['id', 'referredBy']).where('email', '=', email).executeTakeFirstOrThrow();
}
const flagOf = (dealerId: string) =>
  h.db.selectFrom('referralFlags').selectAll().where('referredDealerId', '=', dealerId).executeTakeFirst();

describe('a signup that matches its recruiter is attributed but flagged', () => {
  const cases: [
    string,
    (r: Awaited<ReturnType<typeof recruiterWithLink>>) => Parameters<typeof signupVia>[1],
    Parameters<typeof signupVia>[2],
  ][] = [
    ['phone', () => ({ phoneE164: RECRUITER_PHONE }), {}],
    ['address', () => ({ addressJson: { ...RECRUITER_ADDRESS, street: ' 77  referral WAY ' } }), {}],
    ['ip', () => ({}), { ip: '2001:db8:35:6:ffff::1' }],
    ['device', () => ({}), {}],
  ];
  for (const [signal, over, opts] of cases) {
    it(`same ${signal}: referredBy is the recruiter, the flag is open and names it`, async () => {
      const r = await recruiterWithLink();
      const d = await signupVia(r.recruiterId, over(r), signal === 'device' ? { cookie: r.device } : opts);
      expect(d.referredBy).toBe(r.id);
      const flag = await flagOf(d.id);
      expect(flag?.status).toBe('open');
      expect(flag?.signals).toEqual([signal]);
    });
  }

  it('the same IPv4 address as a recorded sign-in is a match; a neighbour in the same /24 is not', async () => {
    const r = await createDealer(h.db, { status: 'active' });
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/login',
      remoteAddress: '198.51.100.23',
      payload: { username: r.email, password: r.password },
    });
    const cookie = cookieOf(login);
    const recruiterId = `v4${tag()}`.slice(0, 20);
    await h.app.inject({
      method: 'POST',
      url: '/api/affiliate/create-link',
      headers: { cookie },
      payload: { recruiterId },
    });
    const same = await signupVia(recruiterId, {}, { ip: '198.51.100.23' });
    expect((await flagOf(same.id))?.signals).toEqual(['ip']);
    const near = await signupVia(recruiterId, {}, { ip: '198.51.100.24' });
    expect(near.referredBy).toBe(r.id);
    expect(await flagOf(near.id)).toBeUndefined();
  });

  it('a signup sharing nothing is attributed and not flagged', async () => {
    const r = await recruiterWithLink();
    const d = await signupVia(r.recruiterId);
    expect(d.referredBy).toBe(r.id);
    expect(await flagOf(d.id)).toBeUndefined();
  });
});

/** A flagged referral (through `over`), approved, so its orders earn. */
async function approvedReferral(over: Record<string, unknown>) {
  const r = await recruiterWithLink();
  const d = await signupVia(r.recruiterId, over);
  await h.db
    .updateTable('dealers')
    .set({ status: 'approved', approvalDate: new Date() })
    .where('id', '=', d.id)
    .execute();
  return { r, d };
}
const placeOrder = (dealerId: string, amount: string) =>
  h.app.inject({
    method: 'POST',
    url: `/api/admin/dealers/${dealerId}/orders`,
    headers: { cookie: owner },
    payload: { orderId: `ord-${tag()}`, amount, orderedAt: new Date(Date.now() - 60_000).toISOString() },
  });
const approve = (ids: string[]) =>
  h.app.inject({ method: 'POST', url: '/api/admin/commissions/approve', headers: { cookie: owner }, payload: { ids } });
const decide = (flagId: string, action: 'clear' | 'void', cookie = owner) =>
  h.app.inject({
    method: 'POST',
    url: `/api/admin/referral-flags/${flagId}/${action}`,
    headers: { cookie },
    payload: {},
  });

describe('the commissions of a flagged referral', () => {
  it('are held (never payable, never batched), show the reason to admins, and only an owner clears them (audited)', async () => {
    const { r, d } = await approvedReferral({ phoneE164: RECRUITER_PHONE });
    const ord = await placeOrder(d.id, '1000.00');
    expect(ord.statusCode, ord.body).toBe(200);
    const [c] = await h.db.selectFrom('commissions').selectAll().where('referredDealerId', '=', d.id).execute();
    expect(c?.status).toBe('held');

    // Not approvable, not payable, not batched.
    const refused = await approve([c!.id]);
    expect(refused.json().approved).toEqual([]);
    const payable = await h.db
      .selectFrom('commissions')
      .select((eb) => eb.fn<boolean>('ledger_payable', ['status', 'payoutId']).as('p'))
      .where('id', '=', c!.id)
      .executeTakeFirstOrThrow();
    expect(payable.p).toBe(false);
    const batch = await h.app.inject({
      method: 'POST',
      url: '/api/admin/payouts',
      headers: { cookie: owner },
      payload: { minimum: '1.00' },
    });
    expect(batch.statusCode).toBeLessThan(500);
    expect(
      (await h.db.selectFrom('commissions').select('payoutId').where('id', '=', c!.id).executeTakeFirstOrThrow())
        .payoutId,
    ).toBeNull();

    // The admin's list says why.
    const list = await h.app.inject({
      method: 'GET',
      url: `/api/admin/commissions?recruiterDealerId=${r.id}`,
      headers: { cookie: owner },
    });
    expect(list.statusCode, list.body).toBe(200);
    const entry = list.json().items.find((i: { id: string }) => i.id === c!.id);
    expect(entry.status).toBe('held');
    expect(entry.heldReason).toMatch(/phone/i);

    // A reviewer cannot clear it; an owner can, and it is audited with their name.
    const flag = await h.db
      .selectFrom('referralFlags')
      .select(['id', 'decidedBy'])
      .where('referredDealerId', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(flag.decidedBy).toBeNull();
    const byReviewer = await decide(flag.id, 'clear', reviewer);
    expect(byReviewer.statusCode).toBe(403);
    const cleared = await decide(flag.id, 'clear');
    expect(cleared.statusCode, cleared.body).toBe(200);
    const decided = await flagOf(d.id);
    expect(decided?.status).toBe('cleared');
    expect(decided?.decidedBy).toMatch(/^admin/);
    const after = await h.db
      .selectFrom('commissions')
      .select('status')
      .where('id', '=', c!.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe('pending');
    const audit = await h.db
      .selectFrom('auditLogs')
      .select(['message'])
      .where('eventType', '=', 'referral.flag_cleared')
      .where('dealerId', '=', d.id)
      .execute();
    expect(audit).toHaveLength(1);
    const approved = await approve([c!.id]);
    expect(approved.json().approved).toEqual([c!.id]);
  });

  it('an owner voiding the flag voids the held commissions, and later orders earn nothing (audited)', async () => {
    const { d } = await approvedReferral({ addressJson: RECRUITER_ADDRESS });
    expect((await placeOrder(d.id, '500.00')).statusCode).toBe(200);
    const flag = await h.db
      .selectFrom('referralFlags')
      .select('id')
      .where('referredDealerId', '=', d.id)
      .executeTakeFirstOrThrow();
    const voided = await decide(flag.id, 'void');
    expect(voided.statusCode, voided.body).toBe(200);
    const again = await decide(flag.id, 'clear');
    expect(again.statusCode).toBe(409);
    expect((await placeOrder(d.id, '500.00')).statusCode).toBe(200);
    const rows = await h.db
      .selectFrom('commissions')
      .select(['status', 'voidReason'])
      .where('referredDealerId', '=', d.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('voided');
    expect(rows[0]!.voidReason).toMatch(/address/);
    const why = await h.db
      .selectFrom('auditLogs')
      .select('message')
      .where('dealerId', '=', d.id)
      .where('eventType', 'in', ['referral.flag_voided', 'commission.not_earned'])
      .execute();
    expect(why).toHaveLength(2);
  });
});
