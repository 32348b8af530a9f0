import { createAffiliateLink, resetPassword, setupPassword } from '@dn/schema';
import { dealerFirstOrderForm, dealerInfo, requestPasswordReset, setupPasswordWithToken } from '../services/account';
import { affiliateStats, createLink } from '../services/affiliate-links';
import { dealerProcedure, publicProcedure, router } from '../trpc/init';

/** Accounts and the dealer portal (issue: accounts). */
export const accountRouter = router({
  setupPassword: publicProcedure.input(setupPassword).mutation(({ ctx, input }) => setupPasswordWithToken(ctx, input)),
  resetPassword: publicProcedure.input(resetPassword).mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
  info: dealerProcedure.query(({ ctx }) => dealerInfo(ctx)),
  firstOrderForm: dealerProcedure.query(({ ctx }) => dealerFirstOrderForm(ctx)),
  createAffiliateLink: dealerProcedure.input(createAffiliateLink).mutation(({ ctx, input }) => createLink(ctx, input)),
  affiliateStats: dealerProcedure.query(({ ctx }) => affiliateStats(ctx)),
});
