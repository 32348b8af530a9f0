import {
  approvePending,
  ledgerStates,
  ledgerTotals,
  listLedger,
  lockCommission,
  voidLedgerEntry,
} from '@dn/db/queries/commissions';
import { COMMISSIONS_PAGE_SIZE, type CommissionListQuery } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';

/** The admin's side of the ledger: list, approve after the hold, void with a reason. */

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
  const unique = [...new Set(ids)];
  return ctx.db.transaction().execute(async (trx) => {
    const now = new Date();
    const approved = await approvePending(trx, unique, ctx.user.username, now);
    const done = new Set(approved.map((a) => a.id));
    const rest = unique.filter((id) => !done.has(id));
    const states = rest.length ? await ledgerStates(trx, rest) : [];
    const skipped = rest.map((id) => {
      const s = states.find((x) => x.id === id);
      const reason = !s
        ? 'Unknown commission'
        : s.status !== 'pending' || s.kind !== 'commission'
          ? `Already ${s.status}`
          : `On hold until ${s.holdUntil?.toISOString().slice(0, 10)}`;
      return { id, reason };
    });
    for (const a of approved) {
      await audit(trx, ctx, {
        eventType: 'commission.approved',
        category: 'admin',
        message: `${ctx.user.username} approved a commission of ${a.amount}`,
        dealerId: a.referredDealerId,
        details: {
          commissionId: a.id,
          recruiterDealerId: a.recruiterDealerId,
          before: { status: 'pending' },
          after: { status: 'approved' },
        },
      });
    }
    return { approved: [...done], skipped };
  });
}

/** Voids a commission (or a clawback) that is not paid and not in a payout batch. */
export async function voidCommission(ctx: AdminContext, id: string, reason: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const c = await lockCommission(trx, id);
    if (!c) throw new AppError('NOT_FOUND', 'Unknown commission');
    if (c.status === 'voided' || c.status === 'cancelled')
      throw new AppError('CONFLICT', 'This commission is already voided');
    if (c.status === 'paid') {
      throw new AppError('CONFLICT', 'A paid commission cannot be voided; refund the order to claw it back');
    }
    if (c.payoutId) throw new AppError('CONFLICT', 'This commission is in a payout batch and cannot be voided');
    await voidLedgerEntry(trx, c.id, reason);
    await audit(trx, ctx, {
      eventType: 'commission.voided',
      category: 'admin',
      message: `${ctx.user.username} voided a ${c.kind} of ${c.amount}: ${reason}`,
      dealerId: c.referredDealerId,
      recruiterId: c.recruiterId,
      details: { commissionId: c.id, reason, before: { status: c.status }, after: { status: 'voided' } },
    });
    return { id: c.id, status: 'voided' as const, reason };
  });
}
