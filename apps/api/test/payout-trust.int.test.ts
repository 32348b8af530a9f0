import { PAYEE_MESSAGES } from '@dn/schema';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { DEFAULT_LIMITS } from '../src/services/accounts/rate-limit';
import { createHarness, type Harness, signInAdmin, signInDealer } from './helpers';
import { PAYMENT_SETTINGS, referredPair, setRuleForEveryTier } from './partner-fixtures';

/**
 * Issue 45, findings 3 and 4 (decision 1020): a payout destination (method, routing number, account
 * number) changes only with the current password (counted in the sign-in budget), the dealer is
 * emailed at once with the old account's last 4 digits, the new destination is not paid for 3 days,
 * and a batch pays the method and account its payees had when it was created: the ACH file and the
 * check register read that, so a payee is in exactly one of them.
 */

const clock = new ShiftedClock();
let h: Harness;
let owner = '';
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  h = await createHarness({ clock, limits: { loginPerAccount: DEFAULT_LIMITS.loginPerAccount } });
  owner = await signInAdmin(h.app, 'trust-owner');
  await setRuleForEveryTier(h, owner, { type: 'fixed', value: '60.00', appliesTo: 'all', holdDays: 0 });
  const s = await call('PUT', '/api/admin/payment-settings', owner, PAYMENT_SETTINGS);
  expect(s.statusCode, s.body).toBe(200);
}, 180_000);
afterAll(async () => {
  await h?.close();
});

async function call(method: 'GET' | 'PUT' | 'POST', url: string, cookie: string, payload?: unknown, ip = '10.45.0.1') {
  const res: LightMyRequestResponse = await h.app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return res;
}

const ROUTING = '021000021';
const OTHER_ROUTING = '011000015';
const profile = (over: Record<string, unknown> = {}) => ({
  legalName: 'Rita Recruiter',
  taxClassification: 'individual',
  tin: '523-45-6781',
  address: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
  method: 'ach',
  routingNumber: ROUTING,
  accountNumber: '7391846205',
  accountType: 'checking',
  certify: true,
  ...over,
});
const CHECK = { method: 'check', routingNumber: undefined, accountNumber: undefined, accountType: undefined };

/** A recruiter with no payout details yet (the fixture's removed), signed in. */
async function recruiter() {
  const pair = await referredPair(h);
  await h.db.deleteFrom('payoutProfiles').where('dealerId', '=', pair.recruiter.id).execute();
  const cookie = await signInDealer(h.app, pair.recruiter.email);
  return { ...pair, cookie };
}
const row = (dealerId: string) =>
  h.db.selectFrom('payoutProfiles').selectAll().where('dealerId', '=', dealerId).executeTakeFirst();
const changedMails = (dealerId: string) =>
  h.db
    .selectFrom('emailOutbox')
    .select(['textBody', 'subject', 'toAddress'])
    .where('dealerId', '=', dealerId)
    .where('kind', '=', 'payout_details_changed')
    .execute();

async function earn(dealerId: string) {
  const res = await call('POST', `/api/admin/dealers/${dealerId}/orders`, owner, {
    orderId: `ord-${Math.random().toString(36).slice(2, 10)}`,
    amount: '500.00',
    orderedAt: new Date(clock.now().getTime() - 60_000).toISOString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  const pending = await h.db.selectFrom('commissions').select('id').where('status', '=', 'pending').execute();
  if (pending.length === 0) return;
  const ok = await call('POST', '/api/admin/commissions/approve', owner, { ids: pending.map((p) => p.id) });
  expect(ok.statusCode, ok.body).toBe(200);
}

describe('changing where payouts go needs the current password and is told at once', () => {
  it('a first save needs no password and sends no change email; the same destination again needs none either', async () => {
    const r = await recruiter();
    const first = await call('PUT', '/api/dealer/payout-profile', r.cookie, profile());
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ complete: true, payableFrom: null });
    // Another address, same account: not a change of destination.
    const moved = await call(
      'PUT',
      '/api/dealer/payout-profile',
      r.cookie,
      profile({ address: { street: '2 Oak St', city: 'Austin', state: 'TX', zipCode: '78702' } }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await row(r.recruiter.id))?.destinationChangedAt).toBeNull();
    expect(await changedMails(r.recruiter.id)).toEqual([]);
  });

  it('without the password (400 on currentPassword) or with a wrong one (400): nothing changes, nothing is sent', async () => {
    const r = await recruiter();
    expect((await call('PUT', '/api/dealer/payout-profile', r.cookie, profile())).statusCode).toBe(200);
    const before = await row(r.recruiter.id);
    for (const change of [{ accountNumber: '11112222' }, { routingNumber: OTHER_ROUTING }, CHECK]) {
      const none = await call('PUT', '/api/dealer/payout-profile', r.cookie, profile(change));
      expect(none.statusCode, none.body).toBe(400);
      expect(none.json().fieldErrors).toEqual({ currentPassword: PAYEE_MESSAGES.currentPasswordRequired });
      const wrong = await call(
        'PUT',
        '/api/dealer/payout-profile',
        r.cookie,
        profile({ ...change, currentPassword: 'not-my-password' }),
      );
      expect(wrong.statusCode, wrong.body).toBe(400);
      expect(wrong.json().fieldErrors).toEqual({ currentPassword: PAYEE_MESSAGES.currentPasswordWrong });
    }
    expect(await row(r.recruiter.id)).toEqual(before);
    expect(await changedMails(r.recruiter.id)).toEqual([]);
    const failed = await h.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('dealerId', '=', r.recruiter.id)
      .where('eventType', '=', 'payee.details_change_failed')
      .execute();
    expect(failed).toHaveLength(3);
    // Anonymous and an admin are refused as before.
    expect((await call('PUT', '/api/dealer/payout-profile', '', profile())).statusCode).toBe(401);
    expect((await call('PUT', '/api/dealer/payout-profile', owner, profile())).statusCode).toBe(403);
  });

  it('the right password changes it, emails the dealer with the old last 4 digits, and audits the change', async () => {
    const r = await recruiter();
    expect((await call('PUT', '/api/dealer/payout-profile', r.cookie, profile())).statusCode).toBe(200);
    const res = await call(
      'PUT',
      '/api/dealer/payout-profile',
      r.cookie,
      profile({ accountNumber: '99998888', currentPassword: 'dealer-pass-1' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accountLast4: '8888', complete: true });
    expect(Date.parse(res.json().payableFrom)).toBeGreaterThan(clock.now().getTime() + 3 * DAY - 60_000);
    expect(res.json().reason).toMatch(/payout details changed/);
    const mails = await changedMails(r.recruiter.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.toAddress).toBe(r.recruiter.email);
    expect(mails[0]!.textBody).toContain('ending in 6205');
    expect(mails[0]!.textBody).toContain('ending in 8888');
    expect(mails[0]!.textBody).not.toContain('7391846205');
    expect(mails[0]!.textBody).not.toContain('99998888');
    const audit = await h.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('dealerId', '=', r.recruiter.id)
      .where('eventType', '=', 'payee.destination_changed')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('wrong guesses spend the sign-in budget: 10 in parallel hash at most 5 times, then even the right one is 429', async () => {
    const r = await recruiter();
    expect((await call('PUT', '/api/dealer/payout-profile', r.cookie, profile())).statusCode).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(
          'PUT',
          '/api/dealer/payout-profile',
          r.cookie,
          profile({ ...CHECK, currentPassword: `guess-${i}` }),
          `10.46.${i}.1`,
        ),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 400).length).toBeLessThanOrEqual(DEFAULT_LIMITS.loginPerAccount.max);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(10 - DEFAULT_LIMITS.loginPerAccount.max);
    for (const c of codes) expect([400, 429]).toContain(c);
    const right = await call(
      'PUT',
      '/api/dealer/payout-profile',
      r.cookie,
      profile({ ...CHECK, currentPassword: 'dealer-pass-1' }),
      '10.47.0.1',
    );
    expect(right.statusCode).toBe(429);
    expect((await row(r.recruiter.id))?.method).toBe('ach');
  });
});

describe('a batch pays what it was made with', () => {
  it('a changed account is held for 3 days with the reason, then paid', async () => {
    const r = await recruiter();
    expect((await call('PUT', '/api/dealer/payout-profile', r.cookie, profile())).statusCode).toBe(200);
    expect(
      (
        await call(
          'PUT',
          '/api/dealer/payout-profile',
          r.cookie,
          profile({ accountNumber: '44443333', currentPassword: 'dealer-pass-1' }),
        )
      ).statusCode,
    ).toBe(200);
    await earn(r.dealer.id);
    const batch = await call('POST', '/api/admin/payouts', owner, { minimum: '10.00' });
    // Nothing else is payable in this file's database at this point but this recruiter's entry.
    if (batch.statusCode === 200) {
      expect(batch.json().held).toContainEqual(
        expect.objectContaining({
          recruiterId: r.recruiter.id,
          reason: expect.stringMatching(/payout details changed: the new account is paid from/),
        }),
      );
    } else expect(batch.statusCode, batch.body).toBe(409);
    const stillApproved = await h.db
      .selectFrom('commissions')
      .select(['status', 'payoutId'])
      .where('recruiterDealerId', '=', r.recruiter.id)
      .execute();
    expect(stillApproved).toEqual([{ status: 'approved', payoutId: null }]);
    // Held, not asked to complete details they have.
    const reminders = await h.db
      .selectFrom('emailOutbox')
      .select('kind')
      .where('dealerId', '=', r.recruiter.id)
      .where('kind', '=', 'payout_details_needed')
      .execute();
    expect(reminders).toEqual([]);

    clock.advance(3 * DAY + 60_000);
    try {
      const later = await call('POST', '/api/admin/payouts', owner, { minimum: '10.00' });
      expect(later.statusCode, later.body).toBe(200);
      expect(later.json().held.map((x: { recruiterId: string }) => x.recruiterId)).not.toContain(r.recruiter.id);
      const ach = await call('GET', `/api/admin/payouts/${later.json().id}/ach`, owner);
      expect(ach.statusCode, ach.body).toBe(200);
      expect(ach.body).toContain('44443333');
    } finally {
      clock.advance(-(3 * DAY + 60_000));
    }
  });

  it('after the batch, switching to check or to another account reaches neither of its files: one file, the old account', async () => {
    const r = await recruiter();
    expect(
      (await call('PUT', '/api/dealer/payout-profile', r.cookie, profile({ accountNumber: '5550001111' }))).statusCode,
    ).toBe(200);
    await earn(r.dealer.id);
    const made = await call('POST', '/api/admin/payouts', owner, { minimum: '10.00' });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as string;
    const kept = await h.db.selectFrom('payoutPayees').selectAll().where('payoutId', '=', id).execute();
    expect(kept.find((k) => k.recruiterDealerId === r.recruiter.id)).toMatchObject({
      method: 'ach',
      accountLast4: '1111',
    });

    const achBefore = await call('GET', `/api/admin/payouts/${id}/ach`, owner);
    expect(achBefore.statusCode).toBe(200);
    expect(achBefore.body).toContain('5550001111');
    // The batch is paid by ACH; the dealer then switches to check (with the password) ...
    expect((await call('POST', `/api/admin/payouts/${id}/paid`, owner, { reference: 'ACH-45' })).statusCode).toBe(200);
    const toCheck = await call(
      'PUT',
      '/api/dealer/payout-profile',
      r.cookie,
      profile({ ...CHECK, legalName: 'Rita Check', currentPassword: 'dealer-pass-1' }),
    );
    expect(toCheck.statusCode, toCheck.body).toBe(200);
    // ... and is still only in the ACH file of that batch, with the account it had.
    const checks = await call('GET', `/api/admin/payouts/${id}/checks`, owner);
    expect(checks.statusCode).toBe(200);
    expect(checks.body).not.toContain(r.recruiter.recruiterId);
    expect(checks.body).not.toContain('Rita Check');
    const achAfter = await call('GET', `/api/admin/payouts/${id}/ach`, owner);
    expect(achAfter.body).toContain('5550001111');
    // Another account: the file still pays the one the batch was made with.
    const toOther = await call(
      'PUT',
      '/api/dealer/payout-profile',
      r.cookie,
      profile({ accountNumber: '6660002222', currentPassword: 'dealer-pass-1' }),
    );
    expect(toOther.statusCode, toOther.body).toBe(200);
    const achLast = await call('GET', `/api/admin/payouts/${id}/ach`, owner);
    expect(achLast.body).toContain('5550001111');
    expect(achLast.body).not.toContain('6660002222');
  });
});

describe('legal name and signature are one line of text (issue 45, finding 9)', () => {
  it('a line break or another control character in either is a 400 naming the field, and nothing is stored', async () => {
    const r = await recruiter();
    for (const bad of [
      { legalName: 'Rita Recruiter\nAdmin approved' },
      { legalName: 'Rita\u0007Recruiter' },
      { legalName: 'Rita\u2028Recruiter' },
      { signature: 'Rita Recruiter\r\nSigned' },
    ]) {
      const res = await call('PUT', '/api/dealer/payout-profile', r.cookie, profile(bad));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(res.json().fieldErrors ?? {})).toEqual(Object.keys(bad));
    }
    expect(await row(r.recruiter.id)).toBeUndefined();
  });
});
