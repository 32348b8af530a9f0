import { randomUUID } from 'node:crypto';
import type { DB, Kysely } from '@dn/db';
import { findActiveLinkByRecruiterId } from '@dn/db/queries/affiliate-links';
import {
  findDealerForJobs,
  insertJobWithEvent,
  insertOffer,
  installerEligibility,
  type Job,
} from '@dn/db/queries/jobs';
import {
  type AdminCreateJobInput,
  JOB_SELF_INSTALL_NOT_READY,
  type QuoteRequestInput,
  type RegisterJobInput,
  ZIP_UNKNOWN,
} from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { ipKey } from '../../lib/ip-key';
import { zipCentroid } from '../../lib/zip';
import { hit, spendRecipient } from '../accounts/rate-limit';
import { audit } from '../audit/audit';
import { jobReceivedEmail, type ReceivedNext } from '../mail/job-templates';
import { enqueueMail } from '../mail/outbox';
import { jobStatusLink } from './links';
import { jobStep, routeNext, stepRow } from './offers';

/** A job comes in three ways (issue 37): a dealer's sold job, a homeowner's quote request, an admin's. */

type Trx = Kysely<DB>;

interface NewJob {
  origin: 'dealer' | 'quote' | 'admin';
  sellerId: string | null;
  homeowner: { fullName: string; email: string; phone: string };
  street: string;
  city: string;
  state: string;
  zipCode: string;
  atticSqFt?: number | undefined;
  fans?: number | undefined;
  amount?: string | undefined;
  notes?: string | undefined;
}

export function centroidOf(zipCode: string) {
  const c = zipCentroid(zipCode);
  if (!c) throw new AppError('INVALID_INPUT', ZIP_UNKNOWN, { fieldErrors: { zipCode: ZIP_UNKNOWN } });
  return c;
}

/**
 * Stores the job, queues the homeowner's "received" email with the status link, then routes it
 * (or, for a dealer who installs their own sale, gives it to them).
 */
async function openJob(trx: Trx, ctx: Context, j: NewJob, installBy: string | null, actor: string) {
  const now = ctx.clock.now();
  const c = centroidOf(j.zipCode);
  const id = randomUUID();
  const link = jobStatusLink(ctx.config, id);
  const job: Job = await insertJobWithEvent(
    trx,
    {
      id,
      origin: j.origin,
      sellerId: j.sellerId,
      status: 'offered',
      homeownerName: j.homeowner.fullName,
      homeownerEmail: j.homeowner.email,
      homeownerPhone: j.homeowner.phone,
      street: j.street,
      city: j.city,
      state: j.state,
      zipCode: j.zipCode,
      latitude: c.latitude,
      longitude: c.longitude,
      atticSqFt: j.atticSqFt ?? null,
      fans: j.fans ?? null,
      amount: j.amount ?? null,
      notes: j.notes ?? null,
      statusTokenHash: link.hash,
      createdAt: now,
      updatedAt: now,
    },
    stepRow({ kind: 'created', actor, message: `Registered (${j.origin})`, at: now }),
  );
  if (installBy) {
    await insertOffer(trx, {
      jobId: id,
      dealerId: installBy,
      distanceMiles: '0.0',
      status: 'assigned',
      offeredAt: now,
      expiresAt: now,
      respondedAt: now,
    });
    const status = await selfInstall(trx, job, installBy, actor, now);
    await mailHomeowner(trx, ctx, j, job, link.url, { kind: 'seller' });
    return { id, status };
  }
  const routed = await routeNext(trx, ctx, job, now);
  // Last in the transaction: the mailbox's budget row stays locked only until the commit.
  await mailHomeowner(
    trx,
    ctx,
    j,
    job,
    link.url,
    routed.status === 'offered' ? { kind: 'offered', by: routed.expiresAt } : { kind: 'unrouted' },
  );
  return { id, status: routed.status };
}

/**
 * The homeowner's "received" email. A dealer's or an admin's job spends the homeowner's mailbox
 * budget as a quote request does (issue 45, decision 1021: at most 5 emails an hour to one mailbox,
 * `+tag` and case variants included), counted in this transaction so parallel registrations count
 * one after the other. Past it the job is still registered and its status link works; the email is
 * not sent, and the audit trail says so. A quote request spent the budget before (it refuses).
 */
async function mailHomeowner(trx: Trx, ctx: Context, j: NewJob, job: Job, statusUrl: string, next: ReceivedNext) {
  if (j.origin !== 'quote') {
    const recipient = await spendRecipient(trx, ctx.limits.mailPerRecipient, j.homeowner.email);
    if (!recipient.allowed) {
      await audit(trx, ctx, {
        eventType: 'job.homeowner_mail_limited',
        category: 'system',
        message: 'The homeowner was not emailed about a new job: too many emails to this address this hour',
        details: { jobId: job.id, origin: j.origin },
        success: false,
      });
      return;
    }
  }
  // The email says by when an installer answers (issue 47).
  await enqueueMail(trx, jobReceivedEmail(job, { statusUrl, next, replyTo: ctx.config.replyTo }));
}

async function selfInstall(trx: Trx, job: Job, dealerId: string, actor: string, now: Date) {
  await jobStep(
    trx,
    job,
    { status: 'accepted', installerId: dealerId, updatedAt: now },
    { kind: 'accepted', actor, dealerId, message: 'The seller installs it', at: now },
  );
  return 'accepted' as const;
}

/** A dealer registers a job they sold: an Affiliate's is always routed; an installer's is theirs unless handed off. */
export async function registerJob(ctx: Context & { user: User }, input: RegisterJobInput) {
  centroidOf(input.zipCode);
  const dealer = await findDealerForJobs(ctx.db, ctx.user.id);
  if (!dealer) throw new AppError('NOT_FOUND', 'Dealer not found');
  const installs = dealer.tier !== 'Affiliate' && input.handOff !== true;
  const result = await ctx.db.transaction().execute(async (trx) => {
    // Issue 45 (finding 1): installing one's own sale passes the gate an offered job passes (routing's
    // condition and installer_gate_ok), read in this transaction.
    if (installs && !(await installerEligibility(trx, dealer.id, ctx.clock.now()))?.ok) {
      throw new AppError('FORBIDDEN', JOB_SELF_INSTALL_NOT_READY, {
        fieldErrors: { handOff: JOB_SELF_INSTALL_NOT_READY },
      });
    }
    return openJob(
      trx,
      ctx,
      { ...input, origin: 'dealer', sellerId: dealer.id },
      installs ? dealer.id : null,
      dealer.email,
    );
  });
  ctx.mail.kick();
  return result;
}

/**
 * A homeowner's quote request (public): per-address and per-recipient budgets as the call booking's;
 * a filled honeypot is answered as a success and stores nothing; a referral names the seller.
 */
export async function requestQuote(ctx: Context, input: QuoteRequestInput) {
  if (input.website) return { id: randomUUID(), status: 'offered' as const };
  centroidOf(input.zipCode);
  await hit(ctx.db, `quote:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.callPerIp);
  const link = input.recruiterId ? await findActiveLinkByRecruiterId(ctx.db, input.recruiterId) : undefined;
  const result = await ctx.db.transaction().execute(async (trx) => {
    const recipient = await spendRecipient(trx, ctx.limits.mailPerRecipient, input.email);
    if (!recipient.allowed) throw recipient.error;
    const { fullName, email, phone, ...site } = input;
    return openJob(
      trx,
      ctx,
      { ...site, origin: 'quote', sellerId: link?.dealerId ?? null, homeowner: { fullName, email, phone } },
      null,
      'homeowner',
    );
  });
  ctx.mail.kick();
  return result;
}

/** An admin creates a job (routed). */
export async function createJobByAdmin(ctx: Context & { user: User }, input: AdminCreateJobInput) {
  centroidOf(input.zipCode);
  if (input.sellerId && !(await findDealerForJobs(ctx.db, input.sellerId))) {
    throw new AppError('INVALID_INPUT', 'Seller not found', { fieldErrors: { sellerId: 'Seller not found' } });
  }
  const result = await ctx.db
    .transaction()
    .execute((trx) =>
      openJob(trx, ctx, { ...input, origin: 'admin', sellerId: input.sellerId ?? null }, null, ctx.user.username),
    );
  ctx.mail.kick();
  return result;
}
