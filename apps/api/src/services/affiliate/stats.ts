import { affiliateStatsRows } from '@dn/db/queries/affiliate-links';
import { RECENT_REFERRALS } from '@dn/schema';
import type { Context, User } from '../../context';
import { shareUrl } from './links';

/** j***@example.com: enough for a recruiter to recognise a referral, not to harvest addresses. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * What the stats below are made of, as read with the session (decision 0790): the dealer's
 * referrals version, kept by triggers on their link and referred dealers, and their own name.
 */
export function affiliateStatsVersion(ctx: Context & { user: User }): string | null {
  const { referralsVersion, fullName } = ctx.user;
  return referralsVersion === undefined ? null : JSON.stringify([referralsVersion, fullName]);
}

/** The signed-in dealer's link and their most recent referrals; nothing of anyone else's. */
export async function affiliateStats(ctx: Context & { user: User }) {
  const rows = await affiliateStatsRows(ctx.db, ctx.user.id, RECENT_REFERRALS);
  const link = rows[0]?.recruiterId ? rows[0] : null;
  return {
    hasAffiliateLink: Boolean(link),
    recruiterId: link?.recruiterId ?? null,
    affiliateCode: link?.affiliateCode ?? null,
    shareUrl: link?.recruiterId ? shareUrl(ctx.config.publicUrl, link.recruiterId) : null,
    totalReferrals: Number(rows[0]?.total ?? 0),
    // Every row is referred by the signed-in dealer, so the referrer's name is the session user's.
    referrals: rows.flatMap((r) =>
      r.id === null
        ? []
        : [
            {
              id: r.id,
              fullName: r.fullName,
              email: maskEmail(r.email!),
              referralType: r.referralType ?? 'manual',
              referredByName: ctx.user.fullName,
              tier: r.tier,
              createdAt: r.createdAt,
            },
          ],
    ),
  };
}
