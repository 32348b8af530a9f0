import { sql } from 'kysely';
import { prepareQuery } from '../prepared';
import type { Executor } from './executor';

/** Affiliate links: one per dealer, and the referral counts they keep. */

/**
 * The active affiliate link behind a recruiter id (case-insensitive), with its dealer's email, when
 * that dealer is in good standing (approved or active): a suspended, rejected or pending
 * recruiter's link attributes nothing (issue 35, finding 5).
 */
export async function findActiveLinkByRecruiterId(db: Executor, recruiterId: string) {
  return db
    .selectFrom('affiliateLinks as l')
    .innerJoin('dealers as d', 'd.id', 'l.dealerId')
    .select(['l.id', 'l.recruiterId', 'l.dealerId', 'd.email as dealerEmail'])
    .where(sql<string>`lower(l.recruiter_id)`, '=', recruiterId.toLowerCase())
    .where('l.isActive', '=', true)
    .where('d.status', 'in', ['approved', 'active'])
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

export async function findLinkIdOfDealer(db: Executor, dealerId: string) {
  return db.selectFrom('affiliateLinks').select('id').where('dealerId', '=', dealerId).executeTakeFirst();
}

export function insertAffiliateLink(
  db: Executor,
  link: { recruiterId: string; dealerId: string; affiliateCode: string },
) {
  return db
    .insertInto('affiliateLinks')
    .values({ ...link, updatedAt: new Date() })
    .returning(['recruiterId', 'affiliateCode', 'createdAt'])
    .executeTakeFirstOrThrow();
}

/** The recruiter's link (if any) counts one more referral; returns it, or undefined when there is none. */
export function countReferralOnDealersLink(db: Executor, recruiterDealerId: string) {
  return db
    .updateTable('affiliateLinks')
    .set((eb) => ({ totalReferrals: eb('totalReferrals', '+', 1), updatedAt: new Date() }))
    .where('dealerId', '=', recruiterDealerId)
    .returning(['recruiterId', 'totalReferrals'])
    .executeTakeFirst();
}

/** The recruiter's link (if any) gives one referral back, never below zero. */
export async function uncountReferralOnDealersLink(db: Executor, recruiterDealerId: string): Promise<void> {
  await db
    .updateTable('affiliateLinks')
    .set((eb) => ({ totalReferrals: eb('totalReferrals', '-', 1), updatedAt: new Date() }))
    .where('dealerId', '=', recruiterDealerId)
    .where('totalReferrals', '>', 0)
    .execute();
}

/**
 * The dealer's link, their referral count and their `recent` most recent referrals in one
 * statement (polled every 5 s by every dashboard, so compiled once): one row per recent
 * referral, or one row with empty referral columns when there is none.
 */
const statsQuery = prepareQuery(['dealerId', 'recent'], (db, p) =>
  db
    .selectFrom(sql<{ me: string }>`(select ${p.dealerId}::uuid as me)`.as('m'))
    .leftJoin('affiliateLinks as l', 'l.dealerId', 'm.me')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('dealers')
          .select(['id', 'fullName', 'email', 'referralType', 'tier', 'createdAt'])
          .whereRef('referredBy', '=', 'm.me')
          .orderBy('createdAt', 'desc')
          .orderBy('id', 'desc')
          .limit(p.recent as unknown as number)
          .as('r'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      'l.recruiterId',
      'l.affiliateCode',
      eb.selectFrom('dealers').select(eb.fn.countAll<string>().as('n')).whereRef('referredBy', '=', 'm.me').as('total'),
      'r.id',
      'r.fullName',
      'r.email',
      'r.referralType',
      'r.tier',
      'r.createdAt',
    ]),
);

export async function affiliateStatsRows(db: Executor, dealerId: string, recent: number) {
  return (await statsQuery(db, { dealerId, recent })).rows;
}

/** Every dealer the recruiter referred, newest first, one page, with the total (the dashboard's full list). */
export async function listReferralsOf(
  db: Executor,
  recruiterDealerId: string,
  page: { limit: number; offset: number },
) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('dealers')
      .select([
        'id',
        'fullName',
        'email',
        'referralType',
        'tier',
        'status',
        'createdAt',
        'approvalDate',
        'firstOrderAt',
      ])
      .where('referredBy', '=', recruiterDealerId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('dealers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('referredBy', '=', recruiterDealerId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/**
 * One recruiter's funnel (decision 0720): visits of their link (tracked url captures under their
 * recruiter id), applications (every dealer they referred), approvals (referred dealers ever
 * approved) and first orders (referred dealers with an order). One statement; the visits through
 * the audit trail's recruiter index, the rest through the dealers' referred_by index.
 */
export async function referralFunnelOf(db: Executor, recruiterDealerId: string) {
  const r = await sql<{ visits: string; applications: string; approvals: string; firstOrders: string }>`
    select
      (select count(*) from audit_logs a join affiliate_links l on a.recruiter_id = l.recruiter_id
        where l.dealer_id = ${recruiterDealerId} and a.event_type = 'affiliate.url_capture') as visits,
      count(x.id) as applications,
      count(x.id) filter (where x.approval_date is not null or x.status in ('approved', 'active')) as approvals,
      count(x.id) filter (where x.first_order_at is not null) as first_orders
    from dealers x where x.referred_by = ${recruiterDealerId}`.execute(db);
  const row = r.rows[0];
  return {
    visits: Number(row?.visits ?? 0),
    applications: Number(row?.applications ?? 0),
    approvals: Number(row?.approvals ?? 0),
    firstOrders: Number(row?.firstOrders ?? 0),
  };
}
