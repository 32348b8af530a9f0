import { formatCents, parseCents } from '@dn/schema';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Context, createContextInner, type User } from '../src/context';
import { AppError } from '../src/lib/app-error';
import { commissionCents } from '../src/services/commissions/earn';
import { ownCommissions } from '../src/services/commissions/own';
import { createPayout, markPayoutPaid } from '../src/services/commissions/payouts';
import { approveCommissions, listCommissions } from '../src/services/commissions/review';
import { setCommissionRule } from '../src/services/commissions/rules';
import { recordOrder, setOrderStatusByAdmin } from '../src/services/orders/record';
import { createHarness, type Harness } from './helpers';
import { referredPair } from './partner-fixtures';

/**
 * Property tests over random sequences of orders, cancellations, refunds, rule changes, approvals
 * and payouts (issue 13): dealer totals equal the sum of their placed orders; every commission is
 * the rule in force when its order was recorded, to the cent; a recruiter's
 * paid + approved + pending - clawbacks equals the sum of their ledger.
 */

let h: Harness;
let ctx: Context & { user: User };
beforeAll(async () => {
  h = await createHarness();
  const admin: User = {
    id: 'prop-admin',
    role: 'admin',
    username: 'prop-admin',
    fullName: 'Prop Admin',
    email: null,
    status: null,
    tier: null,
  };
  ctx = createContextInner(h.app.deps, { user: admin }) as Context & { user: User };
});
afterAll(async () => {
  await h?.close();
});

const TIER = 'Preferred' as const;
const rule = fc.record({
  type: fc.constantFrom('percent' as const, 'fixed' as const),
  value: fc.integer({ min: 0, max: 10_000 }).map((n) => formatCents(BigInt(n))),
  appliesTo: fc.constantFrom('first' as const, 'all' as const),
  holdDays: fc.constant(0),
});
const action = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      dealer: fc.integer({ min: 0, max: 1 }),
      cents: fc.integer({ min: 1, max: 5_000_000 }),
      daysAgo: fc.integer({ min: 0, max: 20 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reverse' as const),
      pick: fc.nat(),
      status: fc.constantFrom('cancelled' as const, 'refunded' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rule' as const), rule }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('approve' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('payout' as const),
      minimum: fc.integer({ min: 0, max: 20_000 }),
      pay: fc.boolean(),
    }),
  },
);

let run = 0;

type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;
type Rule = typeof rule extends fc.Arbitrary<infer R> ? R : never;

async function check(actions: Action[], first: Rule) {
  run++;
  await setCommissionRule(ctx, { tier: TIER, ...first, months: null });
  const pairs = [await referredPair(h, { tier: TIER }), await referredPair(h, { tier: TIER })];
  const recruiterIds = pairs.map((p) => p.recruiter.id);
  /** the rule id in force when each order was recorded */
  const ruleAtRecord = new Map<string, string>();
  const orderIds: string[] = [];
  let seq = 0;
  for (const a of actions) {
    if (a.kind === 'order') {
      const dealer = pairs[a.dealer]!.dealer;
      const rules = await h.db
        .selectFrom('commissionRules')
        .select('id')
        .where('tier', '=', TIER)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      const r = await recordOrder(ctx, {
        source: 'admin',
        dealer: { dealerId: dealer.id },
        orderId: `prop-${run}-${seq++}`,
        amount: formatCents(BigInt(a.cents)),
        orderedAt: new Date(Date.now() - a.daysAgo * 86_400_000).toISOString(),
        status: 'placed',
      });
      orderIds.push(r.order.id);
      ruleAtRecord.set(r.order.id, rules.id);
    } else if (a.kind === 'reverse' && orderIds.length > 0) {
      const id = orderIds[a.pick % orderIds.length]!;
      await setOrderStatusByAdmin(ctx, id, a.status).catch((e) => {
        if (!(e instanceof AppError && e.code === 'CONFLICT')) throw e;
      });
    } else if (a.kind === 'rule') {
      await setCommissionRule(ctx, { tier: TIER, ...a.rule, months: null });
    } else if (a.kind === 'approve') {
      for (const recruiterDealerId of recruiterIds) {
        const pending = await listCommissions(ctx, {
          recruiterDealerId,
          status: 'pending',
          page: 1,
          pageSize: 200,
          from: undefined,
          to: undefined,
        });
        if (pending.items.length)
          await approveCommissions(
            ctx,
            pending.items.map((i) => i.id),
          );
      }
    } else if (a.kind === 'payout') {
      try {
        const p = await createPayout(ctx, formatCents(BigInt(a.minimum)));
        if (a.pay) await markPayoutPaid(ctx, p.id, `ref-${run}-${seq++}`);
      } catch (e) {
        if (!(e instanceof AppError && e.code === 'CONFLICT')) throw e;
      }
    }
  }

  for (const { dealer } of pairs) {
    const orders = await h.db
      .selectFrom('orders')
      .select(['amount', 'status', 'orderedAt'])
      .where('dealerId', '=', dealer.id)
      .execute();
    const placed = orders.filter((o) => o.status === 'placed');
    const sum = placed.reduce((s, o) => s + parseCents(o.amount)!, 0n);
    const d = await h.db
      .selectFrom('dealers')
      .select(['totalOrders', 'totalRevenue', 'averageOrderValue', 'lastOrderDate'])
      .where('id', '=', dealer.id)
      .executeTakeFirstOrThrow();
    expect(d.totalOrders).toBe(placed.length);
    expect(d.totalRevenue).toBe(formatCents(sum));
    const avg = placed.length === 0 ? 0n : (sum * 2n + BigInt(placed.length)) / (2n * BigInt(placed.length));
    expect(d.averageOrderValue).toBe(formatCents(avg));
    const last = placed.reduce<number | null>((m, o) => Math.max(m ?? 0, o.orderedAt.getTime()), null);
    expect(d.lastOrderDate?.getTime() ?? null).toBe(last);
  }

  const entries = await h.db
    .selectFrom('commissions as c')
    .innerJoin('commissionRules as r', 'r.id', 'c.ruleId')
    .select(['c.kind', 'c.amount', 'c.orderRef', 'c.ruleId', 'c.orderAmount', 'r.type', 'r.value', 'c.status'])
    .where('c.recruiterDealerId', 'in', recruiterIds)
    .execute();
  for (const e of entries) {
    expect(e.ruleId).toBe(ruleAtRecord.get(e.orderRef!));
    const expected = commissionCents({ type: e.type, value: e.value }, e.orderAmount!);
    expect(e.amount).toBe(formatCents(e.kind === 'clawback' ? -expected : expected));
    if (e.kind === 'commission') expect(parseCents(e.amount!)! >= 0n).toBe(true);
  }

  for (const { recruiter } of pairs) {
    const own = await ownCommissions({ ...ctx, user: { ...ctx.user, id: recruiter.id, role: 'dealer' } }, 1);
    const s = own.summary;
    const lhs = parseCents(s.paid)! + parseCents(s.approved)! + parseCents(s.pending)! - parseCents(s.clawbacks)!;
    const ledger = await h.db
      .selectFrom('commissions')
      .select(['amount', 'status'])
      .where('recruiterDealerId', '=', recruiter.id)
      .execute();
    const rhs = ledger.filter((l) => l.status !== 'voided').reduce((t, l) => t + parseCents(l.amount!)!, 0n);
    expect(lhs).toBe(rhs);
  }
}

describe(`ledger properties on ${process.env.TEST_DB}`, () => {
  it('totals, commissions and recruiter balances stay exact over random histories', async () => {
    await fc.assert(
      fc.asyncProperty(rule, fc.array(action, { minLength: 1, maxLength: 14 }), async (first, actions) => {
        await check(actions, first);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 15) },
    );
  }, 240_000);
});
