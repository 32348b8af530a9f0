import { JsonText } from '@dn/db/json-text';
import {
  findDealerForJobs,
  findJobByStatusToken,
  findOpenOffer,
  listJobEvents,
  type OwnJobJson,
  type OwnOfferJson,
  readOwnJobsJson,
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

type Part = 'offers' | 'jobs';
interface OwnRead {
  want: Set<Part>;
  result: Promise<{ offers: string | null; jobs: string | null }>;
}

/**
 * The reads of a request's offers and job list not yet sent, by the request (its `meta`, which every
 * procedure's context of one request shares): the dashboard's batch asks for both side by side, and
 * they are read in one statement (readOwnJobsJson, decision 1320). A read waits until the calls of
 * this turn of the event loop have asked (setImmediate), then runs with the parts asked for.
 */
const pendingReads = new WeakMap<object, OwnRead>();

function readOwn(ctx: Dealer, part: Part): Promise<string> {
  let read = pendingReads.get(ctx.meta);
  if (!read) {
    const want = new Set<Part>();
    const key = ctx.meta;
    read = {
      want,
      result: new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pendingReads.delete(key);
        return readOwnJobsJson(ctx.db, ctx.user.id, ctx.clock.now(), {
          offers: want.has('offers'),
          jobs: want.has('jobs'),
        });
      }),
    };
    pendingReads.set(key, read);
  }
  read.want.add(part);
  return read.result.then((r) => r[part] ?? '[]');
}

/** Open offers: where and what, never the homeowner's contact; written by PostgreSQL (decision 1320). */
export async function ownOffers(ctx: Dealer) {
  return { items: new JsonText<OwnOfferJson[]>(await readOwn(ctx, 'offers')) };
}

/**
 * The jobs this dealer sold or installs. The installer sees the homeowner's contact; the seller sees
 * the status, the installer's company and phone, and while offered whom it waits on and by when
 * (never the offer itself). Written by PostgreSQL in the statement that reads them (decision 1320).
 */
export async function ownJobs(ctx: Dealer) {
  return { items: new JsonText<OwnJobJson[]>(await readOwn(ctx, 'jobs')) };
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
