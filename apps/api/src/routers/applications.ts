import { dealerApplication, dealerId, statusTokenInput } from '@dn/schema';
import { signup } from '../services/applications/signup';
import { applicationStatus, revokeStatusLink, statusLinkState } from '../services/applications/status-link';
import { adminProcedure, alone, publicProcedure, rest, reviewerProcedure, router } from '../trpc/init';

/** Applications: the signup, and the applicant's private status link (issue 15). */

/** Part of `site.*`: the signup and the applicant's status page. */
export const applicationsSite = router({
  signup: publicProcedure
    .meta(alone)
    .meta(rest('POST', '/api/dealer-signup', 'Submits a dealer application (stored as pending)'))
    .input(dealerApplication)
    .mutation(({ ctx, input }) => signup(ctx, input)),
  applicationStatus: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/application-status/{token}',
        "The applicant's private status page: stage, the reason when rejected, what happens next (404 once revoked)",
      ),
    )
    .input(statusTokenInput)
    .query(({ ctx, input }) => applicationStatus(ctx, input.token)),
});

/** `statusLinks.*`: the status link seen and revoked from the admin's dealer timeline. */
export const statusLinksRouter = router({
  revoke: reviewerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/dealers/{id}/status-link/revoke',
        "Revokes the applicant's private status link (404 from then on)",
      ),
    )
    .input(dealerId)
    .mutation(({ ctx, input }) => revokeStatusLink(ctx, input.id)),
  state: adminProcedure
    .meta(rest('GET', '/api/admin/dealers/{id}/status-link', "Whether the applicant's status link is live"))
    .input(dealerId)
    .query(({ ctx, input }) => statusLinkState(ctx, input.id)),
});
