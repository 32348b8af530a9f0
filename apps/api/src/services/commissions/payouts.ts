import type { Payout } from '@dn/db';
import { payeePaidStates, recruiterNets } from '@dn/db/queries/net-payable';
import { remindOnce } from '@dn/db/queries/payees';
import { findPayout, listPayouts as listPayoutRows, snapshotPayoutPayees } from '@dn/db/queries/payouts';
import { formatCents, parseCents } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { csvLine } from '../../lib/csv';
import { enqueueMail } from '../mail/outbox';
import { payoutDetailsNeededEmail } from '../mail/templates';
import { payability } from '../payees/profile';
import * as ledger from './ledger';

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
    /** who the batch left out and why (issue 39) */
    held: JSON.parse(p.heldJson) as { recruiterId: string; recruiterName: string; amount: string; reason: string }[],
  };
}

/**
 * A new batch of the payable entries (commissions and clawbacks) of each recruiter in good standing
 * whose net payable is positive and at least `minimum` (ledger.ts batch); `held` lists the
 * recruiters left out, with the reason (issue 35, finding 5).
 */
export async function createPayout(ctx: AdminContext, minimum: string) {
  const min = formatCents(parseCents(minimum) ?? 0n);
  const { payout, held } = await ctx.db.transaction().execute(async (trx) => {
    const made = await ledger.batch(trx, ctx, min);
    // Issue 45 (decision 1020): each payee's method and account as they are now, kept with the batch:
    // its ACH file and check register read these, whatever the details say later. Details changed
    // since the batch chose its payees (a new account in its 3 days) make it start again.
    const kept = await snapshotPayoutPayees(trx, made.payout.id);
    const { reasons } = await payability(
      trx,
      kept.map((k) => k.recruiterDealerId),
      ctx.clock.now(),
    );
    if (reasons.size > 0 || kept.length !== made.payout.recruiterCount) {
      throw new AppError('CONFLICT', 'Payout details changed meanwhile; try again');
    }
    // Issue 39: a recruiter held for missing payout details is asked once to complete them.
    const needs = made.held.filter((h) => h.needsDetails);
    const first = await remindOnce(
      trx,
      needs.map((h) => h.recruiterDealerId),
      ctx.clock.now(),
    );
    for (const h of needs.filter((x) => first.has(x.recruiterDealerId))) {
      await enqueueMail(
        trx,
        payoutDetailsNeededEmail(
          { id: h.recruiterDealerId, fullName: h.recruiterName, email: h.recruiterEmail },
          { amount: h.amount, reason: h.reason },
          { publicUrl: ctx.config.publicUrl },
        ),
      );
    }
    return made;
  });
  if (held.length) ctx.mail.kick();
  return {
    ...publicPayout(payout),
    held: held.map(({ recruiterEmail: _email, needsDetails: _needs, ...h }) => h),
  };
}

export async function listPayouts(ctx: Context) {
  return (await listPayoutRows(ctx.db)).map(publicPayout);
}

/** The batch as CSV: one line per recruiter (their net in the batch), with the commission count and batch id. */
export async function exportPayoutCsv(ctx: Context, id: string) {
  const payout = await findPayout(ctx.db, id);
  if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
  const lines = await recruiterNets(ctx.db, { payoutId: id });
  const body = [
    csvLine(['Recruiter', 'Recruiter ID', 'Email', 'Amount', 'Commission count', 'Batch ID']),
    ...lines.map((l) => csvLine([l.recruiterName, l.recruiterId, l.recruiterEmail, l.amount, l.commissionCount, id])),
  ].join('');
  return { fileName: `payout-${payout.createdAt.toISOString().slice(0, 10)}-${id.slice(0, 8)}.csv`, body };
}

/** Marks a batch paid with the payment reference; every entry in it becomes paid and each recruiter is emailed. */
export async function markPayoutPaid(ctx: AdminContext, id: string, reference: string) {
  const paid = await ctx.db.transaction().execute((trx) => ledger.pay(trx, ctx, id, reference));
  ctx.mail.kick();
  return publicPayout(paid);
}

/** One payee of a batch marked paid as of today (decision 0965): emailed once, the batch paid when all are. */
export async function markPayeePaid(
  ctx: AdminContext,
  input: { id: string; recruiterId: string; reference?: string | undefined },
) {
  const done = await ctx.db.transaction().execute((trx) =>
    ledger.payPayee(trx, ctx, {
      payoutId: input.id,
      recruiterDealerId: input.recruiterId,
      reference: input.reference ?? null,
    }),
  );
  if (done.changed) ctx.mail.kick();
  const { changed: _changed, ...rest } = done;
  return rest;
}

/** The payees of a batch: their line and whether they are paid (the console marks each paid). */
export async function listPayoutPayees(ctx: Context, id: string) {
  const payout = await findPayout(ctx.db, id);
  if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
  const [lines, states] = await Promise.all([recruiterNets(ctx.db, { payoutId: id }), payeePaidStates(ctx.db, id)]);
  return lines.map((l) => {
    const s = states.get(l.recruiterDealerId);
    return {
      recruiterId: l.recruiterDealerId,
      recruiterName: l.recruiterName,
      amount: l.amount,
      commissionCount: l.commissionCount,
      paid: s?.paid ?? false,
      paidAt: s?.paid && s.paidAt ? new Date(s.paidAt).toISOString() : null,
    };
  });
}
