import { findJobByStatusToken, lockJob } from '@dn/db/queries/jobs';
import {
  findJobReview,
  insertJobReview,
  installerScorecard,
  latestReviews,
  listScorecards,
  type Tier,
  tierMedians,
} from '@dn/db/queries/scorecards';
import {
  type AdminScorecardsQuery,
  INSTALLER_TIERS,
  JOB_STATUS_LINK_NOT_FOUND,
  type JobReviewFields,
  REVIEW_ALREADY_GIVEN,
  REVIEW_NOT_INSTALLED,
  SCORECARD_DAYS,
  SCORECARD_INSTALLERS_ONLY,
  SCORECARD_LATEST_REVIEWS,
} from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { sha256 } from '../../lib/tokens';
import { audit } from '../audit/audit';
import { jobEvent } from './offers';

/**
 * Issue 50 (decisions 1100-1102): the homeowner rates an installed job once from the status link,
 * and each installer's scorecard (their dashboard, the console) reads the reviews and the offers.
 */

type Signed = Context & { user: User };

/** The job's review as the status page shows it back, or null. */
export async function reviewOfJob(ctx: Context, jobId: string) {
  const r = await findJobReview(ctx.db, jobId);
  return r
    ? { rating: r.rating, comment: r.comment, publicConsent: r.publicConsent, createdAt: r.createdAt.toISOString() }
    : null;
}

/**
 * The homeowner's review: only of an installed job, once (the table's primary key is the job, and
 * the job's row lock orders concurrent ones: the first is recorded, the others answer 409). It names
 * the installer who installed the job and goes on the job's timeline.
 */
export async function reviewInstallation(ctx: Context, token: string, input: JobReviewFields) {
  const found = await findJobByStatusToken(ctx.db, sha256(token));
  if (!found) throw new AppError('NOT_FOUND', JOB_STATUS_LINK_NOT_FOUND);
  if (found.status !== 'installed') throw new AppError('CONFLICT', REVIEW_NOT_INSTALLED);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, found.id);
    if (!job) throw new AppError('NOT_FOUND', JOB_STATUS_LINK_NOT_FOUND);
    if (job.status !== 'installed') throw new AppError('CONFLICT', REVIEW_NOT_INSTALLED);
    const review = await insertJobReview(trx, {
      jobId: job.id,
      installerId: job.installerId,
      rating: input.rating,
      comment: input.comment ?? null,
      publicConsent: input.publicConsent,
      createdAt: now,
    });
    if (!review) throw new AppError('CONFLICT', REVIEW_ALREADY_GIVEN);
    const stars = `${input.rating} of 5 stars`;
    await jobEvent(trx, job, {
      kind: 'reviewed',
      actor: 'homeowner',
      dealerId: job.installerId,
      message: `The homeowner rated the installation ${stars}${review.comment ? ' with a comment' : ''}${input.publicConsent ? ' (may be shown publicly)' : ''}`,
      at: now,
    });
    await audit(trx, ctx, {
      eventType: 'job.reviewed',
      category: 'system',
      message: `The homeowner rated job ${job.id} ${stars}`,
      dealerId: job.installerId,
      details: {
        jobId: job.id,
        rating: input.rating,
        comment: review.comment !== null,
        publicConsent: input.publicConsent,
      },
    });
    return {
      rating: review.rating,
      comment: review.comment,
      publicConsent: review.publicConsent,
      createdAt: review.createdAt.toISOString(),
    };
  });
}

const windowOf = (ctx: Context) => ({ now: ctx.clock.now(), days: SCORECARD_DAYS });

/** One installer's card: their figures, their tier's medians, and their latest reviews. */
async function cardOf(ctx: Context, dealerId: string, opts: { consent: boolean }) {
  const w = windowOf(ctx);
  const figures = await installerScorecard(ctx.db, dealerId, w);
  if (!figures) return null;
  const [tier, reviews] = await Promise.all([
    tierMedians(ctx.db, figures.tier, w),
    latestReviews(ctx.db, dealerId, SCORECARD_LATEST_REVIEWS),
  ]);
  const { dealerId: _, fullName: __, companyName: ___, status: ____, ...own } = figures;
  const { installers, ...medians } = tier;
  return {
    days: SCORECARD_DAYS,
    ...own,
    tierMedians: { installers, ...medians },
    latestReviews: reviews.map((r) => ({
      rating: r.rating,
      comment: r.comment,
      createdAt: r.createdAt.toISOString(),
      city: r.city,
      state: r.state,
      // Whether the homeowner agreed to public display: the console shows it, the installer needs it not.
      ...(opts.consent ? { jobId: r.jobId, publicConsent: r.publicConsent } : {}),
    })),
  };
}

/**
 * `GET /api/dealer/scorecard`: the signed-in installer's card. A dealer of a tier that does not
 * install (an Affiliate) is refused with 403 and why (decision 1101): it has no offers or reviews.
 */
export async function ownScorecard(ctx: Signed) {
  if (!ctx.user.tier || !INSTALLER_TIERS.includes(ctx.user.tier)) {
    throw new AppError('FORBIDDEN', SCORECARD_INSTALLERS_ONLY);
  }
  const card = await cardOf(ctx, ctx.user.id, { consent: false });
  if (!card) throw new AppError('FORBIDDEN', SCORECARD_INSTALLERS_ONLY);
  return card;
}

/** A dealer's card for the console's dealer page: null for a dealer of a tier that does not install. */
export async function dealerScorecard(ctx: Signed, dealerId: string) {
  return { card: await cardOf(ctx, dealerId, { consent: true }) };
}

/** The console's table: every installer's figures, sorted and paged, with both tiers' medians. */
export async function adminScorecards(ctx: Signed, q: AdminScorecardsQuery) {
  const w = windowOf(ctx);
  const [page, ...medians] = await Promise.all([
    listScorecards(ctx.db, { ...w, sort: q.sort, dir: q.dir, page: q.page }),
    ...(INSTALLER_TIERS as Tier[]).map((t) => tierMedians(ctx.db, t, w)),
  ]);
  return {
    days: SCORECARD_DAYS,
    total: page.total,
    page: q.page,
    items: page.items,
    tierMedians: Object.fromEntries((INSTALLER_TIERS as Tier[]).map((t, i) => [t, medians[i]!])) as Record<
      Tier,
      (typeof medians)[number]
    >,
  };
}
