import { adminScorecardsQuery, dealerScorecardInput } from '@dn/schema';
import { adminScorecards, dealerScorecard, ownScorecard } from '../services/jobs/reviews';
import { adminProcedure, dealerProcedure, rest, router } from '../trpc/init';

/** Issue 50 (decision 1101): installers' scorecards, for the installer and for the console. */
export const scorecardsRouter = router({
  mine: dealerProcedure
    .meta(
      rest(
        'GET',
        '/api/dealer/scorecard',
        "The installer's scorecard: rating, reviews, offers answered in 90 days, and their tier's medians",
      ),
    )
    .query(({ ctx }) => ownScorecard(ctx)),
  list: adminProcedure
    .meta(rest('GET', '/api/admin/scorecards', "Every installer's scorecard, sortable, with each tier's medians"))
    .input(adminScorecardsQuery)
    .query(({ ctx, input }) => adminScorecards(ctx, input)),
  dealer: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/dealers/{id}/scorecard',
        "A dealer's installer scorecard (null for a tier that does not install)",
      ),
    )
    .input(dealerScorecardInput)
    .query(({ ctx, input }) => dealerScorecard(ctx, input.id)),
});
