import { z } from 'zod';
import {
  email,
  httpUrl,
  MAX_LONG_TEXT,
  optionalCount,
  optionalHttpUrl,
  optionalText,
  phone,
  requiredText,
  uuid,
} from './common';
import {
  ADMIN_DEALERS_PAGE_SIZE,
  CRM_NAMES,
  DEALER_SORTS,
  DEALER_STATUSES,
  ENTITY_TYPES,
  INSTALLER_TIERS,
  RECRUITER_ID_MESSAGE,
  RECRUITER_ID_RE,
  TIERS,
  type Tier,
} from './constants';
import {
  PRODUCT_FOCUS_ACCEPTED,
  PRODUCT_FOCUS_AMBIGUOUS,
  PRODUCT_FOCUS_PLAIN,
  productFocusAmbiguousMessage,
} from './product-focus';

export const tier = z.enum(TIERS, { error: 'Please choose a dealer tier' });
export const dealerStatus = z.enum(DEALER_STATUSES, { error: 'Unknown status' });

export const address = z.object({
  street: requiredText('Street address is required'),
  city: requiredText('City is required'),
  state: requiredText('State required', 60).refine((v) => v.length >= 2, 'State required'),
  zipCode: requiredText('ZIP code is required', 12).refine((v) => v.length >= 5, 'ZIP code is required'),
  country: z
    .string()
    .trim()
    .max(60)
    .optional()
    .transform((v) => v || 'US'),
});

/**
 * One product focus: a qualified value ("Solar: Residential") or a plain name that is unique in
 * the taxonomy ("Wind"), stored qualified. A bare ambiguous name is refused with its choices. An
 * enum, so the OpenAPI document lists the accepted values.
 */
export const productFocus = z
  .enum(PRODUCT_FOCUS_ACCEPTED as [string, ...string[]], {
    error: (iss) => {
      const choices = typeof iss.input === 'string' ? PRODUCT_FOCUS_AMBIGUOUS[iss.input] : undefined;
      return choices ? productFocusAmbiguousMessage(iss.input as string, choices) : 'Unknown product focus';
    },
  })
  .transform((v) => PRODUCT_FOCUS_PLAIN[v] ?? v);

/** 'none' is the "No referral" choice: an answer, but no referrer. */
export const NO_REFERRAL = 'none';
/**
 * The referral picker's reference to a dealer (issue 35): opaque, 64 base64url characters, made by
 * the server for each typeahead answer and good only as a signup's `referredBy` (never a dealer id).
 */
export const REFERRAL_REF_SHAPE = /^[A-Za-z0-9_-]{64}$/;
export const REFERRAL_REQUIRED = 'Please select how you were referred';

const isInstaller = (t: Tier) => INSTALLER_TIERS.includes(t);

/**
 * The dealer application (wizard and POST /api/dealer-signup). Fields of other tiers are
 * accepted but dropped, so an Affiliate cannot carry installer answers into the record.
 */
export const dealerApplication = z
  .object({
    tier: tier.default('Affiliate'),
    fullName: requiredText('Full name is required').refine((v) => v.length >= 2, 'Full name is required'),
    companyName: optionalText(),
    email: email(),
    phoneE164: phone(),
    addressJson: address,
    entityType: z.union([z.enum(ENTITY_TYPES), z.literal('')]).optional(),
    licensedInstallers: z.boolean().default(false),
    crewCount: optionalCount(100_000),
    insuranceCertUrl: optionalHttpUrl(),
    maintainInventory: z.boolean().default(false),
    salesReps: optionalCount(100_000),
    monthlyVolume: optionalCount(100_000_000),
    crmName: z.union([z.enum(CRM_NAMES), z.literal('')]).optional(),
    permittingCapable: z.boolean().default(false),
    homePerformance: z.boolean().default(false),
    productVerticals: z.array(productFocus).max(PRODUCT_FOCUS_ACCEPTED.length).default([]),
    onboardingCallOk: z.boolean().default(false),
    dealerAgreementUrl: optionalHttpUrl(),
    logoUrl: optionalHttpUrl(),
    // Checked in superRefine, so a bad id is reported beside the referral question it leaves open.
    recruiterId: z.string().trim().max(100, RECRUITER_ID_MESSAGE).optional(),
    referredBy: z
      .union([z.string().regex(REFERRAL_REF_SHAPE, REFERRAL_REQUIRED), z.literal(NO_REFERRAL), z.literal('')], {
        error: REFERRAL_REQUIRED,
      })
      .optional(),
  })
  .superRefine((d, ctx) => {
    if (d.recruiterId && !RECRUITER_ID_RE.test(d.recruiterId)) {
      ctx.addIssue({ code: 'custom', path: ['recruiterId'], message: RECRUITER_ID_MESSAGE });
    }
    if (!(d.recruiterId && RECRUITER_ID_RE.test(d.recruiterId)) && !d.referredBy) {
      ctx.addIssue({ code: 'custom', path: ['referredBy'], message: REFERRAL_REQUIRED });
    }
    if (isInstaller(d.tier)) {
      if (!d.entityType) {
        ctx.addIssue({ code: 'custom', path: ['entityType'], message: 'Business entity type is required' });
      }
      if (d.salesReps === undefined) {
        ctx.addIssue({ code: 'custom', path: ['salesReps'], message: 'Number of sales representatives is required' });
      } else if (d.salesReps < 1) {
        ctx.addIssue({ code: 'custom', path: ['salesReps'], message: 'At least 1 sales representative is required' });
      }
      if (d.monthlyVolume === undefined) {
        ctx.addIssue({ code: 'custom', path: ['monthlyVolume'], message: 'Expected monthly volume is required' });
      } else if (d.monthlyVolume < 1) {
        ctx.addIssue({ code: 'custom', path: ['monthlyVolume'], message: 'Monthly volume must be greater than 0' });
      }
    }
    if (!d.onboardingCallOk) {
      ctx.addIssue({
        code: 'custom',
        path: ['onboardingCallOk'],
        message: 'You must agree to participate in the onboarding call',
      });
    }
  })
  .transform((d) => {
    const installer = isInstaller(d.tier);
    const preferred = d.tier === 'Preferred';
    return {
      tier: d.tier,
      fullName: d.fullName,
      companyName: d.companyName,
      email: d.email,
      phoneE164: d.phoneE164,
      addressJson: d.addressJson,
      entityType: installer ? d.entityType || undefined : undefined,
      licensedInstallers: installer ? d.licensedInstallers : false,
      crewCount: installer ? (d.crewCount ?? 0) : 0,
      insuranceCertUrl: installer ? d.insuranceCertUrl : undefined,
      maintainInventory: installer ? d.maintainInventory : false,
      salesReps: d.salesReps ?? 0,
      monthlyVolume: d.monthlyVolume ?? 0,
      crmName: d.crmName || undefined,
      permittingCapable: preferred ? d.permittingCapable : false,
      homePerformance: preferred ? d.homePerformance : false,
      productVerticals: [...new Set(d.productVerticals)],
      onboardingCallOk: d.onboardingCallOk,
      dealerAgreementUrl: d.dealerAgreementUrl,
      logoUrl: d.logoUrl,
      recruiterId: d.recruiterId || undefined,
      referredBy: d.referredBy && d.referredBy !== NO_REFERRAL ? d.referredBy : undefined,
    };
  });
export type DealerApplicationInput = z.input<typeof dealerApplication>;
export type DealerApplication = z.output<typeof dealerApplication>;

/** Fields the wizard's Next checks on each step (SPEC section 5); steps 5 and 7 check none. */
export const WIZARD_STEPS = [
  { title: 'Dealer Tier', fields: ['tier'] },
  {
    title: 'Basic Information',
    fields: [
      'fullName',
      'email',
      'phoneE164',
      'addressJson.street',
      'addressJson.city',
      'addressJson.state',
      'addressJson.zipCode',
      'referredBy',
    ],
  },
  { title: 'Business Structure', fields: ['entityType', 'crewCount', 'insuranceCertUrl'] },
  { title: 'Sales & Operations', fields: ['salesReps', 'monthlyVolume'] },
  { title: 'Installation & Focus', fields: [] },
  { title: 'Agreements & Documents', fields: ['onboardingCallOk', 'dealerAgreementUrl', 'logoUrl'] },
  { title: 'Review & Submit', fields: [] },
] as const;

/**
 * SPEC section 5 words some wizard messages shorter on the client than the server schema does
 * ('Street required' beside 'Street address is required'); API errors keep the schema's words.
 */
export const WIZARD_CLIENT_MESSAGES: Readonly<Record<string, string>> = {
  'Valid email is required': 'Valid email required',
  'Valid phone number is required': 'Valid phone required',
  'Street address is required': 'Street required',
  'City is required': 'City required',
  'ZIP code is required': 'ZIP required',
};
export const wizardClientErrors = (errors: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(errors).map(([k, m]) => [k, WIZARD_CLIENT_MESSAGES[m] ?? m]));

// --- admin inputs ---

export const dealerId = z.object({ id: uuid('Unknown dealer') });

export const rejectDealer = z.object({
  reason: requiredText('Please give a reason for the rejection', MAX_LONG_TEXT),
});
export const setDealerStatus = z.object({ status: dealerStatus });
export const upgradeDealerTier = z.object({ tier });
export const linkReferral = z.object({ referredBy: uuid('Please choose the referring dealer') });
export const clearAllDealers = z.object({
  confirm: z.literal(true, { error: 'Send { "confirm": true } to clear all dealer applications' }),
});
export const CLEAR_ALL_CONFIRM_WORD = 'DELETE';

export const dealerListQuery = z.object({
  q: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  tier: tier.optional(),
  status: dealerStatus.optional(),
  sort: z.enum(DEALER_SORTS).default('createdAt'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(ADMIN_DEALERS_PAGE_SIZE),
});
export type DealerListQuery = z.output<typeof dealerListQuery>;

export const dealerUrl = httpUrl;
