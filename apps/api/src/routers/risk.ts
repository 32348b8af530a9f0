import { riskDecisionInput, riskListQuery } from '@dn/schema';
import { decideFlag, listRisk } from '../services/commissions/referral-flags';
import { ownerProcedure, rest, reviewerProcedure, router } from '../trpc/init';

/**
 * Risk (issue 39): the flagged referrals with their evidence, and an owner's decision with a reason.
 * The older /api/admin/referral-flags/{id}/clear|void (issue 35) stay as they were (decision 0964).
 */
export const riskRouter = router({
  list: reviewerProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/risk',
        'Flagged referrals (status: open, cleared or voided) with their signals and what is held',
      ),
    )
    .input(riskListQuery)
    .query(({ ctx, input }) => listRisk(ctx, input.status)),
  clear: ownerProcedure
    .meta(
      rest('POST', '/api/admin/risk/{id}/clear', 'Clears a flag with a reason: its held commissions become pending'),
    )
    .input(riskDecisionInput)
    .mutation(({ ctx, input }) => decideFlag(ctx, input.id, 'clear', input.reason)),
  void: ownerProcedure
    .meta(rest('POST', '/api/admin/risk/{id}/void', 'Voids a flag with a reason: its held commissions are never paid'))
    .input(riskDecisionInput)
    .mutation(({ ctx, input }) => decideFlag(ctx, input.id, 'void', input.reason)),
});
