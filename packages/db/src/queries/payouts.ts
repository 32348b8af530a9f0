import { sql } from 'kysely';
import type { Executor } from './executor';

/** Payout batches (issue 13). */

const PAYOUT_COLUMNS = [
  'id',
  'status',
  'minimum',
  'total',
  'recruiterCount',
  'commissionCount',
  'reference',
  'createdBy',
  'createdAt',
  'paidBy',
  'paidAt',
  'heldJson',
] as const;

export function insertPayout(
  db: Executor,
  p: {
    minimum: string;
    total: string;
    recruiterCount: number;
    commissionCount: number;
    createdBy: string;
    /** the recruiters left out and why (issue 39), JSON text */
    heldJson?: string;
  },
) {
  return db.insertInto('payouts').values(p).returning(PAYOUT_COLUMNS).executeTakeFirstOrThrow();
}

/**
 * A batch's figures from the entries it took: its total (the sum of its recruiters' nets), how many
 * recruiters and entries (commissions and clawbacks).
 */
export function settlePayout(db: Executor, id: string) {
  return db
    .updateTable('payouts')
    .set({
      total: sql<string>`(select coalesce(sum(amount), 0) from commissions where payout_id = ${id})`,
      recruiterCount: sql<number>`(select count(distinct recruiter_dealer_id) from commissions where payout_id = ${id})`,
      commissionCount: sql<number>`(select count(*) from commissions where payout_id = ${id})`,
    })
    .where('id', '=', id)
    .returning(PAYOUT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function findPayout(db: Executor, id: string) {
  return db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function lockPayout(db: Executor, id: string) {
  return db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function markPayoutPaid(db: Executor, id: string, reference: string, admin: string, now: Date) {
  return db
    .updateTable('payouts')
    .set({ status: 'paid', reference, paidBy: admin, paidAt: now })
    .where('id', '=', id)
    .returning(PAYOUT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function listPayouts(db: Executor, limit = 50) {
  return db.selectFrom('payouts').select(PAYOUT_COLUMNS).orderBy('createdAt', 'desc').limit(limit).execute();
}
