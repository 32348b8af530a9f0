import {
  approveCommissionsInput,
  commissionListQuery,
  commissionRuleInput,
  createPayoutInput,
  markPayeePaidInput,
  markPayoutPaidInput,
  ownCommissionsQuery,
  payoutPayeesInput,
  referralFlagInput,
  voidCommissionInput,
} from '@dn/schema';
import { ownCommissions } from '../services/commissions/own';
import {
  createPayout,
  listPayoutPayees,
  listPayouts,
  markPayeePaid,
  markPayoutPaid,
} from '../services/commissions/payouts';
import { decideFlag } from '../services/commissions/referral-flags';
import { approveCommissions, listCommissions, voidCommission } from '../services/commissions/review';
import { listCommissionRules, setCommissionRule } from '../services/commissions/rules';
import { adminProcedure, alone, dealerProcedure, ownerProcedure, rest, reviewerProcedure, router } from '../trpc/init';

/**
 * Commissions, their rules and payouts (issue 13). The payout CSV is a file download, a
 * hand-written route (http/exports.ts).
 */
export const commissionsRouter = router({
  rules: adminProcedure
    .meta(rest('GET', '/api/admin/commission-rules', 'The commission rule in force per tier of the referred dealer'))
    .query(({ ctx }) => listCommissionRules(ctx)),
  setRule: ownerProcedure
    .meta(
      rest(
        'PUT',
        '/api/admin/commission-rules/{tier}',
        'Sets the rule of a tier as a new version (percent or fixed; first order or all within N months; holding days)',
      ),
    )
    .input(commissionRuleInput)
    .mutation(({ ctx, input }) => setCommissionRule(ctx, input)),
  list: adminProcedure
    .meta(
      rest('GET', '/api/admin/commissions', 'One page of the commission ledger (status, recruiter, dates) with totals'),
    )
    .input(commissionListQuery)
    .query(({ ctx, input }) => listCommissions(ctx, input)),
  approve: reviewerProcedure
    .meta(rest('POST', '/api/admin/commissions/approve', 'Approves pending commissions whose holding period is over'))
    .input(approveCommissionsInput)
    .mutation(({ ctx, input }) => approveCommissions(ctx, input.ids)),
  void: reviewerProcedure
    .meta(
      rest('POST', '/api/admin/commissions/{id}/void', 'Voids a commission that is not paid or batched, with a reason'),
    )
    .input(voidCommissionInput)
    .mutation(({ ctx, input }) => voidCommission(ctx, input.id, input.reason)),
  payouts: adminProcedure
    .meta(rest('GET', '/api/admin/payouts', 'Payout batches, newest first'))
    .query(({ ctx }) => listPayouts(ctx)),
  createPayout: ownerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/payouts',
        'Batches the approved commissions of recruiters at or above a minimum (default 50.00)',
      ),
    )
    .input(createPayoutInput)
    .mutation(({ ctx, input }) => createPayout(ctx, input.minimum)),
  markPaid: ownerProcedure
    .meta(alone)
    .meta(
      rest('POST', '/api/admin/payouts/{id}/paid', 'Marks a batch paid with its reference and emails each recruiter'),
    )
    .input(markPayoutPaidInput)
    .mutation(({ ctx, input }) => markPayoutPaid(ctx, input.id, input.reference)),
  payoutPayees: adminProcedure
    .meta(rest('GET', '/api/admin/payouts/{id}/payees', "A batch's payees: their amount and whether they are paid"))
    .input(payoutPayeesInput)
    .query(({ ctx, input }) => listPayoutPayees(ctx, input.id)),
  markPayeePaid: ownerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/payouts/{id}/payees/{recruiterId}/paid',
        'Marks one payee of a batch paid as of today and emails them; the batch is paid when every payee is',
      ),
    )
    .input(markPayeePaidInput)
    .mutation(({ ctx, input }) => markPayeePaid(ctx, input)),
  clearReferralFlag: ownerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/referral-flags/{id}/clear',
        'Clears a flagged referral (it matched its recruiter): its held commissions become pending',
      ),
    )
    .input(referralFlagInput)
    .mutation(({ ctx, input }) => decideFlag(ctx, input.id, 'clear')),
  voidReferralFlag: ownerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/referral-flags/{id}/void',
        'Voids a flagged referral: its held commissions are voided and its later orders earn nothing',
      ),
    )
    .input(referralFlagInput)
    .mutation(({ ctx, input }) => decideFlag(ctx, input.id, 'void')),
  own: dealerProcedure
    .meta(
      rest('GET', '/api/affiliate/commissions', "The signed-in recruiter's earnings summary and commissions, paged"),
    )
    .input(ownCommissionsQuery)
    .query(({ ctx, input }) => ownCommissions(ctx, input.page)),
});
