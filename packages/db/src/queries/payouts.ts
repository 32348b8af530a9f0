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

/**
 * Issue 45 (decision 1020): each payee's method and account as they are now, kept with the batch
 * `payoutId` (its entries already assigned). The ACH file and the check register read these rows
 * only: a change of details after the batch reaches later batches, and a payee is in one file.
 */
export function snapshotPayoutPayees(db: Executor, payoutId: string) {
  return db
    .insertInto('payoutPayees')
    .columns([
      'payoutId',
      'recruiterDealerId',
      'method',
      'legalName',
      'individual',
      'routingNumber',
      'accountEnc',
      'accountLast4',
      'accountType',
      'addressJson',
    ])
    .expression(
      db
        .selectFrom('payoutProfiles as p')
        .where(
          'p.dealerId',
          'in',
          db.selectFrom('commissions').select('recruiterDealerId').where('payoutId', '=', payoutId).distinct(),
        )
        .select([
          sql<string>`${payoutId}::uuid`.as('payoutId'),
          'p.dealerId',
          sql<
            'ach' | 'check'
          >`case when p.method = 'ach' and p.account_enc is not null and p.routing_number is not null then 'ach' else 'check' end`.as(
            'method',
          ),
          'p.legalName',
          sql<boolean>`p.tax_classification = 'individual'`.as('individual'),
          sql<string | null>`case when p.method = 'ach' and p.account_enc is not null then p.routing_number end`.as(
            'routingNumber',
          ),
          sql<string | null>`case when p.method = 'ach' and p.routing_number is not null then p.account_enc end`.as(
            'accountEnc',
          ),
          sql<string | null>`case when p.method = 'ach' then p.account_last4 end`.as('accountLast4'),
          sql<string | null>`case when p.method = 'ach' then p.account_type end`.as('accountType'),
          'p.addressJson',
        ]),
    )
    .returning(['recruiterDealerId', 'method'])
    .execute();
}

/** A batch's payees as they were when it was created. */
export function payoutPayeesOf(db: Executor, payoutId: string) {
  return db.selectFrom('payoutPayees').selectAll().where('payoutId', '=', payoutId).execute();
}

/** Every sealed account number kept with a batch, for a key rotation. */
export function sealedPayoutPayees(db: Executor) {
  return db
    .selectFrom('payoutPayees')
    .select(['payoutId', 'recruiterDealerId', 'accountEnc'])
    .where('accountEnc', 'is not', null)
    .orderBy('payoutId')
    .orderBy('recruiterDealerId')
    .forUpdate()
    .execute();
}

export function resealPayoutPayee(db: Executor, payoutId: string, recruiterDealerId: string, accountEnc: string) {
  return db
    .updateTable('payoutPayees')
    .set({ accountEnc })
    .where('payoutId', '=', payoutId)
    .where('recruiterDealerId', '=', recruiterDealerId)
    .execute();
}
