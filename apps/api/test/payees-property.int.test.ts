import { resetLedger } from '@dn/db/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Context, createContextInner, type User } from '../src/context';
import { AppError } from '../src/lib/app-error';
import { achFile, checkRegister, setPaymentSettings } from '../src/services/commissions/payout-files';
import { createPayout } from '../src/services/commissions/payouts';
import { approveCommissions } from '../src/services/commissions/review';
import { setCommissionRule } from '../src/services/commissions/rules';
import { recordOrder, setOrderStatusByAdmin } from '../src/services/orders/record';
import { createHarness, type Harness } from './helpers';
import { givePayoutProfile, PAYMENT_SETTINGS, referredPair } from './partner-fixtures';

/**
 * Issue 39, property: over random histories (orders of random amounts, refunds that claw back,
 * recruiters paying by ACH as individuals or businesses, by check, or with no details), the sum of
 * a batch's ACH entries (read from the NACHA file) and checks (read from the register) is the
 * batch total to the cent, and a held payee is in neither file.
 */

let h: Harness;
let ctx: Context & { user: User };
beforeAll(async () => {
  h = await createHarness();
  const owner: User = {
    id: 'prop-owner',
    role: 'admin',
    adminRole: 'owner',
    username: 'prop-owner',
    fullName: 'Prop Owner',
    email: null,
    status: null,
    tier: null,
  };
  ctx = createContextInner(h.app.deps, { user: owner }) as Context & { user: User };
  await setCommissionRule(ctx, {
    tier: 'Affiliate',
    type: 'percent',
    value: '12.50',
    appliesTo: 'all',
    months: null,
    holdDays: 0,
  });
  await setPaymentSettings(ctx, PAYMENT_SETTINGS);
}, 180_000);
afterAll(async () => {
  await h?.close();
});

const money = (cents: bigint) => {
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

type Way = 'individual' | 'business' | 'check' | 'none';
const payee = fc.record({
  way: fc.constantFrom<Way>('individual', 'business', 'check', 'none'),
  orders: fc.array(fc.record({ cents: fc.integer({ min: 1, max: 9_999_999 }), refund: fc.boolean() }), {
    minLength: 1,
    maxLength: 3,
  }),
});

let run = 0;
async function check(payees: { way: Way; orders: { cents: number; refund: boolean }[] }[]) {
  run++;
  await resetLedger(h.db);
  const made: { recruiterDealerId: string; way: Way }[] = [];
  const refunds: string[] = [];
  for (const [i, p] of payees.entries()) {
    const pair = await referredPair(h);
    await h.db.deleteFrom('payoutProfiles').where('dealerId', '=', pair.recruiter.id).execute();
    if (p.way !== 'none')
      await givePayoutProfile(h, pair.recruiter.id, {
        method: p.way === 'check' ? 'check' : 'ach',
        taxClassification: p.way === 'business' ? 'c_corporation' : 'individual',
      });
    made.push({ recruiterDealerId: pair.recruiter.id, way: p.way });
    for (const [j, o] of p.orders.entries()) {
      const r = await recordOrder(ctx, {
        source: 'admin',
        dealer: { dealerId: pair.dealer.id },
        orderId: `pay-${run}-${i}-${j}`,
        amount: money(BigInt(o.cents)),
        orderedAt: new Date(Date.now() - 60_000).toISOString(),
        status: 'placed',
      });
      if (o.refund) refunds.push(r.order.id);
    }
  }
  const pending = await h.db.selectFrom('commissions').select('id').where('status', '=', 'pending').execute();
  await approveCommissions(
    ctx,
    pending.map((c) => c.id),
  );
  // Refunds after approval: clawbacks, netted in the batch.
  for (const id of refunds) await setOrderStatusByAdmin(ctx, id, 'refunded');

  const batch = await createPayout(ctx, '0.01').catch((e) => {
    if (e instanceof AppError && e.code === 'CONFLICT') return null;
    throw e;
  });
  if (!batch) {
    // Nothing payable: every recruiter with a positive net has no details (or nets nothing).
    return;
  }
  for (const x of batch.held) expect(made.find((m) => m.recruiterDealerId === x.recruiterId)?.way).toBe('none');

  const ach = (await achFile(ctx, batch.id)).body;
  const records = ach.split('\r\n').filter((l) => l.startsWith('6'));
  const achCents = records.reduce((t, r) => t + BigInt(r.slice(29, 39)), 0n);
  const achIds = new Set(records.map((r) => r.slice(39, 54).trim()));
  const register = (await checkRegister(ctx, batch.id)).body.trim().split('\r\n').slice(1);
  const checkCents = register.reduce((t, line) => {
    const cells = line.split(',');
    return t + BigInt(cells[5]!.replace('.', ''));
  }, 0n);
  expect(money(achCents + checkCents)).toBe(batch.total);

  // Held payees (no details) get nothing: not in the batch, not in either file.
  const ids = await h.db
    .selectFrom('dealers')
    .select(['id', 'recruiterId'])
    .where(
      'id',
      'in',
      made.map((m) => m.recruiterDealerId),
    )
    .execute();
  for (const m of made.filter((x) => x.way === 'none')) {
    const rid = ids.find((x) => x.id === m.recruiterDealerId)?.recruiterId ?? '';
    expect(achIds.has(rid.toUpperCase())).toBe(false);
    expect(register.some((l) => l.includes(rid))).toBe(false);
    const inBatch = await h.db
      .selectFrom('commissions')
      .select('id')
      .where('payoutId', '=', batch.id)
      .where('recruiterDealerId', '=', m.recruiterDealerId)
      .execute();
    expect(inBatch).toEqual([]);
  }
  expect(batch.recruiterCount).toBe(records.length + register.length);
}

describe(`payable batch properties on ${process.env.TEST_DB}`, () => {
  it('ACH entries + checks = the batch total; held payees get nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(payee, { minLength: 1, maxLength: 5 }), async (payees) => {
        await check(payees);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 10) },
    );
  }, 240_000);
});
