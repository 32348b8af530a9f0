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
] as const;

export function insertPayout(
  db: Executor,
  p: { minimum: string; total: string; recruiterCount: number; commissionCount: number; createdBy: string },
) {
  return db.insertInto('payouts').values(p).returning(PAYOUT_COLUMNS).executeTakeFirstOrThrow();
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
