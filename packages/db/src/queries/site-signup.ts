import { sql } from 'kysely';
import type { Executor } from './executor';

/** The active affiliate link behind a recruiter id (case-insensitive), with its dealer's email. */
export async function findActiveLinkByRecruiterId(db: Executor, recruiterId: string) {
  return db
    .selectFrom('affiliateLinks as l')
    .innerJoin('dealers as d', 'd.id', 'l.dealerId')
    .select(['l.id', 'l.recruiterId', 'l.dealerId', 'd.email as dealerEmail'])
    .where(sql<string>`lower(l.recruiter_id)`, '=', recruiterId.toLowerCase())
    .where('l.isActive', '=', true)
    .executeTakeFirst();
}

/** Counts one more referral on a link; called in the signup's transaction. */
export async function incrementLinkReferrals(db: Executor, linkId: string): Promise<void> {
  await db
    .updateTable('affiliateLinks')
    .set((eb) => ({ totalReferrals: eb('totalReferrals', '+', 1), updatedAt: new Date() }))
    .where('id', '=', linkId)
    .execute();
}

/** A dealer who may be named as a referrer: approved or active. */
export async function findReferrableDealer(db: Executor, id: string) {
  return db
    .selectFrom('dealers')
    .select(['id', 'email'])
    .where('id', '=', id)
    .where('status', 'in', ['approved', 'active'])
    .executeTakeFirst();
}

/** The referral picker's list (SPEC section 3: id, fullName, companyName). */
export async function listPublicDealers(db: Executor) {
  return db
    .selectFrom('dealers')
    .select(['id', 'fullName', 'companyName'])
    .where('status', 'in', ['approved', 'active'])
    .orderBy(sql`lower(full_name)`)
    .orderBy('id')
    .limit(2_000)
    .execute();
}

export async function dealerIdByEmail(db: Executor, email: string) {
  const row = await db
    .selectFrom('dealers')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row?.id ?? null;
}
