import type { Payout } from '@dn/db';
import { assignToPayout, lockPayableEntries, markPayoutEntriesPaid, payoutLines } from '@dn/db/queries/commissions';
import {
  findPayout,
  insertPayout,
  listPayouts as listPayoutRows,
  lockPayout,
  markPayoutPaid as markPaidRow,
} from '@dn/db/queries/payouts';
import { displayMoney, formatCents, parseCents } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { csvLine } from '../../lib/csv';
import { audit } from '../audit/audit';
import { enqueueMail } from '../mail/outbox';
import { payoutSentEmail } from '../mail/templates';

/** Payout batches: approved entries of recruiters at or above a minimum, exported, then marked paid. */

type AdminContext = Context & { user: User };

export function publicPayout(p: Payout) {
  return {
    id: p.id,
    status: p.status,
    minimum: p.minimum,
    total: p.total,
    recruiterCount: p.recruiterCount,
    commissionCount: p.commissionCount,
    reference: p.reference,
    createdBy: p.createdBy,
    createdAt: p.createdAt.toISOString(),
    paidBy: p.paidBy,
    paidAt: p.paidAt?.toISOString() ?? null,
  };
}

/**
 * Puts every approved entry not yet batched (commissions and clawbacks) of each recruiter whose
 * net is at least `minimum` into one new batch. The entries are locked, so two admins creating
 * batches at once never put a commission in both.
 */
export async function createPayout(ctx: AdminContext, minimum: string) {
  const min = parseCents(minimum) ?? 0n;
  const batch = await ctx.db.transaction().execute(async (trx) => {
    const entries = await lockPayableEntries(trx);
    const net = new Map<string, { cents: bigint; ids: string[] }>();
    for (const e of entries) {
      const k = e.recruiterDealerId!;
      const g = net.get(k) ?? { cents: 0n, ids: [] };
      g.cents += parseCents(e.amount ?? '0') ?? 0n;
      g.ids.push(e.id);
      net.set(k, g);
    }
    const chosen = [...net.values()].filter((g) => g.cents > 0n && g.cents >= min);
    if (chosen.length === 0) {
      throw new AppError(
        'CONFLICT',
        `No recruiter has approved commissions of at least ${displayMoney(formatCents(min))}`,
      );
    }
    const ids = chosen.flatMap((g) => g.ids);
    const total = chosen.reduce((s, g) => s + g.cents, 0n);
    const payout = await insertPayout(trx, {
      minimum: formatCents(min),
      total: formatCents(total),
      recruiterCount: chosen.length,
      commissionCount: ids.length,
      createdBy: ctx.user.username,
    });
    const assigned = await assignToPayout(trx, ids, payout.id);
    if (assigned !== ids.length) throw new AppError('CONFLICT', 'Commissions changed meanwhile; try again');
    await audit(trx, ctx, {
      eventType: 'payout.created',
      category: 'admin',
      message: `${ctx.user.username} created a payout batch of ${displayMoney(payout.total)} for ${chosen.length} recruiters`,
      details: { payoutId: payout.id, total: payout.total, minimum: payout.minimum, entries: ids.length },
    });
    return payout;
  });
  return publicPayout(batch);
}

export async function listPayouts(ctx: Context) {
  return (await listPayoutRows(ctx.db)).map(publicPayout);
}

/** The batch as CSV: recruiter, email, amount, commission count, batch id. */
export async function exportPayoutCsv(ctx: Context, id: string) {
  const payout = await findPayout(ctx.db, id);
  if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
  const lines = await payoutLines(ctx.db, id);
  const body = [
    csvLine(['Recruiter', 'Recruiter ID', 'Email', 'Amount', 'Commission count', 'Batch ID']),
    ...lines.map((l) =>
      csvLine([l.recruiterName, l.recruiterId, l.recruiterEmail, l.amount, Number(l.commissionCount), id]),
    ),
  ].join('');
  return { fileName: `payout-${payout.createdAt.toISOString().slice(0, 10)}-${id.slice(0, 8)}.csv`, body };
}

/** Marks a batch paid with the payment reference; every entry in it becomes paid and each recruiter is emailed. */
export async function markPayoutPaid(ctx: AdminContext, id: string, reference: string) {
  const paid = await ctx.db.transaction().execute(async (trx) => {
    const payout = await lockPayout(trx, id);
    if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
    if (payout.status === 'paid')
      throw new AppError('CONFLICT', `This batch was already marked paid (${payout.reference})`);
    const now = new Date();
    const row = await markPaidRow(trx, id, reference, ctx.user.username, now);
    await markPayoutEntriesPaid(trx, id, now);
    for (const l of await payoutLines(trx, id)) {
      await enqueueMail(
        trx,
        payoutSentEmail(
          { id: l.recruiterDealerId!, fullName: l.recruiterName, email: l.recruiterEmail },
          { amount: l.amount, commissionCount: Number(l.commissionCount), reference },
          { publicUrl: ctx.config.publicUrl },
        ),
      );
    }
    await audit(trx, ctx, {
      eventType: 'payout.paid',
      category: 'admin',
      message: `${ctx.user.username} marked payout ${id} paid (${reference})`,
      details: { payoutId: id, reference, before: { status: 'created' }, after: { status: 'paid' } },
    });
    return row;
  });
  ctx.mail.kick();
  return publicPayout(paid);
}
