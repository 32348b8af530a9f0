import type { DB, Kysely } from '@dn/db';
import { findJobByStatusToken, type Job, lockJob } from '@dn/db/queries/jobs';
import {
  displayMoney,
  INSTALLATION_ALREADY_ANSWERED,
  INSTALLATION_NOT_INSTALLED,
  JOB_AMOUNT_NOT_PENDING,
  JOB_COMMISSION_NOT_HELD,
  JOB_HELD_REASONS,
  JOB_STATUS_LINK_NOT_FOUND,
  parseCents,
} from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { sha256 } from '../../lib/tokens';
import { audit } from '../audit/audit';
import * as ledger from '../commissions/ledger';
import { flagJobRisk } from '../commissions/referral-flags';
import { recordOrderIn } from '../orders/record';
import { jobStep } from './offers';

/**
 * Job amounts and commissions on evidence (issue 45, finding 1; decisions 1000, 1001):
 *
 *   - an installed amount above the amount registered or quoted (or any amount when none was) is not
 *     the order's amount until an owner approves it: the job is installed with the figure pending
 *     (amount_review), and the owner approves it or keeps the job's amount; the order follows then;
 *   - the order of a job earns its recruiter a `held` commission (commissions/earn.ts) that the
 *     homeowner's confirmation on the status page, or an owner, releases; a dispute flags the
 *     referral for an owner in Risk.
 */

type Trx = Kysely<DB>;
type Admin = Context & { user: User };

/** Whether `amount` needs an owner: more than the job's amount, or any amount on a job that had none. */
export function aboveJobAmount(job: Pick<Job, 'amount'>, amount: string): boolean {
  if (job.amount === null) return true;
  return (parseCents(amount) ?? 0n) > (parseCents(job.amount) ?? 0n);
}

/**
 * Records the installed job's order for its seller (source `job`, idempotent on the job), at
 * `amount`; null when there is no seller or no amount (nothing is owed on it).
 */
export async function recordJobOrder(trx: Trx, ctx: Context, job: Job, amount: string | null, at: Date) {
  if (!amount || !job.sellerId) return null;
  const recorded = await recordOrderIn(trx, ctx, {
    source: 'job',
    dealer: { dealerId: job.sellerId },
    orderId: `job-${job.id}`,
    amount,
    orderedAt: at.toISOString(),
    status: 'placed',
    job: { id: job.id, sellerInstalled: job.installerId !== null && job.installerId === job.sellerId },
  });
  return recorded.order.id;
}

/**
 * An owner decides an installed amount above the job's: `approve` records the order at the
 * installer's figure, `reject` at the job's registered amount (none when it had none). Once.
 */
export async function decideJobAmount(ctx: Admin, id: string, decision: 'approve' | 'reject') {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, id);
    if (!job) throw new AppError('NOT_FOUND', 'Job not found');
    if (job.status !== 'installed' || job.amountReview !== 'pending') {
      throw new AppError('CONFLICT', JOB_AMOUNT_NOT_PENDING);
    }
    const amount = decision === 'approve' ? job.requestedAmount : job.amount;
    const orderId = await recordJobOrder(trx, ctx, job, amount, now);
    const word = decision === 'approve' ? 'approved' : 'rejected';
    const asked = job.requestedAmount ? displayMoney(job.requestedAmount) : 'no amount';
    const next = await jobStep(
      trx,
      job,
      {
        installedAmount: amount,
        orderId,
        amountReview: word,
        amountReviewedBy: ctx.user.username,
        amountReviewedAt: now,
        updatedAt: now,
      },
      {
        kind: `amount_${word}`,
        actor: ctx.user.username,
        message:
          decision === 'approve'
            ? `Installed amount ${asked} approved by ${ctx.user.username}`
            : `Installed amount ${asked} not approved by ${ctx.user.username}; ${amount ? `the job's ${displayMoney(amount)} stands` : 'no amount recorded'}`,
        at: now,
      },
    );
    await audit(trx, ctx, {
      eventType: `job.amount_${word}`,
      category: 'admin',
      message: `${ctx.user.username} ${word} the installed amount ${asked} of job ${id} (registered ${job.amount ? displayMoney(job.amount) : 'none'})`,
      dealerId: job.installerId,
      details: { jobId: id, registered: job.amount, requested: job.requestedAmount, recorded: amount, orderId },
    });
    return { id, amountReview: word, installedAmount: next.installedAmount, orderId };
  });
}

/** The homeowner's question on the status page: only once the job is installed at a settled amount. */
export function canAnswer(job: Pick<Job, 'status' | 'amountReview' | 'homeownerAnswer'>) {
  return job.status === 'installed' && job.amountReview !== 'pending' && job.homeownerAnswer === null;
}

/**
 * The homeowner answers, once, from the status link: the installation was done (the job's held
 * commission waits for nothing more but its referral's flag) or not (it waits for an owner, and the
 * referral is flagged for Risk).
 */
export async function answerInstallation(ctx: Context, token: string, confirmed: boolean) {
  const found = await findJobByStatusToken(ctx.db, sha256(token));
  if (!found) throw new AppError('NOT_FOUND', JOB_STATUS_LINK_NOT_FOUND);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, found.id);
    if (!job) throw new AppError('NOT_FOUND', JOB_STATUS_LINK_NOT_FOUND);
    if (job.homeownerAnswer !== null) throw new AppError('CONFLICT', INSTALLATION_ALREADY_ANSWERED);
    if (!canAnswer(job)) throw new AppError('CONFLICT', INSTALLATION_NOT_INSTALLED);
    const answer = confirmed ? ('confirmed' as const) : ('disputed' as const);
    const amount = job.installedAmount ? ` (${displayMoney(job.installedAmount)})` : '';
    await jobStep(
      trx,
      job,
      { homeownerAnswer: answer, homeownerAnsweredAt: now, updatedAt: now },
      {
        kind: `homeowner_${answer}`,
        actor: 'homeowner',
        message: confirmed
          ? `The homeowner confirmed the installation${amount}`
          : `The homeowner said the installation was not completed${amount}`,
        at: now,
      },
    );
    const moved = job.orderId ? await ledger.installationAnswered(trx, job.orderId, confirmed) : [];
    let flagged = false;
    if (!confirmed && job.orderId) {
      const entry = await ledger.jobCommission(trx, job.orderId);
      if (entry?.recruiterDealerId && entry.status !== 'voided' && entry.status !== 'cancelled') {
        // Released by an owner before the answer: pending again is held (as any flag holds its referral's).
        if (entry.status === 'pending') await ledger.hold(trx, entry.referredDealerId);
        await flagJobRisk(trx, ctx, {
          referredDealerId: entry.referredDealerId,
          recruiterDealerId: entry.recruiterDealerId,
          signal: 'installation_disputed',
          reason: `${JOB_HELD_REASONS.disputed} (job in ${job.city}, ${job.state}${amount})`,
          jobId: job.id,
        });
        flagged = true;
      }
    }
    await audit(trx, ctx, {
      eventType: `job.homeowner_${answer}`,
      category: 'system',
      message: `The homeowner ${answer} the installation of job ${job.id}${amount}`,
      dealerId: job.installerId,
      details: { jobId: job.id, orderId: job.orderId, commissionIds: moved.map((m) => m.id), flagged },
    });
    return { answer, answeredAt: now.toISOString() };
  });
}

/**
 * An owner releases a job's held commission (the homeowner did not answer, or the owner checked it):
 * pending, unless its referral has an open flag (then it waits for the owner's decision in Risk).
 */
export async function releaseJobCommission(ctx: Admin, id: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, id);
    if (!job) throw new AppError('NOT_FOUND', 'Job not found');
    const moved = job.orderId ? await ledger.releaseJobCommission(trx, job.orderId) : [];
    const entry = moved[0];
    if (!entry) throw new AppError('CONFLICT', JOB_COMMISSION_NOT_HELD);
    const now = ctx.clock.now();
    await jobStep(
      trx,
      job,
      { updatedAt: now },
      {
        kind: 'commission_released',
        actor: ctx.user.username,
        message: `Commission released by ${ctx.user.username}${entry.status === 'held' ? ' (still held by an open Risk flag)' : ''}`,
        at: now,
      },
    );
    await audit(trx, ctx, {
      eventType: 'commission.released',
      category: 'admin',
      message: `${ctx.user.username} released the commission of job ${id}${entry.status === 'held' ? '; its referral has an open Risk flag, so it stays held until that is decided' : ''}`,
      dealerId: entry.referredDealerId,
      details: { jobId: id, commissionId: entry.id, before: { status: 'held' }, after: { status: entry.status } },
    });
    return { id, commissionId: entry.id, status: entry.status as 'pending' | 'held' };
  });
}
