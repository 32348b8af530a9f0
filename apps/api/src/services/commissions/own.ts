import { listRecruiterLedger, recruiterTotals } from '@dn/db/queries/commissions';
import { COMMISSIONS_PAGE_SIZE, displayMoney } from '@dn/schema';
import type { Context, User } from '../../context';
import { maskEmail } from '../affiliate/stats';

/** A recruiter's own earnings: the summary by status and their ledger, paged (GET /api/affiliate/commissions). */
export async function ownCommissions(ctx: Context & { user: User }, page: number) {
  const recruiterDealerId = ctx.user.id;
  const monthStart = new Date();
  monthStart.setUTCDate(1);
  monthStart.setUTCHours(0, 0, 0, 0);
  const [rows, totals] = await Promise.all([
    listRecruiterLedger(ctx.db, recruiterDealerId, {
      limit: COMMISSIONS_PAGE_SIZE,
      offset: (page - 1) * COMMISSIONS_PAGE_SIZE,
    }),
    recruiterTotals(ctx.db, recruiterDealerId, monthStart),
  ]);
  return {
    summary: {
      pending: totals.pending,
      approved: totals.approved,
      paid: totals.paid,
      clawbacks: totals.clawbacks,
      thisMonth: totals.thisMonth,
      // What their next payout settles: approved and not yet in a batch, net of clawbacks.
      payable: totals.payable,
    },
    items: rows.map((c) => ({
      id: c.id,
      kind: c.kind,
      orderedAt: c.orderedAt?.toISOString() ?? null,
      referredName: c.referredName,
      referredEmail: c.referredEmail ? maskEmail(c.referredEmail) : null,
      amount: c.amount ?? '0.00',
      // What the amount came from (issue 36): the order's amount and the rule's rate.
      orderAmount: c.orderAmount ?? null,
      rate: rateOf(c.commissionType, c.ruleValue),
      status: c.status,
      voidReason: c.voidReason,
      paidAt: c.paidAt?.toISOString() ?? null,
    })),
    total: totals.total,
    page,
    pageSize: COMMISSIONS_PAGE_SIZE,
  };
}

/** "10%" or "$50.00 per order": the rate a commission was earned at; null for a clawback or an unknown rule. */
function rateOf(type: string, value: string | null): string | null {
  if (!value) return null;
  if (type === 'percent') return `${value.replace(/\.?0+$/, '')}%`;
  if (type === 'fixed') return `${displayMoney(value)} per order`;
  return null;
}
