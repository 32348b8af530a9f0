import type { CommissionRule, DB, DealerStatus, Kysely, Order, Tier } from '@dn/db';
import { currentRule } from '@dn/db/queries/commission-rules';
import { findRecruiter } from '@dn/db/queries/commissions';
import { findReferralFlag } from '@dn/db/queries/referral-flags';
import { displayMoney, formatCents, JOB_HELD_REASONS, parseCents, percentOfCents } from '@dn/schema';
import type { Context } from '../../context';
import { audit } from '../audit/audit';
import * as ledger from './ledger';
import { minimumOrderSignal } from './minimum-orders';
import { flagJobRisk } from './referral-flags';
import { inGoodStanding } from './standing';

/**
 * Whether and how much an order earns its recruiter (docs/decisions/0601-partner-program.md), in
 * the order's transaction; the entry itself is the ledger's (ledger.ts earn).
 */

type Trx = Kysely<DB>;

export interface OrderDealer {
  id: string;
  tier: Tier;
  status: DealerStatus;
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

/**
 * Earns the commission of a newly placed order, when the dealer has a referrer and a rule covers
 * it. A commission that would be due but is not (the recruiter or the referred dealer not in good
 * standing, the referral's flag voided) is audited with its reason; one whose referral is flagged
 * (decision 0895) is earned `held`, never payable until an owner clears the flag.
 */
export async function earnCommission(
  trx: Trx,
  ctx: Context,
  dealer: OrderDealer,
  order: Order,
  isFirst: boolean,
  /** A job's order (issue 45): whether its seller installed it itself. */
  job?: { id: string; sellerInstalled: boolean },
) {
  if (!dealer.referredBy) return null;
  const recruiter = await findRecruiter(trx, dealer.referredBy);
  if (!recruiter) return null;
  const rule = await currentRule(trx, dealer.tier);
  if (!rule) return null;
  if (!qualifies(rule, { isFirst, orderedAt: order.orderedAt, approvalDate: dealer.approvalDate })) return null;
  const flag = await findReferralFlag(trx, dealer.id);
  const why = !inGoodStanding(recruiter.status)
    ? `the recruiter is ${recruiter.status}`
    : !inGoodStanding(dealer.status)
      ? `the referred dealer is ${dealer.status}`
      : flag?.status === 'voided'
        ? 'the referral was voided by an owner'
        : null;
  if (why) {
    await audit(trx, ctx, {
      eventType: 'commission.not_earned',
      category: 'affiliate',
      message: `Order ${order.externalOrderId} of ${dealer.email} earns ${recruiter.fullName} nothing: ${why}`,
      dealerId: dealer.id,
      recruiterId: recruiter.recruiterId,
      success: false,
      details: { orderId: order.id, recruiterDealerId: recruiter.id, reason: why },
    });
    return null;
  }
  const amount = formatCents(commissionCents(rule, order.amount));
  // Issue 39 (decision 0966): referrals ordering the minimum amount repeatedly are flagged here.
  const raised = await minimumOrderSignal(trx, ctx, recruiter.id, dealer.id, order);
  const flagged = raised ?? (flag?.status === 'open' ? flag.reason : null);
  if (order.source !== 'job')
    return ledger.earn(trx, ctx, { recruiter, referred: dealer, order, rule, amount, held: flagged });
  // Issue 45 (decision 1001): a job's order is the installer's word until its homeowner confirms it;
  // a seller who installed its own job is a self-dealing signal, for an owner to decide in Risk.
  const self = job?.sellerInstalled === true;
  if (self) {
    await flagJobRisk(trx, ctx, {
      referredDealerId: dealer.id,
      recruiterDealerId: recruiter.id,
      signal: 'self_installed',
      reason: `${JOB_HELD_REASONS.selfDealing} (order ${order.externalOrderId}, ${displayMoney(order.amount)})`,
      jobId: job.id,
    });
  }
  return ledger.earn(trx, ctx, {
    recruiter,
    referred: dealer,
    order,
    rule,
    amount,
    held: flagged ?? (self ? JOB_HELD_REASONS.selfDealing : JOB_HELD_REASONS.installation),
    releaseNeeds: self ? 'owner' : 'installation',
  });
}
