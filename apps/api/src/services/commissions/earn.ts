import type { CommissionRule, DB, Kysely, Order, Tier } from '@dn/db';
import { currentRule } from '@dn/db/queries/commission-rules';
import { findOrderCommission, findRecruiter, insertLedgerEntryOnce, voidLedgerEntry } from '@dn/db/queries/commissions';
import { formatCents, parseCents, percentOfCents } from '@dn/schema';
import type { Context } from '../../context';
import { audit } from '../audit/audit';
import { enqueueMail } from '../mail/outbox';
import { commissionEarnedEmail } from '../mail/templates';

/**
 * How an order earns its recruiter a commission, and how a cancelled or refunded order takes it
 * back (docs/decisions/0601-partner-program.md). Both run in the order's transaction.
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

const DAY_MS = 24 * 60 * 60 * 1000;

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

/** Creates the pending commission of a newly placed order, when the dealer has a referrer and a rule covers it. */
export async function earnCommission(trx: Trx, ctx: Context, dealer: OrderDealer, order: Order, isFirst: boolean) {
  if (!dealer.referredBy) return null;
  const recruiter = await findRecruiter(trx, dealer.referredBy);
  if (!recruiter) return null;
  const rule = await currentRule(trx, dealer.tier);
  if (!rule) return null;
  if (!qualifies(rule, { isFirst, orderedAt: order.orderedAt, approvalDate: dealer.approvalDate })) return null;
  const amount = formatCents(commissionCents(rule, order.amount));
  const entry = await insertLedgerEntryOnce(trx, {
    kind: 'commission',
    recruiterId: recruiter.recruiterId ?? recruiter.id,
    recruiterDealerId: recruiter.id,
    referredDealerId: dealer.id,
    commissionType: rule.type,
    amount,
    status: 'pending',
    orderId: order.externalOrderId,
    orderRef: order.id,
    ruleId: rule.id,
    orderAmount: order.amount,
    orderedAt: order.orderedAt,
    holdUntil: new Date(order.orderedAt.getTime() + rule.holdDays * DAY_MS),
  });
  if (!entry) return null;
  await enqueueMail(
    trx,
    commissionEarnedEmail(
      { fullName: recruiter.fullName, email: recruiter.email, id: recruiter.id },
      { amount, referredName: dealer.fullName, orderedAt: order.orderedAt },
      { publicUrl: ctx.config.publicUrl },
    ),
  );
  await audit(trx, ctx, {
    eventType: 'commission.earned',
    category: 'affiliate',
    message: `${recruiter.fullName} earned ${amount} on order ${order.externalOrderId} of ${dealer.email}`,
    dealerId: dealer.id,
    recruiterId: recruiter.recruiterId,
    details: { commissionId: entry.id, orderId: order.id, ruleId: rule.id, ruleVersion: rule.version, amount },
  });
  return entry;
}

/**
 * A cancelled or refunded order: its pending commission is voided; one already approved or paid
 * stays as it is and gets a clawback entry of the opposite amount, settled in the next payout.
 */
export async function reverseCommission(trx: Trx, ctx: Context, order: Order, status: 'cancelled' | 'refunded') {
  const c = await findOrderCommission(trx, order.id);
  if (!c || c.status === 'voided' || c.status === 'cancelled') return null;
  const reason = `Order ${status}`;
  if (c.status === 'pending') {
    await voidLedgerEntry(trx, c.id, reason);
    await audit(trx, ctx, {
      eventType: 'commission.voided',
      category: 'affiliate',
      message: `Commission on order ${order.externalOrderId} voided: ${reason}`,
      dealerId: c.referredDealerId,
      recruiterId: c.recruiterId,
      details: { commissionId: c.id, reason, before: { status: c.status } },
    });
    return { voided: c.id };
  }
  const amount = c.amount === null ? '0.00' : formatCents(-(parseCents(c.amount) ?? 0n));
  const claw = await insertLedgerEntryOnce(trx, {
    kind: 'clawback',
    recruiterId: c.recruiterId,
    recruiterDealerId: c.recruiterDealerId ?? c.referredDealerId,
    referredDealerId: c.referredDealerId,
    commissionType: 'clawback',
    amount,
    status: 'approved',
    orderId: c.orderId ?? order.externalOrderId,
    orderRef: order.id,
    ruleId: c.ruleId,
    orderAmount: order.amount,
    orderedAt: order.orderedAt,
    holdUntil: null,
  });
  if (!claw) return null;
  await audit(trx, ctx, {
    eventType: 'commission.clawed_back',
    category: 'affiliate',
    message: `Clawback of ${amount} on order ${order.externalOrderId} (${reason.toLowerCase()})`,
    dealerId: c.referredDealerId,
    recruiterId: c.recruiterId,
    details: { commissionId: c.id, clawbackId: claw.id, amount, reason },
  });
  return { clawback: claw.id };
}
