import { listReferralsOf, referralFunnelOf } from '@dn/db/queries/affiliate-links';
import { REFERRALS_PAGE_SIZE, referralStatusOf } from '@dn/schema';
import type { Context, User } from '../../context';
import { maskEmail } from './stats';

/**
 * Every dealer the signed-in dealer referred, newest first, one page, with each one's status as
 * the recruiter sees it (GET /api/affiliate/referrals; decision 0720). Emails are masked as in the stats.
 */
export async function ownReferrals(ctx: Context & { user: User }, page: number) {
  const { rows, total } = await listReferralsOf(ctx.db, ctx.user.id, {
    limit: REFERRALS_PAGE_SIZE,
    offset: (page - 1) * REFERRALS_PAGE_SIZE,
  });
  return {
    items: rows.map((r) => ({
      id: r.id,
      fullName: r.fullName,
      email: maskEmail(r.email),
      referralType: r.referralType ?? 'manual',
      // Every row is referred by the signed-in dealer (as in the stats).
      referredByName: ctx.user.fullName,
      tier: r.tier,
      status: referralStatusOf(r.status),
      createdAt: r.createdAt.toISOString(),
      firstOrderAt: r.firstOrderAt?.toISOString() ?? null,
    })),
    total,
    page,
    pageSize: REFERRALS_PAGE_SIZE,
  };
}

/** The signed-in recruiter's funnel: link visits -> applications -> approvals -> first orders. */
export function ownReferralFunnel(ctx: Context & { user: User }) {
  return referralFunnelOf(ctx.db, ctx.user.id);
}
