import {
  findDealerForJobs,
  findJobByStatusToken,
  findOpenOffer,
  listDealerJobs,
  listJobEvents,
  listOpenOffers,
  openOffersOfJobs,
} from '@dn/db/queries/jobs';
import { JOB_STATUS_LINK_NOT_FOUND } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { sha256 } from '../../lib/tokens';
import { canAnswer } from './evidence';
import { reviewOfJob } from './reviews';

/** What each side reads: the installer's offers, the dealer's jobs, the homeowner's status page. */

type Dealer = Context & { user: User };

/**
 * The version of the dealer's offers and jobs (decision 1180), read with the session: the jobs
 * version, which every change to one of their offers or jobs moves (migration 4200). The offers list
 * also changes when an open offer's deadline passes before the expiry sweep closes it: from the
 * first open deadline on, there is no version (the list is read) until the sweep moves it.
 */
export function ownJobsVersion(ctx: Context): string | null {
  const v = ctx.user?.jobsVersion;
  if (!v) return null;
  if (v.firstOfferExpiry && v.firstOfferExpiry.getTime() <= ctx.clock.now().getTime()) return null;
  return v.n;
}

/** The job list's version (decision 1180): the jobs version alone (no deadline shows in it). */
export const jobListVersion = (ctx: Context): string | null => ctx.user?.jobsVersion?.n ?? null;

/** Open offers: where and what, never the homeowner's contact. */
export async function ownOffers(ctx: Dealer) {
  const rows = await listOpenOffers(ctx.db, ctx.user.id, ctx.clock.now());
  return {
    items: rows.map((r) => ({ ...r, distanceMiles: Number(r.distanceMiles), expiresAt: r.expiresAt.toISOString() })),
  };
}

/**
 * The jobs this dealer sold or installs. The installer sees the homeowner's contact; the seller sees
 * the status, the installer's company and phone, and while offered whom it waits on and by when
 * (never the offer itself).
 */
export async function ownJobs(ctx: Dealer) {
  const rows = await listDealerJobs(ctx.db, ctx.user.id);
  // The seller's offered jobs: the installer it waits on and by when (issue 47).
  const waiting = new Map(
    (
      await openOffersOfJobs(
        ctx.db,
        rows.filter((r) => r.status === 'offered' && r.sellerId === ctx.user.id).map((r) => r.id),
      )
    ).map((o) => [o.jobId, { company: o.companyName ?? o.fullName, answerBy: o.expiresAt.toISOString() }]),
  );
  return {
    items: rows.map((r) => {
      const installs = r.installerId === ctx.user.id;
      const installer =
        r.installerId && ['accepted', 'scheduled', 'installed'].includes(r.status)
          ? { company: r.installerCompany ?? r.installerName ?? '', phone: r.installerPhone ?? '' }
          : null;
      return {
        id: r.id,
        status: r.status,
        role: installs ? ('installer' as const) : ('seller' as const),
        city: r.city,
        state: r.state,
        zipCode: r.zipCode,
        atticSqFt: r.atticSqFt,
        fans: r.fans,
        amount: r.amount,
        scheduledFor: r.scheduledFor,
        installedAmount: r.installedAmount,
        amountReview: r.amountReview,
        notes: installs ? r.notes : null,
        createdAt: r.createdAt.toISOString(),
        installer,
        offeredTo: waiting.get(r.id) ?? null,
        homeowner:
          installs || r.sellerId === ctx.user.id
            ? { fullName: r.homeownerName, email: r.homeownerEmail, phone: r.homeownerPhone, street: r.street }
            : null,
      };
    }),
  };
}

/** The homeowner's status page: the steps, and the installer once one took the job. */
export async function jobStatusPage(ctx: Context, token: string) {
  const job = await findJobByStatusToken(ctx.db, sha256(token));
  if (!job) throw new AppError('NOT_FOUND', JOB_STATUS_LINK_NOT_FOUND);
  const events = await listJobEvents(ctx.db, job.id);
  const installer =
    job.installerId && ['accepted', 'scheduled', 'installed'].includes(job.status)
      ? await findDealerForJobs(ctx.db, job.installerId)
      : undefined;
  const at = (kind: string) => events.find((e) => e.kind === kind)?.createdAt.toISOString() ?? null;
  const review = await reviewOfJob(ctx, job.id);
  return {
    status: job.status,
    city: job.city,
    state: job.state,
    zipCode: job.zipCode,
    receivedAt: job.createdAt.toISOString(),
    acceptedAt: at('accepted') ?? at('assigned'),
    scheduledFor: job.scheduledFor,
    installedAt: at('installed'),
    installer: installer ? { company: installer.companyName ?? installer.fullName, phone: installer.phoneE164 } : null,
    /** Issue 45: "Was your installation completed? Amount $X", answered once (confirmed or disputed). */
    installation: {
      amount: job.amountReview === 'pending' ? null : job.installedAmount,
      answer: job.homeownerAnswer,
      answeredAt: job.homeownerAnsweredAt?.toISOString() ?? null,
      canAnswer: canAnswer(job),
    },
    /** Issue 50: the homeowner's review, asked once the job is installed and given once. */
    review,
    canReview: job.status === 'installed' && review === null,
    ...(await whenAndWho(ctx, job)),
  };
}

/**
 * Issue 47: by when an installer answers (the open offer's deadline) and whom to ask (the team's
 * reply address, REPLY_TO, when it is set).
 */
async function whenAndWho(ctx: Context, job: { id: string; status: string }) {
  const offer = job.status === 'offered' ? await findOpenOffer(ctx.db, job.id) : undefined;
  const replyTo = ctx.config.replyTo;
  return {
    answerBy: offer ? offer.expiresAt.toISOString() : null,
    contactEmail: replyTo ? (/<([^>]+)>/.exec(replyTo)?.[1] ?? replyTo) : null,
  };
}
