import { sql } from 'kysely';
import type { Executor } from './executor';

/**
 * Flagged referrals (issue 35, finding 6; decision 0895): a signup that matches its recruiter
 * (phone, device, sign-in IP, business address) is attributed but flagged, and its commissions are
 * earned `held` until an owner clears or voids the flag. The row itself is written by the signup's
 * one statement (dealers.ts insertApplication).
 */

/** What a signup is compared with: the recruiter's phone and address, their sign-in IPs, whether a device is theirs. */
export async function recruiterFootprint(db: Executor, recruiterDealerId: string, deviceIdHash: string | null) {
  const [dealer, signIns, device] = await Promise.all([
    db
      .selectFrom('dealers')
      .select(['phoneE164', 'addressJson'])
      .where('id', '=', recruiterDealerId)
      .executeTakeFirst(),
    db
      .selectFrom('auditLogs')
      .select('ipAddress')
      .distinct()
      .where('dealerId', '=', recruiterDealerId)
      .where('eventType', '=', 'auth.signed_in')
      .where('ipAddress', 'is not', null)
      .limit(1_000)
      .execute(),
    deviceIdHash
      ? db
          .selectFrom('accountDevices')
          .select('idHash')
          .where('idHash', '=', deviceIdHash)
          .where('dealerId', '=', recruiterDealerId)
          .executeTakeFirst()
      : undefined,
  ]);
  return {
    phoneE164: dealer?.phoneE164 ?? null,
    addressJson: dealer?.addressJson ?? null,
    signInIps: signIns.map((s) => s.ipAddress as string),
    knownDevice: device !== undefined,
  };
}

/** The flag of a referred dealer, if any. */
export function findReferralFlag(db: Executor, referredDealerId: string) {
  return db
    .selectFrom('referralFlags')
    .select(['id', 'status', 'reason', 'signals'])
    .where('referredDealerId', '=', referredDealerId)
    .executeTakeFirst();
}

/** An open flag becomes cleared or voided by `by`; undefined when it is unknown or already decided. */
export function decideReferralFlag(db: Executor, id: string, status: 'cleared' | 'voided', by: string) {
  return db
    .updateTable('referralFlags')
    .set({ status, decidedBy: by, decidedAt: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returning(['id', 'referredDealerId', 'recruiterDealerId', 'reason', 'signals'])
    .executeTakeFirst();
}

/**
 * The held commissions of a referred dealer move on: to pending (the hold and approval follow) or
 * voided with a reason. Clearing leaves held those of a job still waiting for its homeowner's answer
 * (release_needs 'installation', issue 45): the owner's decision on the flag is not that answer.
 */
export function releaseHeldCommissions(
  db: Executor,
  referredDealerId: string,
  to: { status: 'pending' } | { status: 'voided'; reason: string },
) {
  let q = db
    .updateTable('commissions')
    .set({
      status: to.status,
      voidReason: to.status === 'voided' ? to.reason : null,
      releaseNeeds: null,
      updatedAt: new Date(),
    })
    .where('referredDealerId', '=', referredDealerId)
    .where('status', '=', 'held');
  if (to.status === 'pending') q = q.where(sql<boolean>`release_needs is distinct from 'installation'`);
  return q.returning(['id', 'amount']).execute();
}

/**
 * A job's commission (of order `orderRef`) waits for less (issue 45): `from` is what it waited for,
 * `to` what it waits for now (null: nothing but its referral's flag). Held and released to pending in
 * the same statement when nothing holds it any more (its referral has no open flag). The entries moved.
 */
export function moveJobCommission(
  db: Executor,
  orderRef: string,
  from: readonly ('installation' | 'owner')[],
  to: 'owner' | null,
) {
  return db
    .updateTable('commissions')
    .set({
      releaseNeeds: to,
      status:
        to === null
          ? sql<'held' | 'pending'>`case when exists (select 1 from referral_flags f
              where f.referred_dealer_id = commissions.referred_dealer_id and f.status = 'open') then 'held' else 'pending' end`
          : 'held',
      updatedAt: new Date(),
    })
    .where('orderRef', '=', orderRef)
    .where('kind', '=', 'commission')
    .where('status', '=', 'held')
    .where('releaseNeeds', 'in', [...from])
    .returning(['id', 'amount', 'status', 'recruiterDealerId', 'referredDealerId'])
    .execute();
}

/**
 * A risk signal found after signup (issue 39: a shared TIN or bank account): the referral is
 * flagged, or its flag gains the signals and opens again when they are new. Returns the flag
 * when it is open because of this call.
 */
export function raiseReferralFlag(
  db: Executor,
  f: { referredDealerId: string; recruiterDealerId: string; signals: string[]; reason: string },
  /** Open it again even when it already has these signals (issue 45: each self-installed job, each dispute, is new evidence). */
  always = false,
) {
  return db
    .insertInto('referralFlags')
    .values({ ...f, signals: sql<string[]>`${f.signals}::text[]` })
    .onConflict((oc) => {
      const update = oc.column('referredDealerId').doUpdateSet({
        signals: sql<string[]>`array(select distinct unnest(referral_flags.signals || excluded.signals) order by 1)`,
        reason: sql<string>`excluded.reason`,
        status: 'open',
        decidedBy: null,
        decidedAt: null,
      });
      return always ? update : update.where(sql<boolean>`not (referral_flags.signals @> excluded.signals)`);
    })
    .returning(['id', 'referredDealerId', 'status'])
    .executeTakeFirst();
}

/** The pending commissions of a newly flagged referral are held (decision 0895: never payable until decided). */
export function holdPendingCommissions(db: Executor, referredDealerId: string) {
  return db
    .updateTable('commissions')
    .set({ status: 'held', updatedAt: new Date() })
    .where('referredDealerId', '=', referredDealerId)
    .where('status', '=', 'pending')
    .where('payoutId', 'is', null)
    .returning(['id', 'amount'])
    .execute();
}

/** The risk list: flags of a status, newest first, with both dealers' names. */
export function listReferralFlags(db: Executor, status: 'open' | 'cleared' | 'voided', limit = 200) {
  return db
    .selectFrom('referralFlags as f')
    .innerJoin('dealers as d', 'd.id', 'f.referredDealerId')
    .innerJoin('dealers as r', 'r.id', 'f.recruiterDealerId')
    .select([
      'f.id',
      'f.status',
      'f.signals',
      'f.reason',
      'f.createdAt',
      'f.decidedBy',
      'f.decidedAt',
      'f.referredDealerId',
      'd.fullName as referredName',
      'd.email as referredEmail',
      'f.recruiterDealerId',
      'r.fullName as recruiterName',
      'r.email as recruiterEmail',
      sql<string>`(select count(*) from commissions c where c.referred_dealer_id = f.referred_dealer_id and c.status = 'held')`.as(
        'heldCount',
      ),
      sql<string>`(select coalesce(sum(c.amount), 0)::numeric(14, 2)::text from commissions c where c.referred_dealer_id = f.referred_dealer_id and c.status = 'held')`.as(
        'heldAmount',
      ),
    ])
    .where('f.status', '=', status)
    .orderBy('f.createdAt', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Decision 0966: the placed orders, within [since, until], of the dealers a recruiter referred, at
 * the smallest amount among them: that amount, how many orders and which dealers placed them.
 */
export async function ordersAtReferralsMinimum(db: Executor, recruiterDealerId: string, since: Date, until: Date) {
  const inWindow = () =>
    db
      .selectFrom('orders as o')
      .innerJoin('dealers as d', 'd.id', 'o.dealerId')
      .where('d.referredBy', '=', recruiterDealerId)
      .where('o.status', '=', 'placed')
      .where('o.orderedAt', '>=', since)
      .where('o.orderedAt', '<=', until);
  const rows = await inWindow()
    .where(sql<boolean>`o.amount = (${inWindow().select(sql<string>`min(o.amount)`.as('m'))})`)
    .select([sql<string>`o.amount::text`.as('amount'), 'o.dealerId'])
    .execute();
  return {
    amount: rows[0]?.amount ?? null,
    orders: rows.length,
    dealerIds: [...new Set(rows.map((r) => r.dealerId))],
  };
}
