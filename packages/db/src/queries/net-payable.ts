import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * Net payable per recruiter (issue 34), defined once: the sum of the entries (commissions and
 * clawbacks) that `ledger_payable(status, payout_id)` picks (migration 0860: approved, in no batch
 * yet), per recruiter. A payout batch takes exactly those entries of each recruiter whose net is
 * positive and at least the minimum; its lines (the CSV, the "payout sent" email) are the same sum
 * over the batch's entries, so a batch line is the net payable its recruiter had when it was made.
 * The polled dashboards read the kept totals, keyed by the same function (queries/commissions.ts
 * `payable`). docs/decisions/0860-one-ledger-module.md.
 */

/** An entry the next batch settles (the one definition, migration 0860), for a query on `commissions as c`. */
const payable = sql<boolean>`ledger_payable(c.status, c.payout_id)`;

/** Which entries a net sums: the payable ones, or one batch's. */
export type NetScope = 'payable' | { payoutId: string };

export interface RecruiterNet {
  recruiterDealerId: string;
  recruiterId: string;
  recruiterName: string;
  recruiterEmail: string;
  /** the recruiter's dealer status: a batch pays only those in good standing (issue 35, finding 5) */
  recruiterStatus: string;
  /** exact text with two decimals, negative when clawbacks outweigh */
  amount: string;
  /** commissions and clawbacks */
  entryCount: number;
  commissionCount: number;
}

/**
 * The net of each recruiter over the scope, by name. `atLeast`: only nets that are positive and
 * at least that amount (a payout batch's rule).
 */
export async function recruiterNets(db: Executor, scope: NetScope, atLeast?: string): Promise<RecruiterNet[]> {
  const net = sql<string>`sum(c.amount)`;
  // Summed per recruiter first, then named: grouping by the names too took twice as long (decision 0860).
  const nets = db
    .selectFrom('commissions as c')
    .where((eb) => (scope === 'payable' ? payable : eb('c.payoutId', '=', scope.payoutId)))
    .where('c.recruiterDealerId', 'is not', null)
    .select([
      'c.recruiterDealerId',
      sql<string>`max(c.recruiter_id)`.as('recruiterId'),
      sql<string>`${net}::numeric(14, 2)::text`.as('amount'),
      sql<string>`count(*)`.as('entryCount'),
      sql<string>`count(*) filter (where c.kind = 'commission')`.as('commissionCount'),
    ])
    .groupBy('c.recruiterDealerId')
    .$if(atLeast !== undefined, (q) => q.having(sql<boolean>`${net} > 0 and ${net} >= ${atLeast}::numeric`));
  const rows = await db
    .selectFrom(nets.as('n'))
    .innerJoin('dealers as r', 'r.id', 'n.recruiterDealerId')
    .select([
      'r.id as recruiterDealerId',
      'r.fullName as recruiterName',
      'r.email as recruiterEmail',
      'r.status as recruiterStatus',
      'n.recruiterId',
      'n.amount',
      'n.entryCount',
      'n.commissionCount',
    ])
    .orderBy('r.fullName')
    .orderBy('r.id')
    .execute();
  return rows.map((r) => ({ ...r, entryCount: Number(r.entryCount), commissionCount: Number(r.commissionCount) }));
}

/** The payable entries, locked for a batch in id order (two batches at once wait, they never share an entry). */
export function lockPayableEntries(db: Executor) {
  return db
    .selectFrom('commissions as c')
    .select(['c.id', 'c.recruiterDealerId'])
    .where(payable)
    .where('c.recruiterDealerId', 'is not', null)
    .orderBy('c.id')
    .forUpdate()
    .execute();
}

/** Puts entries still payable into a batch; returns how many it took. */
export async function assignToPayout(db: Executor, ids: readonly string[], payoutId: string): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .updateTable('commissions as c')
    .set({ payoutId, updatedAt: new Date() })
    .where('c.id', 'in', ids)
    .where(payable)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Every entry of a batch not paid yet becomes paid (a payee marked paid alone keeps their date). */
export async function markPayoutEntriesPaid(db: Executor, payoutId: string, now: Date): Promise<void> {
  await db
    .updateTable('commissions')
    .set({ status: 'paid', paidAt: now, updatedAt: now })
    .where('payoutId', '=', payoutId)
    .where('status', '=', 'approved')
    .execute();
}

/**
 * One payee of a batch is paid (issue 39, decision 0965): their entries in it not paid yet become
 * paid. Returns the entries moved: none when they were already paid (the condition makes a second
 * request, even at the same time, move nothing).
 */
export function markPayeeEntriesPaid(db: Executor, payoutId: string, recruiterDealerId: string, now: Date) {
  return db
    .updateTable('commissions')
    .set({ status: 'paid', paidAt: now, updatedAt: now })
    .where('payoutId', '=', payoutId)
    .where('recruiterDealerId', '=', recruiterDealerId)
    .where('status', '=', 'approved')
    .returning(['id', 'amount'])
    .execute();
}

/** Each payee of a batch: whether all their entries in it are paid, and when the last was. */
export async function payeePaidStates(db: Executor, payoutId: string) {
  const rows = await db
    .selectFrom('commissions')
    .where('payoutId', '=', payoutId)
    .where('recruiterDealerId', 'is not', null)
    .select([
      'recruiterDealerId',
      sql<boolean>`bool_and(status = 'paid')`.as('paid'),
      sql<Date | null>`max(paid_at)`.as('paidAt'),
    ])
    .groupBy('recruiterDealerId')
    .execute();
  return new Map(rows.map((r) => [r.recruiterDealerId as string, { paid: r.paid, paidAt: r.paidAt }]));
}

/**
 * A returned payment (issue 39): a recruiter's entries in a batch leave it and are approved again,
 * payable in a later batch once their details are fixed. Returns the entries moved.
 */
export function returnPayoutEntries(db: Executor, payoutId: string, recruiterDealerId: string, now: Date) {
  return db
    .updateTable('commissions')
    .set({ status: 'approved', payoutId: null, paidAt: null, updatedAt: now })
    .where('payoutId', '=', payoutId)
    .where('recruiterDealerId', '=', recruiterDealerId)
    .where('status', 'in', ['approved', 'paid'])
    .returning(['id', 'amount'])
    .execute();
}
