import type { CommissionRule, DB, Kysely, Order, Tier } from '@dn/db';
import { currentRule } from '@dn/db/queries/commission-rules';
import { findRecruiter } from '@dn/db/queries/commissions';
import { formatCents, parseCents, percentOfCents } from '@dn/schema';
import type { Context } from '../../context';
import * as ledger from './ledger';

/**
 * Whether and how much an order earns its recruiter (docs/decisions/0601-partner-program.md), in
 * the order's transaction; the entry itself is the ledger's (ledger.ts earn).
 */

type Trx = Kysely<DB>;

export interface OrderDealer {
  id: string;
  tier: Tier;
  referredBy: string | null;
  approvalDate: Date | null;
  fullName: string;
  email: string;
}

/** The rule applied to an order amount, in cents, half-up: the one formula. */
export function commissionCents(rule: Pick<CommissionRule, 'type' | 'value'>, orderAmount: string): bigint {
  const cents = parseCents(orderAmount);
  if (cents === null) throw new RangeError(`not money: ${orderAmount}`);
  if (rule.type === 'fixed') return parseCents(rule.value) ?? 0n;
  return percentOfCents(cents, rule.value);
}

/** Calendar months (UTC), as PostgreSQL's `+ interval 'N months'`: a day the month lacks is its last day (Jan 31 + 1 = Feb 28). */
function addMonthsUtc(d: Date, months: number): Date {
  const r = new Date(d.getTime());
  r.setUTCDate(1);
  r.setUTCMonth(r.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(r.getUTCFullYear(), r.getUTCMonth() + 1, 0)).getUTCDate();
  r.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return r;
}

/** Whether the rule covers this order: the first order only, or every order within N months of approval. */
export function qualifies(
  rule: Pick<CommissionRule, 'appliesTo' | 'months'>,
  o: { isFirst: boolean; orderedAt: Date; approvalDate: Date | null },
): boolean {
  if (rule.appliesTo === 'first') return o.isFirst;
  if (rule.months === null) return true;
  if (!o.approvalDate) return false;
  return o.orderedAt.getTime() < addMonthsUtc(o.approvalDate, rule.months).getTime();
}

/** Earns the commission of a newly placed order, when the dealer has a referrer and a rule covers it. */
export async function earnCommission(trx: Trx, ctx: Context, dealer: OrderDealer, order: Order, isFirst: boolean) {
  if (!dealer.referredBy) return null;
  const recruiter = await findRecruiter(trx, dealer.referredBy);
  if (!recruiter) return null;
  const rule = await currentRule(trx, dealer.tier);
  if (!rule) return null;
  if (!qualifies(rule, { isFirst, orderedAt: order.orderedAt, approvalDate: dealer.approvalDate })) return null;
  const amount = formatCents(commissionCents(rule, order.amount));
  return ledger.earn(trx, ctx, { recruiter, referred: dealer, order, rule, amount });
}
