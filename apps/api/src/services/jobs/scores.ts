import {
  liveTierMedians,
  refreshStaleScores,
  refreshTierMedians,
  tierReviewCandidates,
} from '@dn/db/queries/installer-scores';
import type { Context, Deps, User } from '../../context';

/**
 * Installers' scores over time, and the owners' monthly tier review (issue 50, decisions 1120-1124).
 * The triggers keep each score as offers are answered and reviews arrive; this sweep recomputes the
 * scores the 90-day window moved past (a day old or more) and each tier's median, the score an
 * installer without history routes at.
 */
export async function refreshInstallerScores(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  let handled = 0;
  for (;;) {
    const n = await refreshStaleScores(deps.db, now, 1000);
    handled += n;
    if (n < 1000) break;
  }
  await refreshTierMedians(deps.db, now);
  return handled;
}

/** The fewest offers (answered or expired, 90 days) behind a suggested tier change (decision 1124). */
export const TIER_REVIEW_MIN_OFFERS = 5;

type Admin = Context & { user: User };

/**
 * The owners' tier review (decision 1124): this month's suggestions from the last 90 days, live (the
 * kept scores against the tiers' medians now), each with its evidence; the change itself is the
 * dealer's tier change (dealers.upgradeTier: audited, emailed).
 */
export async function tierReviews(ctx: Admin) {
  const now = ctx.clock.now();
  const medians = await liveTierMedians(ctx.db);
  const rows = await tierReviewCandidates(ctx.db, medians, TIER_REVIEW_MIN_OFFERS);
  const from = new Date(now.getTime() - 90 * 24 * 60 * 60 * 1000);
  return {
    month: now.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    from: from.toISOString().slice(0, 10),
    to: now.toISOString().slice(0, 10),
    medians,
    items: rows.map((r) => ({
      dealerId: r.dealerId,
      name: r.name,
      email: r.email,
      tier: r.tier,
      suggestedTier: r.tier === 'Preferred' ? ('Authorized' as const) : ('Preferred' as const),
      score: Number(r.score),
      averageRating: r.ratingAverage == null ? null : Number(r.ratingAverage),
      reviewCount: r.reviewCount,
      offers: r.offers,
      accepted: r.accepted,
      declined: r.declined,
      expired: r.expired,
      acceptanceRate: r.offers > 0 ? Math.round((r.accepted / r.offers) * 1000) / 1000 : null,
      medianResponseSeconds: r.responseSeconds,
    })),
  };
}
