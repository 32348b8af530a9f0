import {
  ADMIN_JOBS_PAGE,
  coverage,
  coverageByArea,
  distanceFromArea,
  findDealerForJobs,
  insertOffer,
  jobMoney,
  listJobEvents,
  listJobsForAdmin,
  lockJob,
  setOfferHours,
} from '@dn/db/queries/jobs';
import type { AdminJobsQuery } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { jobAcceptedEmail } from '../mail/job-templates';
import { enqueueMail } from '../mail/outbox';
import { jobStatusLink } from './links';
import { jobStep, releaseJob } from './offers';

/** The admin's side: the jobs queue (unrouted first), a job's timeline, assignment, routing settings. */

type Admin = Context & { user: User };

export async function listJobs(ctx: Admin, q: AdminJobsQuery) {
  const rows = await listJobsForAdmin(ctx.db, q);
  const page = rows.slice(0, ADMIN_JOBS_PAGE);
  // Issue 45: what an owner decides on a job: an installed amount above the job's, a held commission.
  const money = new Map(
    (
      await jobMoney(
        ctx.db,
        page.map((r) => r.id),
      )
    ).map((m) => [m.id, m]),
  );
  return {
    items: page.map((r) => {
      const m = money.get(r.id);
      return {
        ...r,
        createdAt: r.createdAt.toISOString(),
        installedAmount: m?.installedAmount ?? null,
        requestedAmount: m?.amountReview === 'pending' ? m.requestedAmount : null,
        amountReview: m?.amountReview ?? null,
        homeownerAnswer: m?.homeownerAnswer ?? null,
        selfInstalled: m?.sellerId != null && m.sellerId === m.installerId,
        commission: m?.commissionId
          ? { status: m.commissionStatus, releaseNeeds: m.releaseNeeds, amount: m.commissionAmount }
          : null,
      };
    }),
    page: q.page,
    hasMore: rows.length > ADMIN_JOBS_PAGE,
  };
}

export async function jobTimeline(ctx: Admin, id: string) {
  const events = await listJobEvents(ctx.db, id);
  return { items: events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })) };
}

/** Assigns (or reassigns) a job to an installer by hand: any open offer is withdrawn, the holder released. */
export async function assignJob(ctx: Admin, id: string, dealerId: string) {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, id);
    if (!job) throw new AppError('NOT_FOUND', 'Job not found');
    if (job.status === 'installed' || job.status === 'cancelled') {
      throw new AppError('CONFLICT', `A job that is ${job.status} cannot be assigned`);
    }
    const dealer = await findDealerForJobs(trx, dealerId);
    if (!dealer || dealer.tier === 'Affiliate' || !['approved', 'active'].includes(dealer.status)) {
      const message = 'Choose an approved or active Authorized or Preferred dealer';
      throw new AppError('INVALID_INPUT', message, { fieldErrors: { dealerId: message } });
    }
    await releaseJob(trx, id, now);
    const miles = await distanceFromArea(trx, dealerId, job.latitude, job.longitude);
    await insertOffer(trx, {
      jobId: id,
      dealerId,
      distanceMiles: (miles ?? 0).toFixed(1),
      status: 'assigned',
      offeredAt: now,
      expiresAt: now,
      respondedAt: now,
    });
    const company = dealer.companyName ?? dealer.fullName;
    const next = await jobStep(
      trx,
      job,
      { status: 'accepted', installerId: dealerId, scheduledFor: null, updatedAt: now },
      {
        kind: 'assigned',
        actor: ctx.user.username,
        dealerId,
        message: `Assigned to ${company} by ${ctx.user.username}`,
        at: now,
      },
    );
    await audit(trx, ctx, {
      eventType: 'job.assigned',
      category: 'admin',
      message: `${ctx.user.username} assigned job ${id} to ${company}`,
      dealerId,
      details: { jobId: id, from: job.installerId },
    });
    await enqueueMail(trx, jobAcceptedEmail(next, dealer, { statusUrl: jobStatusLink(ctx.config, id).url }));
    return { id, status: next.status, installerId: dealerId };
  });
  ctx.mail.kick();
  return result;
}

export async function setRouting(ctx: Admin, offerHours: number) {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await setOfferHours(trx, offerHours, ctx.user.username, ctx.clock.now());
    await audit(trx, ctx, {
      eventType: 'routing.updated',
      category: 'admin',
      message: `${ctx.user.username} set the offer deadline to ${offerHours} hours`,
      details: { offerHours },
    });
    return { offerHours: row.offerHours };
  });
}

/**
 * The coverage map's figures (counts as numbers): demand and installers by state, uncovered ZIP codes;
 * by ZIP area (issue 47, item 7, decision 1072): demand against coverage, installers' reach, and the
 * ranked areas to recruit in.
 */
export async function coverageMap(ctx: Admin) {
  const [c, a] = await Promise.all([coverage(ctx.db), coverageByArea(ctx.db)]);
  const based = new Map(a.installers.map((r) => [r.area, Number(r.installers)]));
  return {
    demand: c.demand.map((r) => ({ state: r.state, jobs: Number(r.jobs) })),
    installers: c.installers.map((r) => ({ state: r.state, installers: Number(r.installers) })),
    uncovered: c.uncovered.map((r) => ({ ...r, requests: Number(r.requests) })),
    // Issue 47, item 7: by ZIP area (the first three digits), where the requests are and who is based there.
    areas: a.demand
      .map((r) => ({
        area: r.area,
        state: r.state,
        jobs: Number(r.jobs),
        waiting: Number(r.waiting),
        installers: based.get(r.area) ?? 0,
        latitude: Number(r.latitude),
        longitude: Number(r.longitude),
      }))
      .sort((x, y) => y.waiting - x.waiting || y.jobs - x.jobs || x.area.localeCompare(y.area)),
    // Where installers are based, by area, and the farthest any of them reaches (the map's rings).
    reach: a.installers.map((r) => ({
      area: r.area,
      installers: Number(r.installers),
      latitude: Number(r.latitude),
      longitude: Number(r.longitude),
      miles: Number(r.reachMiles),
    })),
    // Ranked: where to recruit (requests waiting with no installer in range).
    recruit: a.recruit.map((r) => ({
      area: r.area,
      state: r.state,
      requests: Number(r.requests),
      cities: r.cities,
      zipCodes: r.zipCodes,
      waitingSince: new Date(r.oldest).toISOString(),
      installers: based.get(r.area) ?? 0,
    })),
  };
}
