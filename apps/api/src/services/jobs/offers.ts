import type { DB, Kysely } from '@dn/db';
import {
  closeOffer,
  findOffer,
  findOpenOffer,
  ineligibleOpenOffers,
  insertJobEvent,
  insertOpenOffer,
  type Job,
  lockJob,
  lockJobIfFree,
  nextInstaller,
  type RoutedInstaller,
  releaseTakenOffer,
  updateJobWithEvent,
} from '@dn/db/queries/jobs';
import { queueUnroutedAlert } from '@dn/db/queries/unrouted-alerts';
import type { Deps } from '../../context';
import { AppError } from '../../lib/app-error';
import { queueOfferEmail } from './offer-mail';
import { pauseAfterExpiries } from './pause';

/**
 * The one owner of a job's offers (decision 0911): offering to the next installer, accepting,
 * declining, expiring and assigning. Every transition runs in the caller's transaction after the
 * job's row lock (lockJob), so two of them on one job never interleave; each closes an offer with a
 * conditional update (open -> ...), and the partial unique indexes refuse a second open or taken
 * offer. Every step is written to the job's timeline (job_events).
 */

type Trx = Kysely<DB>;
const HOUR_MS = 60 * 60 * 1000;

/** The start of the capacity week (decision 0912): Monday 00:00 UTC of `now`'s week. */
export function weekStart(now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - sinceMonday * 24 * HOUR_MS);
}

/** A step on a job's timeline. */
export interface Step {
  kind: string;
  actor: string;
  message: string;
  dealerId?: string | null;
  at: Date;
}

export const stepRow = (e: Step) => ({
  kind: e.kind,
  actor: e.actor,
  message: e.message,
  dealerId: e.dealerId ?? null,
  createdAt: e.at,
});

export async function jobEvent(trx: Trx, job: { id: string }, e: Step) {
  await insertJobEvent(trx, { jobId: job.id, ...stepRow(e) });
}

/** A change of the job and its step on the timeline, in one statement; the job as changed. */
export function jobStep(trx: Trx, job: { id: string }, values: Parameters<typeof updateJobWithEvent>[2], e: Step) {
  return updateJobWithEvent(trx, job.id, values, stepRow(e));
}

/** Where routing left a job: offered (until `expiresAt`), or unrouted. */
export type Routed = { status: 'offered'; expiresAt: Date } | { status: 'unrouted' };

/**
 * Offers the job (its row locked) to the next eligible installer, or, when there is none, marks it
 * unrouted and queues it once for the team's digest (only when it was not unrouted already).
 */
export async function routeNext(trx: Trx, deps: Deps, job: Job, now: Date): Promise<Routed> {
  const next = await nextInstaller(trx, {
    jobId: job.id,
    latitude: job.latitude,
    longitude: job.longitude,
    sellerId: job.sellerId,
    now,
    weekStart: weekStart(now),
  });
  if (next) {
    const offer = await insertOpenOffer(trx, {
      jobId: job.id,
      dealerId: next.dealerId,
      distanceMiles: Number(next.distanceMiles).toFixed(1),
      offeredAt: now,
    });
    const hours = Math.round((offer.expiresAt.getTime() - now.getTime()) / HOUR_MS);
    await jobStep(
      trx,
      job,
      { status: 'offered', installerId: null, updatedAt: now },
      {
        kind: 'offered',
        actor: 'routing',
        dealerId: next.dealerId,
        message: `${offeredWhy(next)}; open for ${hours} hours`,
        at: now,
      },
    );
    await queueOfferEmail(trx, deps, offer.id);
    return { status: 'offered', expiresAt: offer.expiresAt };
  }
  await jobStep(
    trx,
    job,
    { status: 'unrouted', installerId: null, updatedAt: now },
    { kind: 'unrouted', actor: 'routing', message: 'No installer in range took it', at: now },
  );
  // The team hears of it in the next digest (issue 45, decision 1022: at most one every 15 minutes).
  if (job.status !== 'unrouted') await queueUnroutedAlert(trx, job.id, now);
  return { status: 'unrouted' };
}

/**
 * Why routing chose the installer (issue 50, decision 1122), as the owners read it on the timeline:
 * "Offered to Roe Attic: Preferred, score 4.6, 8.3 miles" (the tier's median when they have no
 * history yet).
 */
export function offeredWhy(next: RoutedInstaller) {
  const score = `score ${Number(next.score).toFixed(1)}${next.cold ? ` (the ${next.tier} median: no history yet)` : ''}`;
  return `Offered to ${next.name}: ${next.tier}, ${score}, ${Number(next.distanceMiles).toFixed(1)} miles`;
}

export const offerNotOpen = () => new AppError('CONFLICT', 'This offer is no longer open');

/**
 * Closes the open offer `offerId` of the job as `to`, after the job's lock; the offer must still be
 * open and (unless expiring) within its deadline, else 409.
 */
export async function closeOpenOffer(
  trx: Trx,
  offerId: string,
  to: 'accepted' | 'declined' | 'expired',
  now: Date,
  reason: string | null = null,
) {
  const offer = await findOffer(trx, offerId);
  if (offer?.status !== 'open') throw offerNotOpen();
  const late = offer.expiresAt.getTime() <= now.getTime();
  if (late !== (to === 'expired')) throw offerNotOpen();
  const closed = await closeOffer(trx, offerId, to, now, reason);
  if (!closed) throw offerNotOpen();
  return closed;
}

/** The expiry sweep's step for one offer: expired and passed on, or nothing if it is no longer due. */
export async function expireOffer(deps: Deps, offer: { id: string; jobId: string }): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, offer.jobId);
    if (!job) return false;
    const closed = await closeOpenOffer(trx, offer.id, 'expired', now).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'CONFLICT') return null;
      throw err;
    });
    if (!closed) return false;
    await jobEvent(trx, job, {
      kind: 'expired',
      actor: 'routing',
      dealerId: closed.dealerId,
      message: 'The offer expired without an answer',
      at: now,
    });
    // Three in a row pause the installer's area, and they hear why (issue 50, decision 1123).
    await pauseAfterExpiries(trx, deps, closed.dealerId, now);
    await routeNext(trx, deps, job, now);
    return true;
  });
}

/** Takes the job away from whoever holds it or has it on offer (an admin's assignment). */
export async function releaseJob(trx: Trx, jobId: string, now: Date) {
  const open = await findOpenOffer(trx, jobId);
  if (open) await closeOffer(trx, open.id, 'withdrawn', now);
  await releaseTakenOffer(trx, jobId);
}

/**
 * Withdraws the job's (locked) open offer `offerId` because its installer may no longer install, and
 * passes the job on at once (issue 45, finding 8). False when the offer was no longer open.
 */
export async function withdrawOffer(trx: Trx, deps: Deps, job: Job, offerId: string, message: string, now: Date) {
  const closed = await closeOffer(trx, offerId, 'withdrawn', now);
  if (!closed) return false;
  await jobEvent(trx, job, { kind: 'withdrawn', actor: 'routing', dealerId: closed.dealerId, message, at: now });
  await routeNext(trx, deps, job, now);
  return true;
}

const INELIGIBLE = 'Withdrawn: the installer can no longer take jobs (status, tier or compliance changed)';

/**
 * The open offers of `dealerIds` whose installer no longer qualifies are withdrawn and passed on, in
 * the caller's transaction (the one that suspended or downgraded them: Deps.offers, decision 1002).
 */
export async function withdrawIneligibleIn(trx: Trx, deps: Deps, dealerIds: readonly string[]) {
  const now = deps.clock.now();
  let withdrawn = 0;
  for (const o of await ineligibleOpenOffers(trx, now, dealerIds, 10_000)) {
    // This transaction holds the dealers' rows: it never waits on a job (a decline or an expiry
    // holding it may be waiting on the dealer); a job it skips is the sweep's.
    const job = await lockJobIfFree(trx, o.jobId);
    if (job && (await withdrawOffer(trx, deps, job, o.id, INELIGIBLE, now))) withdrawn++;
  }
  return withdrawn;
}

/**
 * The `jobs.ineligible-offers` sweep: every open offer whose installer no longer qualifies (a
 * compliance document expired overnight, or any change made without the hook) is withdrawn and the
 * job passed on, each in its own transaction after the job's lock (checked again there).
 */
export async function withdrawIneligibleOffers(deps: Deps): Promise<number> {
  let handled = 0;
  for (;;) {
    const due = await ineligibleOpenOffers(deps.db, deps.clock.now(), undefined, 100);
    let progressed = 0;
    for (const o of due) {
      const done = await deps.db.transaction().execute(async (trx) => {
        const job = await lockJob(trx, o.jobId);
        if (!job) return false;
        const still = await ineligibleOpenOffers(trx, deps.clock.now(), [o.dealerId], 10_000);
        if (!still.some((s) => s.id === o.id)) return false;
        return withdrawOffer(trx, deps, job, o.id, INELIGIBLE, deps.clock.now());
      });
      if (done) progressed++;
    }
    handled += progressed;
    if (due.length < 100 || progressed === 0) break;
  }
  if (handled > 0) deps.mail.kick();
  return handled;
}
