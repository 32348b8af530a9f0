import type { DB, Kysely, Order } from '@dn/db';
import { ordersAtReferralsMinimum, raiseReferralFlag } from '@dn/db/queries/referral-flags';
import { displayMoney, parseCents } from '@dn/schema';
import type { Context } from '../../context';
import { audit } from '../audit/audit';
import * as ledger from './ledger';

/**
 * The risk signal "the recruiter's referrals order the minimum amount repeatedly" (issue 39,
 * decision 0966). The product has no minimum order amount, so the minimum is the smallest amount
 * among the recruiter's referrals' placed orders of the last 30 days (up to this order). When this
 * order is at it and at least 3 of those orders, by at least 2 referred dealers, are at exactly that
 * amount, each of those dealers' referrals is flagged (`minimum_orders`, once: a flag that already
 * has the signal is left as it is, cleared or not) and its pending commissions are held. Run in the
 * order's transaction before its commission is earned.
 */

type Trx = Kysely<DB>;

export const MINIMUM_ORDERS = { signal: 'minimum_orders', orders: 3, dealers: 2, days: 30 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Returns the flag's reason when the order's own referral is (newly) flagged by this signal. */
export async function minimumOrderSignal(
  trx: Trx,
  ctx: Context,
  recruiterDealerId: string,
  referredDealerId: string,
  order: Pick<Order, 'id' | 'amount' | 'orderedAt'>,
): Promise<string | null> {
  const since = new Date(order.orderedAt.getTime() - MINIMUM_ORDERS.days * DAY_MS);
  const at = await ordersAtReferralsMinimum(trx, recruiterDealerId, since, order.orderedAt);
  if (at.amount === null || parseCents(at.amount) !== parseCents(order.amount)) return null;
  if (at.orders < MINIMUM_ORDERS.orders || at.dealerIds.length < MINIMUM_ORDERS.dealers) return null;
  const reason = `Referrals of the same recruiter ordered the minimum amount (${displayMoney(at.amount)}) ${at.orders} times in ${MINIMUM_ORDERS.days} days`;
  let own: string | null = null;
  for (const dealerId of [...at.dealerIds].sort()) {
    const flag = await raiseReferralFlag(trx, {
      referredDealerId: dealerId,
      recruiterDealerId,
      signals: [MINIMUM_ORDERS.signal],
      reason,
    });
    if (!flag) continue;
    if (dealerId === referredDealerId) own = reason;
    const held = await ledger.hold(trx, dealerId);
    await audit(trx, ctx, {
      eventType: 'referral.flagged',
      category: 'system',
      message: `Referral flagged: ${reason}; ${held.length} pending commission(s) held`,
      dealerId,
      details: {
        flagId: flag.id,
        signals: [MINIMUM_ORDERS.signal],
        recruiterDealerId,
        orderId: order.id,
        amount: at.amount,
        orders: at.orders,
        commissionIds: held.map((h) => h.id),
      },
    });
  }
  return own;
}
