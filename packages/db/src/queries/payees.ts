import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { PayoutProfiles } from '../generated/tables';
import type { Executor } from './executor';

/**
 * Payees (issue 39): a dealer's payout details and W-9 (the TIN and account number only sealed,
 * their last 4 and a keyed hash), the owner's payment settings, the 1099-NEC thresholds, the
 * once-only reminder, returned payments, and what was paid per recruiter and year.
 */

export type NewPayoutProfile = Omit<Insertable<PayoutProfiles>, 'createdAt' | 'updatedAt'>;

export function upsertPayoutProfile(db: Executor, p: NewPayoutProfile, now: Date) {
  const { dealerId: _d, ...rest } = p;
  return db
    .insertInto('payoutProfiles')
    .values({ ...p, returnedAt: null, returnCode: null, createdAt: now, updatedAt: now })
    .onConflict((oc) =>
      oc.column('dealerId').doUpdateSet({ ...rest, returnedAt: null, returnCode: null, updatedAt: now }),
    )
    .returning('dealerId')
    .executeTakeFirstOrThrow();
}

export function findPayoutProfile(db: Executor, dealerId: string) {
  return db.selectFrom('payoutProfiles').selectAll().where('dealerId', '=', dealerId).executeTakeFirst();
}

/** The profile with its row locked until the transaction ends (a change of destination decided on it). */
export function lockPayoutProfile(db: Executor, dealerId: string) {
  return db.selectFrom('payoutProfiles').selectAll().where('dealerId', '=', dealerId).forUpdate().executeTakeFirst();
}

export function payoutProfilesOf(db: Executor, dealerIds: readonly string[]) {
  if (dealerIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('payoutProfiles').selectAll().where('dealerId', 'in', dealerIds).execute();
}

/** Every sealed value, for a key rotation. */
export function sealedProfiles(db: Executor) {
  return db
    .selectFrom('payoutProfiles')
    .select(['dealerId', 'tinEnc', 'accountEnc', 'routingNumber'])
    .orderBy('dealerId')
    .forUpdate()
    .execute();
}

export function resealProfile(
  db: Executor,
  dealerId: string,
  v: { tinEnc: string; tinHash: string; accountEnc: string | null; accountHash: string | null },
) {
  return db.updateTable('payoutProfiles').set(v).where('dealerId', '=', dealerId).execute();
}

/** Other dealers whose TIN or bank account has the same keyed hash. */
export function sharingDealers(db: Executor, dealerId: string, tinHash: string, accountHash: string | null) {
  return db
    .selectFrom('payoutProfiles as p')
    .innerJoin('dealers as d', 'd.id', 'p.dealerId')
    .select([
      'p.dealerId',
      'd.referredBy',
      sql<boolean>`p.tin_hash = ${tinHash}`.as('sameTin'),
      sql<boolean>`p.account_hash is not null and p.account_hash = ${accountHash}`.as('sameAccount'),
    ])
    .where('p.dealerId', '<>', dealerId)
    .where((eb) =>
      eb.or([eb('p.tinHash', '=', tinHash), ...(accountHash ? [eb('p.accountHash', '=', accountHash)] : [])]),
    )
    .limit(100)
    .execute();
}

/** A returned payment: the details must be fixed before the next batch pays them. */
export function markProfileReturned(db: Executor, dealerId: string, code: string, now: Date) {
  return db
    .updateTable('payoutProfiles')
    .set({ returnedAt: now, returnCode: code })
    .where('dealerId', '=', dealerId)
    .execute();
}

export function findPaymentSettings(db: Executor) {
  return db.selectFrom('paymentSettings').selectAll().executeTakeFirst();
}

export function upsertPaymentSettings(
  db: Executor,
  s: {
    companyName: string;
    companyId: string;
    originatingRouting: string;
    originatingBankName: string;
    payerName: string;
    payerTin: string;
    payerAddressJson: string;
    updatedBy: string;
  },
  now: Date,
) {
  return db
    .insertInto('paymentSettings')
    .values({ id: true, ...s, updatedAt: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...s, updatedAt: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findTaxThreshold(db: Executor, year: number) {
  return db.selectFrom('taxThresholds').select(['year', 'amount']).where('year', '=', year).executeTakeFirst();
}

export function upsertTaxThreshold(db: Executor, year: number, amount: string, by: string, now: Date) {
  return db
    .insertInto('taxThresholds')
    .values({ year, amount, updatedBy: by, updatedAt: now })
    .onConflict((oc) => oc.column('year').doUpdateSet({ amount, updatedBy: by, updatedAt: now }))
    .returning(['year', 'amount'])
    .executeTakeFirstOrThrow();
}

/** The dealers among `ids` not reminded yet, now marked reminded (once-only across concurrent batches). */
export async function remindOnce(db: Executor, ids: readonly string[], now: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .insertInto('payeeReminders')
    .values(ids.map((dealerId) => ({ dealerId, sentAt: now })))
    .onConflict((oc) => oc.column('dealerId').doNothing())
    .returning('dealerId')
    .execute();
  return new Set(rows.map((r) => r.dealerId));
}

/** Details were completed: the next time they are missing again, a new reminder may go. */
export function forgetReminder(db: Executor, dealerId: string) {
  return db.deleteFrom('payeeReminders').where('dealerId', '=', dealerId).execute();
}

export function insertPayoutReturn(
  db: Executor,
  r: {
    payoutId: string;
    recruiterDealerId: string;
    returnCode: string;
    note: string | null;
    amount: string;
    createdBy: string;
  },
) {
  return db
    .insertInto('payoutReturns')
    .values(r)
    .onConflict((oc) => oc.columns(['payoutId', 'recruiterDealerId']).doNothing())
    .returning(['id', 'payoutId', 'recruiterDealerId', 'returnCode', 'note', 'amount', 'createdAt'])
    .executeTakeFirst();
}

const yearRange = (year: number) => [new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year + 1, 0, 1))] as const;

/**
 * What each recruiter was paid in a calendar year (entries paid that year: commissions less
 * clawbacks), at or over `atLeast`, with their payout details when they have them.
 */
export function paidInYear(db: Executor, year: number, atLeast: string) {
  const [from, to] = yearRange(year);
  const paid = db
    .selectFrom('commissions as c')
    .select(['c.recruiterDealerId', sql<string>`sum(c.amount)::numeric(14, 2)::text`.as('amount')])
    .where('c.status', '=', 'paid')
    .where('c.paidAt', '>=', from)
    .where('c.paidAt', '<', to)
    .where('c.recruiterDealerId', 'is not', null)
    .groupBy('c.recruiterDealerId')
    .having(sql<boolean>`sum(c.amount) >= ${atLeast}::numeric`);
  return db
    .selectFrom(paid.as('n'))
    .innerJoin('dealers as d', 'd.id', 'n.recruiterDealerId')
    .leftJoin('payoutProfiles as p', 'p.dealerId', 'n.recruiterDealerId')
    .select([
      'd.id as dealerId',
      'd.fullName',
      'd.email',
      'n.amount',
      'p.legalName',
      'p.tinEnc',
      'p.tinType',
      'p.addressJson',
    ])
    .orderBy('d.fullName')
    .orderBy('d.id')
    .execute();
}

/** A recruiter's payments in a year, one line per batch: when, the reference, the amount. */
export function statementLines(db: Executor, recruiterDealerId: string, year: number) {
  const [from, to] = yearRange(year);
  return db
    .selectFrom('commissions as c')
    .innerJoin('payouts as p', 'p.id', 'c.payoutId')
    .select([
      'p.id as payoutId',
      'p.reference',
      sql<Date>`max(c.paid_at)`.as('paidAt'),
      sql<string>`sum(c.amount)::numeric(14, 2)::text`.as('amount'),
      sql<string>`count(*)`.as('entries'),
    ])
    .where('c.recruiterDealerId', '=', recruiterDealerId)
    .where('c.status', '=', 'paid')
    .where('c.paidAt', '>=', from)
    .where('c.paidAt', '<', to)
    .groupBy(['p.id', 'p.reference'])
    .orderBy(sql`max(c.paid_at)`)
    .execute();
}

/** Who referred a dealer (for the risk signals of their payout details). */
export function findDealerReferrer(db: Executor, dealerId: string) {
  return db.selectFrom('dealers').select(['id', 'referredBy']).where('id', '=', dealerId).executeTakeFirst();
}
