import { dealerId } from '@dn/schema';
import { revokeStatusLink, statusLinkState } from '../services/applications/status-link';
import { adminProcedure, rest, reviewerProcedure, router } from '../trpc/init';

/** An applicant's private status link, seen and revoked from the admin's dealer timeline (issue 15). */
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
