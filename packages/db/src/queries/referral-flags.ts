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

/** The held commissions of a referred dealer move on: to pending (the hold and approval follow) or voided with a reason. */
export function releaseHeldCommissions(
  db: Executor,
  referredDealerId: string,
  to: { status: 'pending' } | { status: 'voided'; reason: string },
) {
  return db
    .updateTable('commissions')
    .set({ status: to.status, voidReason: to.status === 'voided' ? to.reason : null, updatedAt: new Date() })
    .where('referredDealerId', '=', referredDealerId)
    .where('status', '=', 'held')
    .returning(['id', 'amount'])
    .execute();
}
