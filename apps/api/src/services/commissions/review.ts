import { ledgerTotals, listLedger, lockCommission } from '@dn/db/queries/commissions';
import { COMMISSIONS_PAGE_SIZE, type CommissionListQuery } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import * as ledger from './ledger';

/** The admin's side of the ledger: list with totals; approve after the hold and void with a reason (ledger.ts). */

type AdminContext = Context & { user: User };
type LedgerRow = Awaited<ReturnType<typeof listLedger>>[number];

export function publicEntry(c: LedgerRow) {
  return {
    id: c.id,
    kind: c.kind,
    recruiterId: c.recruiterId,
    recruiterDealerId: c.recruiterDealerId,
    recruiterName: c.recruiterName,
    recruiterEmail: c.recruiterEmail,
    referredDealerId: c.referredDealerId,
    referredName: c.referredName,
    commissionType: c.commissionType,
    amount: c.amount ?? '0.00',
    status: c.status,
    orderId: c.orderId,
    orderAmount: c.orderAmount,
    orderedAt: c.orderedAt?.toISOString() ?? null,
    holdUntil: c.holdUntil?.toISOString() ?? null,
    voidReason: c.voidReason,
    /** Why a `held` commission is held (its referral's flag, issue 35 finding 6); null otherwise. */
    heldReason: c.heldReason,
    approvedBy: c.approvedBy,
    approvedAt: c.approvedAt?.toISOString() ?? null,
    payoutId: c.payoutId,
    paidAt: c.paidAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
  };
}

const dayStart = (d: string | undefined) => (d ? new Date(`${d}T00:00:00Z`) : undefined);
const dayAfter = (d: string | undefined) =>
  d ? new Date(new Date(`${d}T00:00:00Z`).getTime() + 24 * 60 * 60 * 1000) : undefined;

export async function listCommissions(ctx: Context, q: CommissionListQuery) {
  const filter = {
    status: q.status,
    recruiterDealerId: q.recruiterDealerId,
    from: dayStart(q.from),
    to: dayAfter(q.to),
  };
  const [rows, totals] = await Promise.all([
    // The tab's first page at its page size is a view, planned once per connection (decision 0504).
    listLedger(ctx.db, filter, { limit: q.pageSize, offset: (q.page - 1) * q.pageSize }, COMMISSIONS_PAGE_SIZE),
    ledgerTotals(ctx.db, filter),
  ]);
  const { total, ...sums } = totals;
  return { items: rows.map(publicEntry), total, page: q.page, pageSize: q.pageSize, totals: sums };
}

/**
 * Approves the pending commissions among `ids` whose holding period is over. The others are
 * reported with why, so a bulk approve of a mixed selection approves what it may.
 */
export async function approveCommissions(ctx: AdminContext, ids: readonly string[]) {
  return ctx.db.transaction().execute((trx) => ledger.approve(trx, ctx, [...new Set(ids)]));
}

/** Voids a commission (or a clawback) that is not paid and not in a payout batch. */
export async function voidCommission(ctx: AdminContext, id: string, reason: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const c = await lockCommission(trx, id);
    if (!c) throw new AppError('NOT_FOUND', 'Unknown commission');
    return ledger.voidEntry(trx, ctx, c, reason);
  });
}
