import { publicDealerSearch, updateFirstOrderForm, updateLandingVideo } from '@dn/schema';
import { claimIdInput, claimInput, claimsQuery, updateClaimInput } from '@dn/schema/claims';
import { claimsForOwners, claimsInEffect, createClaim, editClaim, removeClaim } from '../services/content/claims';
import {
  dealerFirstOrderForm,
  listFirstOrderForms,
  updateFirstOrderFormConfig,
} from '../services/content/first-order-forms';
import { landingVideos, listLandingVideosForAdmin, updateLandingVideoConfig } from '../services/content/landing-videos';
import { publicDealers } from '../services/content/public-dealers';
import { adminProcedure, dealerProcedure, ownerProcedure, publicProcedure, rest, router } from '../trpc/init';

/**
 * Content: landing videos, first-order forms and the public dealer list, as the site, the portal
 * and the admin see them.
 */

/** Part of `site.*`: the landing videos and the referral picker. */
export const contentSite = router({
  publicDealers: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/dealers/public',
        "The referral picker: q (3+ characters) matches the start of a name or company, or of their words; at most 20 approved or active dealers who stay in the picker, ranked, as { ref, fullName, companyName }: ref is opaque, new in every answer, and good only as a signup's referredBy (24 hours)",
      ),
    )
    .input(publicDealerSearch)
    .query(({ ctx, input }) => publicDealers(ctx, input.q)),
  landingVideos: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/landing-videos',
        'Landing videos with the extracted Vimeo player URL (never the raw embed code)',
      ),
    )
    .query(({ ctx }) => landingVideos(ctx)),
  claims: publicProcedure
    .meta(
      rest(
        'GET',
        '/api/claims',
        'The homeowner claims and incentives in effect today: those for everyone, and with zip (5 digits) those for that ZIP or its state; percent, amount and cap as strings with two decimals, dates as YYYY-MM-DD',
      ),
    )
    .input(claimsQuery)
    .query(({ ctx, input }) => claimsInEffect(ctx, input.zip)),
});

/** Part of `account.*`: the dealer's first-order form. */
export const contentAccount = router({
  firstOrderForm: dealerProcedure
    .meta(rest('GET', '/api/first-order-forms', "The first-order form of the signed-in dealer's tier"))
    .query(({ ctx }) => dealerFirstOrderForm(ctx)),
});

/** Part of `admin.*`: the landing videos and first-order forms as configured. */
export const contentAdmin = router({
  firstOrderForms: adminProcedure
    .meta(rest('GET', '/api/admin/first-order-forms', 'First-order form configuration of every tier'))
    .query(({ ctx }) => listFirstOrderForms(ctx)),
  updateFirstOrderForm: ownerProcedure
    .meta(
      rest(
        'PUT',
        '/api/admin/first-order-forms/{tier}',
        "Sets a tier's Google Form URL (https, normalised) and required flag (always on for Authorized and Preferred)",
      ),
    )
    .input(updateFirstOrderForm)
    .mutation(({ ctx, input }) => updateFirstOrderFormConfig(ctx, input)),
  landingVideos: adminProcedure
    .meta(rest('GET', '/api/admin/landing-videos', 'Landing videos as configured (title, key, stored player URL)'))
    .query(({ ctx }) => listLandingVideosForAdmin(ctx)),
  updateLandingVideo: ownerProcedure
    .meta(
      rest(
        'PUT',
        '/api/admin/landing-videos/{videoId}',
        'Sets a landing video title and Vimeo embed (only the extracted player URL is stored)',
      ),
    )
    .input(updateLandingVideo)
    .mutation(({ ctx, input }) => updateLandingVideoConfig(ctx, input)),
  claims: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/claims',
        'Every homeowner claim and incentive, in effect or not, with today by the clock',
      ),
    )
    .query(({ ctx }) => claimsForOwners(ctx)),
  createClaim: ownerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/claims',
        'Adds a homeowner claim or incentive: text, kind, percent or amount (cap with a percent), source, effective dates, state or ZIP prefixes',
      ),
    )
    .input(claimInput)
    .mutation(({ ctx, input }) => createClaim(ctx, input)),
  updateClaim: ownerProcedure
    .meta(
      rest('PUT', '/api/admin/claims/{id}', 'Replaces a homeowner claim or incentive (the same fields as adding one)'),
    )
    .input(updateClaimInput)
    .mutation(({ ctx, input }) => editClaim(ctx, input)),
  deleteClaim: ownerProcedure
    .meta(rest('DELETE', '/api/admin/claims/{id}', 'Removes a homeowner claim or incentive'))
    .input(claimIdInput)
    .mutation(({ ctx, input }) => removeClaim(ctx, input.id)),
});
