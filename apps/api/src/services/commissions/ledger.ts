import type { DB, Kysely, Order } from '@dn/db';
import {
  approvePending,
  findOrderCommission,
  insertLedgerEntryOnce,
  ledgerStates,
  type NewLedgerEntry,
  orderRecorders,
  voidLedgerEntry,
} from '@dn/db/queries/commissions';
import {
  assignToPayout,
  lockPayableEntries,
  markPayeeEntriesPaid,
  markPayoutEntriesPaid,
  payeePaidStates,
  recruiterNets,
  returnPayoutEntries,
} from '@dn/db/queries/net-payable';
import { decidingOrderEvent } from '@dn/db/queries/orders';
import { insertPayoutReturn, markProfileReturned } from '@dn/db/queries/payees';
import { insertPayout, lockPayout, markPayoutPaid, settlePayout } from '@dn/db/queries/payouts';
import { holdPendingCommissions, moveJobCommission, releaseHeldCommissions } from '@dn/db/queries/referral-flags';
import { displayMoney, formatCents, parseCents, plural } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { enqueueMail } from '../mail/outbox';
import { commissionEarnedEmail, paymentReturnedEmail, payoutSentEmail } from '../mail/templates';
import { payability } from '../payees/profile';
import { inGoodStanding } from './standing';

/**
 * The commission ledger's one owner (issue 34): every transition of an entry is here, run in the
 * caller's transaction with its audit row (and email). Other services decide whether and how much
 * (earn.ts: the rules; review.ts, payouts.ts: the admin's requests) and call these.
 *
 *   earn       a new commission, pending and on hold for the rule's holding days from when the
 *              order was recorded (or its date, if later); `held` instead when its referral is
 *              flagged (decision 0895: never payable)
 *   release    held -> pending when an owner clears the flag, held -> voided when they void it;
 *              a job's order (issue 45) earns `held` until its homeowner confirms the installation
 *              or an owner releases it (installationAnswered, releaseJobCommission)
 *   approve    pending, hold over -> approved; on an order the approver recorded, an owner only
 *   void       pending or approved, in no batch -> voided (an order cancelled, or an admin; a
 *              clawback, an owner only)
 *   claw back  an approved or paid commission of a reversed order -> + a negative clawback, approved
 *   hold       pending -> held when a referral is flagged after its commissions were earned
 *              (issue 39: a shared TIN or bank account found later)
 *   batch      payable (approved, in no batch: `ledger_payable`) -> in a payout batch, for recruiters
 *              in good standing whose payout details and W-9 are complete (issue 39)
 *   pay        in a batch -> paid: the whole batch, or one payee of it (the batch is paid once every
 *              payee is; decision 0965)
 *   return     in a batch (paid or not) -> approved, in no batch: the bank returned the payment (issue 39)
 *
 * What a recruiter is owed is one SQL definition, read from packages/db (queries/net-payable.ts).
 * docs/decisions/0860-one-ledger-module.md.
 */

type Trx = Kysely<DB>;
type AdminContext = Context & { user: User };
type Entry = NonNullable<Awaited<ReturnType<typeof findOrderCommission>>>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The end of a new commission's holding period (the refund window), an instant: it cannot be
 * approved before. It runs from when the order was recorded: a backdated order waits the whole hold
 * like any other (issue 35, finding 4, decision 0891). An order date later than its recording (the
 * day of slack allowed for clocks and time zones, or a date picked as "noon UTC") does not push it:
 * a rule of 0 days is approvable the moment its order is recorded (issue 47, item 5, decision 1071).
 */
export const holdUntil = (order: Pick<Order, 'createdAt' | 'orderedAt'>, holdDays: number) =>
  new Date(order.createdAt.getTime() + holdDays * DAY_MS);

/** Why a pending commission was not approved: its hold's end, to the minute, in UTC (clients show `holdUntil` in their reader's zone). */
const onHoldUntil = (at: Date) => `On hold until ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The two-person rule's words (issue 35, finding 4): what a reviewer's 403 says. */
const OWNER_ONLY = {
  approveOwn: (orders: string[]) =>
    `You recorded order ${orders.join(', ')}: a commission on an order you recorded yourself is approved by another admin or an owner (two-person rule)`,
  voidClawback: 'Voiding a clawback needs an owner (two-person rule): ask an owner to void it',
};
const isOwner = (ctx: Context) => ctx.user?.role === 'admin' && ctx.user.adminRole === 'owner';

export interface Earning {
  recruiter: { id: string; recruiterId: string | null; fullName: string; email: string };
  referred: { id: string; fullName: string; email: string };
  order: Order;
  rule: { id: string; type: string; version: number; holdDays: number };
  amount: string;
  /** The flag's reason when the referral is flagged (issue 35, finding 6): the entry is `held`. */
  held?: string | null;
  /**
   * A job's order (issue 45): what releases the held entry besides its referral's flag, the
   * homeowner's confirmation ('installation') or an owner only ('owner': self-dealing).
   */
  releaseNeeds?: 'installation' | 'owner' | null;
}

/** Earns a pending commission on an order (at most one per order) and tells the recruiter. */
export async function earn(trx: Trx, ctx: Context, e: Earning) {
  const { recruiter, referred, order, rule, amount, held } = e;
  const releaseNeeds = held ? (e.releaseNeeds ?? null) : null;
  const entry = await insertLedgerEntryOnce(trx, {
    kind: 'commission',
    recruiterId: recruiter.recruiterId ?? recruiter.id,
    recruiterDealerId: recruiter.id,
    referredDealerId: referred.id,
    commissionType: rule.type,
    amount,
    status: held ? 'held' : 'pending',
    releaseNeeds,
    orderId: order.externalOrderId,
    orderRef: order.id,
    ruleId: rule.id,
    orderAmount: order.amount,
    orderedAt: order.orderedAt,
    holdUntil: holdUntil(order, rule.holdDays),
  });
  if (!entry) return null;
  await enqueueMail(
    trx,
    commissionEarnedEmail(
      recruiter,
      { amount, referredName: referred.fullName, orderedAt: order.orderedAt },
      { publicUrl: ctx.config.publicUrl },
    ),
  );
  await audit(trx, ctx, {
    eventType: 'commission.earned',
    category: 'affiliate',
    message: `${recruiter.fullName} earned ${displayMoney(amount)} on order ${order.externalOrderId} of ${referred.email}${held ? ` (held: ${held})` : ''}`,
    dealerId: referred.id,
    recruiterId: recruiter.recruiterId,
    details: {
      commissionId: entry.id,
      orderId: order.id,
      ruleId: rule.id,
      ruleVersion: rule.version,
      amount,
      ...(held ? { held } : {}),
      ...(releaseNeeds ? { releaseNeeds } : {}),
    },
  });
  return entry;
}

/**
 * A job's held commission (issue 45) once its homeowner answered: confirmed -> it waits for nothing
 * but its referral's flag (pending when there is none); disputed -> it waits for an owner. Only an
 * entry still waiting for the homeowner moves. The entries moved.
 */
export function installationAnswered(trx: Trx, orderRef: string, confirmed: boolean) {
  return moveJobCommission(trx, orderRef, ['installation'], confirmed ? null : 'owner');
}

/**
 * An owner releases a job's held commission (issue 45): it waits for nothing but its referral's
 * flag (pending when there is none, else still held until the owner decides the flag in Risk).
 */
export function releaseJobCommission(trx: Trx, orderRef: string) {
  return moveJobCommission(trx, orderRef, ['installation', 'owner'], null);
}

/** The commission entry of an order (a job's), locked. */
export function jobCommission(trx: Trx, orderRef: string) {
  return findOrderCommission(trx, orderRef);
}

/** Approves the pending commissions among `ids` whose hold is over; the others come back with why. */
export async function approve(trx: Trx, ctx: AdminContext, ids: readonly string[]) {
  const recorders = new Map((await orderRecorders(trx, ids)).map((r) => [r.id, r]));
  if (!isOwner(ctx)) {
    const own = [...recorders.values()].filter((r) => r.recordedBy === ctx.user.username);
    if (own.length) throw new AppError('FORBIDDEN', OWNER_ONLY.approveOwn(own.map((r) => r.orderId ?? r.id)));
  }
  // Instants against an instant (the app's clock, as every other deadline): never a date in one zone against another.
  const approved = await approvePending(trx, ids, ctx.user.username, ctx.clock.now());
  const done = new Set(approved.map((a) => a.id));
  const rest = ids.filter((id) => !done.has(id));
  const states = rest.length ? await ledgerStates(trx, rest) : [];
  const skipped = rest.map((id) => {
    const s = states.find((x) => x.id === id);
    const onHold = s?.status === 'pending' && s.kind === 'commission' && s.holdUntil ? s.holdUntil : null;
    const reason = !s
      ? 'Unknown commission'
      : s.status !== 'pending' || s.kind !== 'commission'
        ? `Already ${s.status}`
        : onHold
          ? onHoldUntil(onHold)
          : 'On hold';
    return { id, reason, holdUntil: onHold ? onHold.toISOString() : null };
  });
  for (const a of approved) {
    const r = recorders.get(a.id);
    const recordedBy = r?.recordedBy ?? null;
    await audit(trx, ctx, {
      eventType: 'commission.approved',
      category: 'admin',
      message: `${ctx.user.username} approved a commission of ${a.amount === null ? 'an unknown amount' : displayMoney(a.amount)}${r ? ` on order ${r.orderId} recorded by ${recordedBy ?? 'unknown'}` : ''}`,
      dealerId: a.referredDealerId,
      details: {
        commissionId: a.id,
        recruiterDealerId: a.recruiterDealerId,
        approvedBy: ctx.user.username,
        recordedBy,
        before: { status: 'pending' },
        after: { status: 'approved' },
      },
    });
  }
  return { approved: [...done], skipped };
}

/**
 * The held commissions of a flagged referral once an owner decided (decision 0895): cleared ->
 * pending (the hold and approval follow), voided -> voided with the flag's reason. The caller
 * audits the decision with the entries moved.
 */
export function release(trx: Trx, referredDealerId: string, decision: 'cleared' | 'voided', reason: string) {
  return releaseHeldCommissions(
    trx,
    referredDealerId,
    decision === 'cleared' ? { status: 'pending' } : { status: 'voided', reason: `Referral voided: ${reason}` },
  );
}

/** The pending commissions of a referral flagged after they were earned are held (issue 39). */
export function hold(trx: Trx, referredDealerId: string) {
  return holdPendingCommissions(trx, referredDealerId);
}

/** Voids an entry (locked by the caller) that is not paid and in no batch; anything else is a CONFLICT. */
export async function voidEntry(trx: Trx, ctx: Context, c: Entry, reason: string) {
  if (c.status === 'voided' || c.status === 'cancelled')
    throw new AppError('CONFLICT', 'This commission is already voided');
  if (c.status === 'paid') {
    throw new AppError('CONFLICT', 'A paid commission cannot be voided; refund the order to claw it back');
  }
  if (c.payoutId) throw new AppError('CONFLICT', 'This commission is in a payout batch and cannot be voided');
  if (c.kind === 'clawback' && !isOwner(ctx)) throw new AppError('FORBIDDEN', OWNER_ONLY.voidClawback);
  await voidLedgerEntry(trx, c.id, reason);
  const by = ctx.user?.role === 'admin' ? ctx.user.username : null;
  // Who reversed the order the clawback came from: the second name of the two-person rule.
  const refundedBy =
    c.kind === 'clawback' && c.orderRef ? ((await decidingOrderEvent(trx, c.orderRef)).recordedBy ?? null) : undefined;
  await audit(trx, ctx, {
    eventType: 'commission.voided',
    category: by ? 'admin' : 'affiliate',
    message: `${c.kind === 'clawback' ? 'Clawback' : 'Commission'} of ${c.amount === null ? 'an unknown amount' : displayMoney(c.amount)} on order ${c.orderId ?? '-'} voided${by ? ` by ${by}` : ''}: ${reason}`,
    dealerId: c.referredDealerId,
    recruiterId: c.recruiterId,
    details: {
      commissionId: c.id,
      reason,
      voidedBy: by,
      ...(refundedBy === undefined ? {} : { refundedBy }),
      before: { status: c.status },
      after: { status: 'voided' },
    },
  });
  return { id: c.id, status: 'voided' as const, reason };
}

/** Takes back an approved or paid commission of a reversed order: a clawback of the opposite amount. */
async function clawBack(trx: Trx, ctx: Context, c: Entry, order: Order, reason: string) {
  const amount = c.amount === null ? '0.00' : formatCents(-(parseCents(c.amount) ?? 0n));
  const claw: NewLedgerEntry = {
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
  };
  const entry = await insertLedgerEntryOnce(trx, claw);
  if (!entry) return null;
  await audit(trx, ctx, {
    eventType: 'commission.clawed_back',
    category: 'affiliate',
    message: `Clawback of ${displayMoney(amount)} on order ${order.externalOrderId} (${reason.toLowerCase()})`,
    dealerId: c.referredDealerId,
    recruiterId: c.recruiterId,
    details: { commissionId: c.id, clawbackId: entry.id, amount, reason },
  });
  return { clawback: entry.id };
}

/**
 * A cancelled or refunded order: its pending commission is voided; one already approved or paid
 * stays as it is and gets a clawback, settled in the next payout.
 */
export async function reverse(trx: Trx, ctx: Context, order: Order, status: 'cancelled' | 'refunded') {
  const c = await findOrderCommission(trx, order.id);
  if (!c || c.status === 'voided' || c.status === 'cancelled') return null;
  const reason = `Order ${status}`;
  if (c.status === 'pending' || c.status === 'held') return { voided: (await voidEntry(trx, ctx, c, reason)).id };
  return clawBack(trx, ctx, c, order, reason);
}

/**
 * A new payout batch of every payable entry of each recruiter in good standing whose net payable
 * is positive and at least `minimum`; the others at that minimum are left out and listed as `held`
 * with the reason (issue 35, finding 5). The entries are locked first, so a batch made at the same
 * time waits and never takes one of them; the batch's lines are then checked to be the nets it was
 * made from.
 */
export async function batch(trx: Trx, ctx: AdminContext, minimum: string) {
  const locked = await lockPayableEntries(trx);
  const due = await recruiterNets(trx, 'payable', minimum);
  // Issue 39: paid only with complete payout details and a signed W-9.
  const { reasons, waiting } = await payability(
    trx,
    due.map((n) => n.recruiterDealerId),
    ctx.clock.now(),
  );
  const whyHeld = (n: (typeof due)[number]) =>
    !inGoodStanding(n.recruiterStatus)
      ? `Recruiter is ${n.recruiterStatus}`
      : (reasons.get(n.recruiterDealerId) ?? null);
  const nets = due.filter((n) => whyHeld(n) === null);
  const held = due
    .filter((n) => whyHeld(n) !== null)
    .map((n) => ({
      recruiterId: n.recruiterDealerId,
      recruiterDealerId: n.recruiterDealerId,
      recruiterName: n.recruiterName,
      recruiterEmail: n.recruiterEmail,
      amount: n.amount,
      reason: whyHeld(n) as string,
      /** whether completing their payout details would pay them (they are emailed once) */
      needsDetails: inGoodStanding(n.recruiterStatus) && !waiting.has(n.recruiterDealerId),
    }));
  if (nets.length === 0) {
    const also = held.length
      ? ` in good standing with complete payout details (${held.length} held: not approved or active, or details missing)`
      : '';
    throw new AppError('CONFLICT', `No recruiter${also} has approved commissions of at least ${displayMoney(minimum)}`);
  }
  const chosen = new Set(nets.map((n) => n.recruiterDealerId));
  const ids = locked.filter((e) => e.recruiterDealerId && chosen.has(e.recruiterDealerId)).map((e) => e.id);
  const draft = await insertPayout(trx, {
    minimum,
    total: '0.00',
    recruiterCount: 0,
    commissionCount: 0,
    createdBy: ctx.user.username,
    heldJson: JSON.stringify(
      held.map((h) => ({
        recruiterId: h.recruiterId,
        recruiterName: h.recruiterName,
        amount: h.amount,
        reason: h.reason,
      })),
    ),
  });
  await assignToPayout(trx, ids, draft.id);
  const lines = await recruiterNets(trx, { payoutId: draft.id });
  const same = (a: typeof nets) => a.map((n) => `${n.recruiterDealerId}:${n.amount}:${n.entryCount}`).join();
  if (same(lines) !== same(nets)) throw new AppError('CONFLICT', 'Commissions changed meanwhile; try again');
  const payout = await settlePayout(trx, draft.id);
  await audit(trx, ctx, {
    eventType: 'payout.created',
    category: 'admin',
    message: `${ctx.user.username} created a payout batch of ${displayMoney(payout.total)} for ${plural(payout.recruiterCount, 'recruiter')}`,
    details: {
      payoutId: payout.id,
      total: payout.total,
      minimum: payout.minimum,
      entries: payout.commissionCount,
      ...(held.length ? { held: held.map(({ recruiterEmail: _e, ...h }) => h) } : {}),
    },
  });
  return { payout, held };
}

/** A payee's "payout sent" email: their line of the batch and the payment reference. */
function emailPaid(trx: Trx, ctx: Context, l: Awaited<ReturnType<typeof recruiterNets>>[number], reference: string) {
  return enqueueMail(
    trx,
    payoutSentEmail(
      { id: l.recruiterDealerId, fullName: l.recruiterName, email: l.recruiterEmail },
      { amount: l.amount, commissionCount: l.commissionCount, reference },
      { publicUrl: ctx.config.publicUrl },
    ),
  );
}

/** Marks a batch paid with the payment reference: its entries become paid, each recruiter is emailed their line. */
export async function pay(trx: Trx, ctx: AdminContext, id: string, reference: string) {
  const payout = await lockPayout(trx, id);
  if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
  if (payout.status === 'paid')
    throw new AppError('CONFLICT', `This batch was already marked paid (${payout.reference})`);
  const now = new Date();
  // Payees already marked paid alone (decision 0965) were emailed then: not again.
  const states = await payeePaidStates(trx, id);
  const row = await markPayoutPaid(trx, id, reference, ctx.user.username, now);
  await markPayoutEntriesPaid(trx, id, now);
  for (const l of await recruiterNets(trx, { payoutId: id })) {
    if (!states.get(l.recruiterDealerId)?.paid) await emailPaid(trx, ctx, l, reference);
  }
  await audit(trx, ctx, {
    eventType: 'payout.paid',
    category: 'admin',
    message: `${ctx.user.username} marked payout ${id} paid (${reference})`,
    details: { payoutId: id, reference, before: { status: 'created' }, after: { status: 'paid' } },
  });
  return row;
}

/**
 * Marks one payee of a batch paid as of today (issue 39, decision 0965): their entries in it become
 * paid and they are emailed their line; the batch is paid when every payee is. The batch row is
 * locked first, so a second request (at once or later) finds nothing left to pay: no email, no
 * audit row, `changed: false`.
 */
export async function payPayee(
  trx: Trx,
  ctx: AdminContext,
  p: { payoutId: string; recruiterDealerId: string; reference: string | null },
) {
  const payout = await lockPayout(trx, p.payoutId);
  if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
  const lines = await recruiterNets(trx, { payoutId: p.payoutId });
  const line = lines.find((l) => l.recruiterDealerId === p.recruiterDealerId);
  if (!line) throw new AppError('NOT_FOUND', 'This recruiter has no payment in this batch');
  const now = ctx.clock.now();
  const reference = p.reference ?? `Payout ${p.payoutId.slice(0, 8)}`;
  const moved = await markPayeeEntriesPaid(trx, p.payoutId, p.recruiterDealerId, now);
  let batch = payout;
  if (moved.length > 0) {
    await emailPaid(trx, ctx, line, reference);
    await audit(trx, ctx, {
      eventType: 'payout.payee_paid',
      category: 'admin',
      message: `${ctx.user.username} marked the payment of ${displayMoney(line.amount)} to ${line.recruiterName} in payout ${p.payoutId} paid (${reference})`,
      dealerId: p.recruiterDealerId,
      details: {
        payoutId: p.payoutId,
        reference,
        amount: line.amount,
        commissionIds: moved.map((m) => m.id),
        before: { status: 'approved' },
        after: { status: 'paid' },
      },
    });
    const states = await payeePaidStates(trx, p.payoutId);
    if (payout.status !== 'paid' && [...states.values()].every((s) => s.paid)) {
      batch = await markPayoutPaid(trx, p.payoutId, reference, ctx.user.username, now);
      await audit(trx, ctx, {
        eventType: 'payout.paid',
        category: 'admin',
        message: `${ctx.user.username} marked payout ${p.payoutId} paid: every payee in it is paid`,
        details: { payoutId: p.payoutId, reference, before: { status: 'created' }, after: { status: 'paid' } },
      });
    }
  }
  const state = (await payeePaidStates(trx, p.payoutId)).get(p.recruiterDealerId);
  return {
    payoutId: p.payoutId,
    recruiterId: p.recruiterDealerId,
    amount: line.amount,
    paid: state?.paid ?? false,
    paidAt: state?.paidAt ? new Date(state.paidAt).toISOString() : null,
    changed: moved.length > 0,
    batchStatus: batch.status,
  };
}

/**
 * A payment the bank returned (issue 39): the recruiter's entries leave the batch and are approved
 * again (payable in a later batch), their payout details are marked to fix (the next batch holds
 * them until they save them again), and they are emailed.
 */
export async function returnPayment(
  trx: Trx,
  ctx: AdminContext,
  r: { payoutId: string; recruiterDealerId: string; returnCode: string; note: string | null },
) {
  const payout = await lockPayout(trx, r.payoutId);
  if (!payout) throw new AppError('NOT_FOUND', 'Unknown payout batch');
  const line = (await recruiterNets(trx, { payoutId: r.payoutId })).find(
    (l) => l.recruiterDealerId === r.recruiterDealerId,
  );
  if (!line) throw new AppError('NOT_FOUND', 'This recruiter has no payment in this batch');
  const now = ctx.clock.now();
  const row = await insertPayoutReturn(trx, {
    payoutId: r.payoutId,
    recruiterDealerId: r.recruiterDealerId,
    returnCode: r.returnCode,
    note: r.note,
    amount: line.amount,
    createdBy: ctx.user.username,
  });
  if (!row) throw new AppError('CONFLICT', 'This payment was already marked returned');
  const moved = await returnPayoutEntries(trx, r.payoutId, r.recruiterDealerId, now);
  await markProfileReturned(trx, r.recruiterDealerId, r.returnCode, now);
  await enqueueMail(
    trx,
    paymentReturnedEmail(
      { id: line.recruiterDealerId, fullName: line.recruiterName, email: line.recruiterEmail },
      { amount: line.amount, returnCode: r.returnCode },
      { publicUrl: ctx.config.publicUrl },
    ),
  );
  await audit(trx, ctx, {
    eventType: 'payout.returned',
    category: 'admin',
    message: `${ctx.user.username} marked the payment of ${displayMoney(line.amount)} to ${line.recruiterName} in payout ${r.payoutId} returned (${r.returnCode})`,
    dealerId: r.recruiterDealerId,
    details: {
      payoutId: r.payoutId,
      returnCode: r.returnCode,
      note: r.note,
      amount: line.amount,
      commissionIds: moved.map((m) => m.id),
      before: { status: payout.status === 'paid' ? 'paid' : 'approved', payoutId: r.payoutId },
      after: { status: 'approved', payoutId: null },
    },
  });
  return {
    id: row.id,
    payoutId: row.payoutId,
    recruiterId: row.recruiterDealerId,
    returnCode: row.returnCode,
    note: row.note,
    amount: line.amount,
    commissions: moved.length,
    createdAt: row.createdAt.toISOString(),
  };
}
