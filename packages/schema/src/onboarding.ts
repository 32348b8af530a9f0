import { z } from 'zod';
import { requiredText, singleLine, uuid } from './common';
import { TIERS, type Tier } from './constants';
import { money, parseCents } from './money';

/**
 * The onboarding checklist of an approved dealer (issue 38): the dealer agreement, the onboarding
 * call, the initial inventory, the insurance certificate and the contractor licence.
 */

export const ONBOARDING_STEP_KEYS = [
  'agreement',
  'onboardingCall',
  'initialInventory',
  'insurance',
  'license',
] as const;
export type OnboardingStepKey = (typeof ONBOARDING_STEP_KEYS)[number];

/** The steps of each tier, in the order the dealer meets them. */
export const ONBOARDING_STEPS: Record<Tier, readonly OnboardingStepKey[]> = {
  Affiliate: ['agreement', 'onboardingCall'],
  Authorized: ['agreement', 'onboardingCall', 'initialInventory', 'insurance', 'license'],
  Preferred: ['agreement', 'onboardingCall', 'initialInventory', 'insurance', 'license'],
};

export const ONBOARDING_STEP_LABELS: Record<OnboardingStepKey, string> = {
  agreement: 'Sign the dealer agreement',
  onboardingCall: 'Book and hold your onboarding call',
  initialInventory: 'Pay your initial inventory',
  insurance: 'Insurance certificate verified',
  license: 'Contractor licence verified',
};

/** The onboarding call is due this many business days after approval (SPEC: "within 5 business days"). */
export const ONBOARDING_CALL_BUSINESS_DAYS = 5;
/** Reminders before an insurance or licence expiry, in days. */
export const COMPLIANCE_REMINDER_DAYS = [30, 7] as const;
/** The onboarding call reminder goes this many hours before the call. */
export const ONBOARDING_CALL_REMINDER_HOURS = 24;
export const ONBOARDING_CALL_STATUSES = ['booked', 'held', 'no_show'] as const;
export type OnboardingCallStatus = (typeof ONBOARDING_CALL_STATUSES)[number];

export const ONBOARDING_MESSAGES = {
  agreementOutdated: 'This agreement version has been replaced: read the current version and sign it.',
  agreementAlreadySigned: 'You have already signed this version of the agreement.',
  signatureMismatch: 'Type your full name exactly as it appears on your account',
  acceptRequired: 'Tick the box to accept the agreement',
  noTierAgreement: 'There is no agreement for your tier yet.',
  notApproved: 'Your onboarding starts once your application is approved.',
  callInPast: 'Choose a time in the future',
  callOutsideHours: 'Choose a business day between 9 AM and 8 PM Eastern Time',
  callHeld: 'Your onboarding call has already been held.',
  rescheduleLinkInvalid: 'This reschedule link has expired or was already used. Sign in to book a new time.',
  callNotBooked: 'This dealer has not booked an onboarding call yet.',
  notInstallerTier: 'This step applies to Authorized and Preferred dealers only.',
  upfrontOverRequired: 'The upfront amount cannot be more than the required amount',
} as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return ISO_DATE.test(v) && !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
};
/** A calendar date field, `label` naming it in its messages. */
export const dateField = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(10, `${label} must be a date like 2027-01-31`)
    .refine(isRealDate, `${label} must be a date like 2027-01-31`);

export const tierParam = z.enum(TIERS, { error: 'Tier must be Affiliate, Authorized or Preferred' });
export const installerTierParam = z.enum(['Authorized', 'Preferred'], {
  error: 'Tier must be Authorized or Preferred',
});

/** PUT /api/admin/agreements/{tier} */
export const agreementTextInput = z.object({
  tier: tierParam,
  text: requiredText('Agreement text is required', 100_000),
});
export type AgreementTextInput = z.infer<typeof agreementTextInput>;

/** POST /api/dealer/agreement/sign */
export const signAgreementInput = z.object({
  version: z.number({ error: 'Version is required' }).int('Version is required').positive('Version is required'),
  signatureName: singleLine(requiredText('Type your full name to sign', 200)),
  accept: z.literal(true, { error: ONBOARDING_MESSAGES.acceptRequired }),
});
export type SignAgreementInput = z.infer<typeof signAgreementInput>;

/** "  jane   DOE " and "Jane Doe" are the same signature: case and spacing aside. */
export function normalizeSignatureName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** An IANA time zone this runtime knows. */
const timeZone = z
  .string({ error: 'Time zone is required' })
  .trim()
  .min(1, 'Time zone is required')
  .max(64, 'Time zone must be like America/New_York')
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'Time zone must be like America/New_York');

/** POST /api/dealer/onboarding-call: a start time on the free call's calendar. */
export const bookOnboardingCallInput = z.object({
  date: dateField('Date'),
  time: z
    .string({ error: 'Time is required' })
    .trim()
    .regex(/^([01]\d|2[0-3]):(00|15|30|45)$/, 'Time must be like 14:30, on the quarter hour'),
  timeZone,
});
export type BookOnboardingCallInput = z.infer<typeof bookOnboardingCallInput>;

/** POST /api/onboarding-call/reschedule: the emailed one-time link, without signing in. */
export const rescheduleOnboardingCallInput = bookOnboardingCallInput.extend({
  token: z.string({ error: 'Reschedule link is invalid' }).trim().min(20, 'Reschedule link is invalid').max(200),
});

/** POST /api/admin/dealers/{id}/onboarding-call/status */
export const onboardingCallStatusInput = z.object({
  id: uuid('Unknown dealer'),
  status: z.enum(['held', 'no_show'], { error: 'Status must be held or no_show' }),
});

const MAX_INVENTORY_CENTS = 9_999_999_999_99n;

/** POST /api/admin/dealers/{id}/inventory-payments */
export const inventoryPaymentInput = z.object({
  id: uuid('Unknown dealer'),
  amount: money({
    required: 'Amount is required',
    invalid: 'Amount must be dollars and cents like 5000.00',
    min: 1n,
    max: MAX_INVENTORY_CENTS,
    tooSmall: 'Amount must be more than 0.00',
  }),
  paidOn: dateField('Paid on'),
  reference: requiredText('Reference is required', 200),
});
export type InventoryPaymentInput = z.infer<typeof inventoryPaymentInput>;

/** PUT /api/admin/onboarding-settings/{tier} */
export const inventorySettingsInput = z
  .object({
    tier: installerTierParam,
    inventoryRequired: money({
      required: 'Required amount is required',
      invalid: 'Required amount must be dollars and cents like 5000.00',
      max: MAX_INVENTORY_CENTS,
    }),
    inventoryUpfront: money({
      required: 'Upfront amount is required',
      invalid: 'Upfront amount must be dollars and cents like 2500.00',
      max: MAX_INVENTORY_CENTS,
    }),
  })
  .refine((v) => (parseCents(v.inventoryUpfront) ?? 0n) <= (parseCents(v.inventoryRequired) ?? 0n), {
    message: ONBOARDING_MESSAGES.upfrontOverRequired,
    path: ['inventoryUpfront'],
  });

/** GET /api/admin/dealers/{id}/onboarding */
export const dealerOnboardingQuery = z.object({ id: uuid('Unknown dealer') });

export const ONBOARDING_FILTERS = ['incomplete', 'overdue'] as const;
export type OnboardingFilter = (typeof ONBOARDING_FILTERS)[number];

/** GET /api/admin/onboarding/dealers: approved dealers whose onboarding is incomplete or overdue. */
export const onboardingListQuery = z.object({
  filter: z.enum(ONBOARDING_FILTERS, { error: 'Filter must be incomplete or overdue' }),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type OnboardingListQuery = z.infer<typeof onboardingListQuery>;

/** The onboarding column of a page of the dealer list (tRPC only). */
export const onboardingSummariesInput = z.object({
  ids: z.array(uuid('Unknown dealer')).max(200, 'At most 200 dealers at once'),
});
