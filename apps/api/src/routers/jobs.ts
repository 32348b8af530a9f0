import {
  adminCreateJobInput,
  adminJobsQuery,
  assignJobInput,
  declineOfferInput,
  installationAnswerInput,
  jobAmountDecisionInput,
  jobIdInput,
  jobReviewInput,
  jobStatusInput,
  jobStatusToken,
  offerIdInput,
  quoteRequestInput,
  registerJobInput,
  routingInput,
  serviceAreaInput,
} from '@dn/schema';
import { assignJob, coverageMap, jobTimeline, listJobs, setRouting } from '../services/jobs/admin';
import { getServiceArea, putServiceArea, resumeOwnServiceArea } from '../services/jobs/areas';
import { answerInstallation, decideJobAmount, releaseJobCommission } from '../services/jobs/evidence';
import { acceptOffer, declineOffer, setJobStatus } from '../services/jobs/installer';
import { createJobByAdmin, registerJob, requestQuote } from '../services/jobs/intake';
import { reviewInstallation } from '../services/jobs/reviews';
import { tierReviews } from '../services/jobs/scores';
import { jobListVersion, jobStatusPage, ownJobs, ownJobsVersion, ownOffers } from '../services/jobs/views';
import {
  adminProcedure,
  alone,
  dealerProcedure,
  ownerProcedure,
  publicProcedure,
  rest,
  reviewerProcedure,
  router,
} from '../trpc/init';

/** The installation network (issue 37): service areas, jobs, offers, quote requests, the admin's queue. */
export const jobsRouter = router({
  serviceArea: dealerProcedure
    .meta(rest('GET', '/api/dealer/service-area', "The installer's service area (Authorized and Preferred)"))
    .query(({ ctx }) => getServiceArea(ctx)),
  saveServiceArea: dealerProcedure
    .meta(rest('PUT', '/api/dealer/service-area', 'Sets the home ZIP, radius, weekly capacity and pause'))
    .input(serviceAreaInput)
    .mutation(({ ctx, input }) => putServiceArea(ctx, input)),
  // Issue 50: an area routing paused after offers expired in a row is resumed by its installer.
  resumeServiceArea: dealerProcedure
    .meta(rest('POST', '/api/dealer/service-area/resume', 'Resumes job offers: unpauses the service area'))
    .mutation(({ ctx }) => resumeOwnServiceArea(ctx)),
  register: dealerProcedure
    .meta(alone)
    .meta(
      rest('POST', '/api/dealer/jobs', 'Registers a sold job: routed to an installer, or installed by the seller', {
        created: true,
      }),
    )
    .input(registerJobInput)
    .mutation(({ ctx, input }) => registerJob(ctx, input)),
  mine: dealerProcedure
    .meta({ ...rest('GET', '/api/dealer/jobs', 'The jobs this dealer sold or installs'), version: jobListVersion })
    .query(({ ctx }) => ownJobs(ctx)),
  offers: dealerProcedure
    .meta({
      ...rest('GET', '/api/dealer/job-offers', "The installer's open offers (no homeowner contact)"),
      version: ownJobsVersion,
    })
    .query(({ ctx }) => ownOffers(ctx)),
  accept: dealerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/dealer/job-offers/{id}/accept', "Accepts an offer: the job with the homeowner's contact"))
    .input(offerIdInput)
    .mutation(({ ctx, input }) => acceptOffer(ctx, input.id)),
  // Issue 45: passing the job on no longer emails (unrouted jobs go to the digest): not `alone`.
  decline: dealerProcedure
    // The next installer's offer email is queued in the decline's transaction (issue 47).
    .meta(alone)
    .meta(rest('POST', '/api/dealer/job-offers/{id}/decline', 'Declines an offer with a reason; it passes on at once'))
    .input(declineOfferInput)
    .mutation(({ ctx, input }) => declineOffer(ctx, input.id, input.reason)),
  setStatus: dealerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/dealer/jobs/{id}/status', 'The installer marks a job scheduled, installed or cancelled'))
    .input(jobStatusInput)
    .mutation(({ ctx, input }) => setJobStatus(ctx, input)),
  requestQuote: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/quote-requests', "A homeowner's installation quote request", { created: true }))
    .input(quoteRequestInput)
    .mutation(({ ctx, input }) => requestQuote(ctx, input)),
  statusPage: publicProcedure
    .meta(rest('GET', '/api/installation-status/{token}', "The homeowner's installation status (private link)"))
    .input(jobStatusToken)
    .query(({ ctx, input }) => jobStatusPage(ctx, input.token)),
  answerInstallation: publicProcedure
    .meta(
      rest(
        'POST',
        '/api/installation-status/{token}/confirm',
        'The homeowner answers once whether the installation was completed (confirmed: true) or not (false)',
      ),
    )
    .input(installationAnswerInput)
    .mutation(({ ctx, input }) => answerInstallation(ctx, input.token, input.confirmed)),
  // Issue 50 (decision 1100): once installed, the homeowner rates the job once (the status page asks with the confirmation).
  reviewInstallation: publicProcedure
    .meta(
      rest(
        'POST',
        '/api/installation-status/{token}/review',
        'The homeowner rates the installed job once: 1 to 5 stars, an optional text comment, consent to show it publicly',
        { created: true },
      ),
    )
    .input(jobReviewInput)
    .mutation(({ ctx, input }) => {
      const { token, ...review } = input;
      return reviewInstallation(ctx, token, review);
    }),
  decideAmount: ownerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/jobs/{id}/amount',
        "An owner approves an installed amount above the job's (approve) or keeps the job's amount (reject)",
      ),
    )
    .input(jobAmountDecisionInput)
    .mutation(({ ctx, input }) => decideJobAmount(ctx, input.id, input.decision)),
  releaseCommission: ownerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/jobs/{id}/release-commission',
        "An owner releases a job's commission held for the homeowner's confirmation",
      ),
    )
    .input(jobIdInput)
    .mutation(({ ctx, input }) => releaseJobCommission(ctx, input.id)),
  adminJobs: adminProcedure
    .meta(rest('GET', '/api/admin/jobs', 'Jobs: unrouted first, then newest; by status and state'))
    .input(adminJobsQuery)
    .query(({ ctx, input }) => listJobs(ctx, input)),
  coverage: adminProcedure
    .meta(rest('GET', '/api/admin/jobs/coverage', 'Demand and installers by state, and ZIP codes no installer covers'))
    .query(({ ctx }) => coverageMap(ctx)),
  adminTimeline: adminProcedure
    .meta(rest('GET', '/api/admin/jobs/{id}/timeline', "A job's offers, declines, expiries and assignments"))
    .input(jobIdInput)
    .query(({ ctx, input }) => jobTimeline(ctx, input.id)),
  adminCreate: reviewerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/admin/jobs', 'Creates a job and routes it', { created: true }))
    .input(adminCreateJobInput)
    .mutation(({ ctx, input }) => createJobByAdmin(ctx, input)),
  assign: reviewerProcedure
    .meta(alone)
    .meta(rest('POST', '/api/admin/jobs/{id}/assign', 'Assigns or reassigns a job to an installer'))
    .input(assignJobInput)
    .mutation(({ ctx, input }) => assignJob(ctx, input.id, input.dealerId)),
  // Issue 50 (decision 1124): the month's suggested tier changes, with the evidence.
  tierReviews: reviewerProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/tier-reviews',
        "This month's suggested tier changes: Preferred installers scoring below the Authorized median, Authorized ones above the Preferred median (last 90 days)",
      ),
    )
    .query(({ ctx }) => tierReviews(ctx)),
  setRouting: ownerProcedure
    .meta(rest('PUT', '/api/admin/routing', 'Sets how many hours an installer has to answer an offer'))
    .input(routingInput)
    .mutation(({ ctx, input }) => setRouting(ctx, input.offerHours)),
});
