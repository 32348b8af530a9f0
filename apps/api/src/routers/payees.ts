import {
  paymentSettingsInput,
  payoutProfileInput,
  payoutReturnInput,
  taxThresholdInput,
  taxYearQuery,
} from '@dn/schema';
import { savePayoutDetails } from '../services/commissions/payee-details';
import {
  getPaymentSettings,
  ownStatement,
  recordReturn,
  setPaymentSettings,
  setTaxThreshold,
  taxThreshold,
} from '../services/commissions/payout-files';
import { getPayoutProfile } from '../services/payees/profile';
import { adminProcedure, alone, dealerProcedure, ownerProcedure, rest, router } from '../trpc/init';

/**
 * Paying dealers (issue 39): payout details and W-9, statements, payment settings, returns and
 * the 1099-NEC threshold. The bank file, check register, tax report and statement CSV are file
 * downloads, hand-written routes (http/payees.ts).
 */
export const payeesRouter = router({
  profile: dealerProcedure
    .meta(
      rest(
        'GET',
        '/api/dealer/payout-profile',
        'Your payout details and W-9 (last 4 digits only) and whether they are complete',
      ),
    )
    .query(({ ctx }) => getPayoutProfile(ctx)),
  // Issue 45: a change of destination checks the password and emails the dealer.
  saveProfile: dealerProcedure
    .meta(alone)
    .meta(
      rest(
        'PUT',
        '/api/dealer/payout-profile',
        'Saves your payout details (ACH or check) and signs the W-9 (certify: true)',
      ),
    )
    .input(payoutProfileInput)
    .mutation(({ ctx, input }) => savePayoutDetails(ctx, input)),
  statement: dealerProcedure
    .meta(rest('GET', '/api/dealer/statement', 'What was paid to you in a year, payment by payment'))
    .input(taxYearQuery)
    .query(({ ctx, input }) => ownStatement(ctx, input.year)),
  settings: ownerProcedure
    .meta(rest('GET', '/api/admin/payment-settings', 'The ACH originator (company name, id, bank) and the 1099 payer'))
    .query(({ ctx }) => getPaymentSettings(ctx)),
  setSettings: ownerProcedure
    .meta(rest('PUT', '/api/admin/payment-settings', 'Sets the ACH originator and the 1099 payer'))
    .input(paymentSettingsInput)
    .mutation(({ ctx, input }) => setPaymentSettings(ctx, input)),
  threshold: adminProcedure
    .meta(rest('GET', '/api/admin/tax/thresholds/{year}', "A year's 1099-NEC threshold (an owner's, or the law's)"))
    .input(taxYearQuery)
    .query(({ ctx, input }) => taxThreshold(ctx, input.year)),
  setThreshold: ownerProcedure
    .meta(rest('PUT', '/api/admin/tax/thresholds/{year}', "Sets a year's 1099-NEC threshold"))
    .input(taxThresholdInput)
    .mutation(({ ctx, input }) => setTaxThreshold(ctx, input)),
  recordReturn: ownerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/payouts/{id}/returns',
        'Marks a payment returned by the bank (return code): its amount is approved again and the dealer emailed',
      ),
    )
    .input(payoutReturnInput)
    .mutation(({ ctx, input }) => recordReturn(ctx, input)),
});
