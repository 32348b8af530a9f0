import {
  findDealerForJobs,
  findOffer,
  installerEligibility,
  type Job,
  lockJob,
  shareLockDealer,
} from '@dn/db/queries/jobs';
import { INSTALLER_NOT_ELIGIBLE_WHY, type JobStatusInput, OFFER_NOT_ELIGIBLE } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { jobAcceptedEmail, jobInstalledEmail, jobScheduledEmail } from '../mail/job-templates';
import { enqueueMail } from '../mail/outbox';
import { aboveJobAmount, recordJobOrder } from './evidence';
import { jobStatusLink } from './links';
import { closeOpenOffer, jobEvent, jobStep, offerNotOpen, routeNext, withdrawOffer } from './offers';

/** The installer's side: accept or decline an offer, then scheduled, installed or cancelled. */

type Dealer = Context & { user: User };

/** The job as its installer sees it once accepted: with the homeowner's contact. */
export function installerJob(job: Job) {
  return {
    id: job.id,
    status: job.status,
    homeowner: { fullName: job.homeownerName, email: job.homeownerEmail, phone: job.homeownerPhone },
    street: job.street,
    city: job.city,
    state: job.state,
    zipCode: job.zipCode,
    atticSqFt: job.atticSqFt,
    fans: job.fans,
    amount: job.amount,
    notes: job.notes,
    scheduledFor: job.scheduledFor,
    installedAmount: job.installedAmount,
    /** Issue 45: 'pending' while an owner checks an installed amount above the job's. */
    amountReview: job.amountReview,
  };
}

/** An offer of this installer's, or 404 (another's offer is not theirs to see). */
async function ownOffer(ctx: Dealer, id: string) {
  const offer = await findOffer(ctx.db, id);
  if (!offer || offer.dealerId !== ctx.user.id) throw new AppError('NOT_FOUND', 'Offer not found');
  return offer;
}

/**
 * Accepts an offer. Under the job's lock the installer is checked again as routing checked it
 * (issue 45, finding 8: tier, status, installer_gate_ok): one who no longer qualifies gets a 409
 * and the offer is withdrawn and passed on at once (committed before the refusal is answered).
 */
export async function acceptOffer(ctx: Dealer, id: string) {
  const offer = await ownOffer(ctx, id);
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    await shareLockDealer(trx, ctx.user.id);
    const locked = await lockJob(trx, offer.jobId);
    if (!locked) throw offerNotOpen();
    const eligible = await installerEligibility(trx, ctx.user.id, now);
    if (!eligible?.ok) {
      const why = !eligible?.installs
        ? INSTALLER_NOT_ELIGIBLE_WHY.tier
        : !eligible.standing
          ? INSTALLER_NOT_ELIGIBLE_WHY.status
          : INSTALLER_NOT_ELIGIBLE_WHY.gate;
      if (!(await withdrawOffer(trx, ctx, locked, id, `The installer can no longer take it: ${why}`, now))) {
        throw offerNotOpen();
      }
      return { refused: why as string, taken: null };
    }
    await closeOpenOffer(trx, id, 'accepted', now);
    const installer = await findDealerForJobs(trx, ctx.user.id);
    const taken = await jobStep(
      trx,
      locked,
      { status: 'accepted', installerId: ctx.user.id, updatedAt: now },
      {
        kind: 'accepted',
        actor: ctx.user.username,
        dealerId: ctx.user.id,
        message: `Accepted by ${installer?.companyName ?? ctx.user.fullName}`,
        at: now,
      },
    );
    if (installer) {
      const link = jobStatusLink(ctx.config, taken.id);
      await enqueueMail(trx, jobAcceptedEmail(taken, installer, { statusUrl: link.url }));
    }
    return { refused: null, taken };
  });
  ctx.mail.kick();
  if (!outcome.taken) throw new AppError('CONFLICT', OFFER_NOT_ELIGIBLE(outcome.refused ?? ''));
  return installerJob(outcome.taken);
}

export async function declineOffer(ctx: Dealer, id: string, reason: string) {
  const offer = await ownOffer(ctx, id);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, offer.jobId);
    if (!job) throw offerNotOpen();
    await closeOpenOffer(trx, id, 'declined', now, reason);
    await jobEvent(trx, job, {
      kind: 'declined',
      actor: ctx.user.username,
      dealerId: ctx.user.id,
      message: `Declined: ${reason}`,
      at: now,
    });
    await routeNext(trx, ctx, job, now);
  });
  ctx.mail.kick();
  return { ok: true as const };
}

const NEXT: Record<JobStatusInput['status'], readonly Job['status'][]> = {
  scheduled: ['accepted', 'scheduled'],
  installed: ['accepted', 'scheduled'],
  cancelled: ['accepted', 'scheduled'],
};

/**
 * The installer moves their job on: scheduled (a date; the homeowner gets an .ics), installed (the
 * final amount; with an amount and a seller, an order of source `job` for the seller, idempotent on
 * the job), or cancelled (a reason).
 */
export async function setJobStatus(ctx: Dealer, input: JobStatusInput) {
  const now = ctx.clock.now();
  const job = await ctx.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, input.id);
    if (!job || job.installerId !== ctx.user.id) throw new AppError('NOT_FOUND', 'Job not found');
    if (!NEXT[input.status].includes(job.status)) {
      throw new AppError('CONFLICT', `A job that is ${job.status} cannot be marked ${input.status}`);
    }
    const installer = await findDealerForJobs(trx, ctx.user.id);
    const link = jobStatusLink(ctx.config, job.id);
    const by = { actor: ctx.user.username, dealerId: ctx.user.id, at: now };
    if (input.status === 'scheduled') {
      const next = await jobStep(
        trx,
        job,
        { status: 'scheduled', scheduledFor: input.scheduledFor, updatedAt: now },
        { ...by, kind: 'scheduled', message: `Scheduled for ${input.scheduledFor}` },
      );
      if (installer) {
        await enqueueMail(trx, jobScheduledEmail(job, installer, { statusUrl: link.url, date: input.scheduledFor }));
      }
      return next;
    }
    if (input.status === 'cancelled') {
      return jobStep(
        trx,
        job,
        { status: 'cancelled', cancelReason: input.reason, updatedAt: now },
        { ...by, kind: 'cancelled', message: `Cancelled: ${input.reason}` },
      );
    }
    const amount = input.amount ?? job.amount;
    // Issue 45 (decision 1000): more than the job's amount is not the order's until an owner approves it.
    if (amount && aboveJobAmount(job, amount)) {
      const next = await jobStep(
        trx,
        job,
        { status: 'installed', requestedAmount: amount, amountReview: 'pending', updatedAt: now },
        {
          ...by,
          kind: 'installed',
          message: `Installed (${amount}, more than the job's ${job.amount ?? 'no amount'}: waiting for an owner)`,
        },
      );
      if (installer) await enqueueMail(trx, jobInstalledEmail(job, installer, { statusUrl: link.url }));
      return next;
    }
    const orderId = await recordJobOrder(trx, ctx, job, amount, now);
    const next = await jobStep(
      trx,
      job,
      { status: 'installed', installedAmount: amount, orderId, updatedAt: now },
      { ...by, kind: 'installed', message: amount ? `Installed (${amount})` : 'Installed' },
    );
    if (installer) await enqueueMail(trx, jobInstalledEmail(job, installer, { statusUrl: link.url }));
    return next;
  });
  ctx.mail.kick();
  return installerJob(job);
}
