import { z } from 'zod';
import { optionalHttpUrl, optionalText, phone } from './common';
import { CRM_NAMES } from './constants';
import { address } from './dealer';
import { TOKEN_SHAPE } from './messages';

// Issue 15: the applicant's status link, the referral typeahead, the dealer's own profile.

/**
 * The referral picker's typeahead: 3+ characters, at most 20 answers (issue 35: from 2 characters
 * and without a search, it let anyone list the network).
 */
export const PUBLIC_DEALER_SEARCH_MIN = 3;
export const PUBLIC_DEALER_SEARCH_LIMIT = 20;
export const PUBLIC_DEALER_SEARCH_MESSAGE = `Type at least ${PUBLIC_DEALER_SEARCH_MIN} characters to search`;
export const publicDealerSearch = z.object({
  q: z
    .string({ error: PUBLIC_DEALER_SEARCH_MESSAGE })
    .trim()
    .min(PUBLIC_DEALER_SEARCH_MIN, PUBLIC_DEALER_SEARCH_MESSAGE)
    .max(100, 'Search must be at most 100 characters'),
});

/** A status link's token: a token like every other (TOKEN_SHAPE). */
export const statusTokenInput = z.object({
  token: z.string().max(100, 'Unknown status link').regex(TOKEN_SHAPE, 'Unknown status link'),
});
export const STATUS_LINK_NOT_FOUND = 'This status link is not valid. It may have been revoked.';

export { APPLICATION_STAGE_LABELS, APPLICATION_STAGES, type ApplicationStage } from './status-words';

/** The dealer's own profile: the wizard's rules and messages (email and tier stay the admin's). */
export const dealerProfileInput = z.object({
  companyName: optionalText(),
  phoneE164: phone(),
  addressJson: address,
  logoUrl: optionalHttpUrl(),
  crmName: z.union([z.enum(CRM_NAMES), z.literal('')]).optional(),
  /** Whether applicants find the dealer in the referral picker (issue 35); unchanged when absent. */
  inReferralPicker: z.boolean().optional(),
});
export type DealerProfileInput = z.input<typeof dealerProfileInput>;
