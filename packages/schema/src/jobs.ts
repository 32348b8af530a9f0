import { z } from 'zod';
import { email, pageNumber, phone, recruiterId, requiredText, uuid } from './common';
import { MAX_ORDER_CENTS, money } from './money';
import {
  CONSENT_REQUIRED,
  MAX_LONG_TEXT,
  notesTooLong,
  QUOTE_RULES,
  SITE_RULES,
  STATE_CODE,
  STATE_REQUIRED,
  US_STATES,
  wholeNumberWords,
  ZIP_FORMAT,
  ZIP_RE,
  ZIP_REQUIRED,
} from './quote-rules';

/** The installation network (issue 37): service areas, jobs, offers, quote requests. */

import { JOB_STATUSES } from './status-words';

export { JOB_STATUS_LABELS, JOB_STATUSES, type JobStatus } from './status-words';
export const DEFAULT_OFFER_HOURS = 24;
/** Ties within this many miles of the nearest installer go to the one with the fewest recent offers. */
export const TIE_MILES = 5;
export const RADIUS_MIN = 5;
export const RADIUS_MAX = 200;

export { CONSENT_REQUIRED, US_STATES, ZIP_FORMAT } from './quote-rules';
export const ZIP_UNKNOWN = 'ZIP code is not a known US ZIP code';
export const OFFER_NOT_OPEN = 'This offer is no longer open';
export const SERVICE_AREA_TIERS_ONLY = 'Only Authorized and Preferred dealers install jobs';
export const JOB_STATUS_LINK_NOT_FOUND = 'This status link is not valid';

export const zipCode = () =>
  z
    .string({ error: ZIP_REQUIRED })
    .trim()
    .min(1, ZIP_REQUIRED)
    .regex(ZIP_RE, ZIP_FORMAT)
    .transform((v) => v.slice(0, 5));

const usState = z
  .string({ error: STATE_REQUIRED })
  .trim()
  .max(2, STATE_CODE)
  .toUpperCase()
  .pipe(z.enum(US_STATES, { error: STATE_CODE }));

const wholeNumber = (label: string, min: number, max: number) => {
  const w = wholeNumberWords(label, min, max);
  return z.number({ error: w.type }).int(w.type).min(min, w.min).max(max, w.max);
};

const isoDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date like 2026-12-01`)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
    }, `${label} must be a date like 2026-12-01`);

export const serviceAreaInput = z.object({
  zipCode: zipCode(),
  radiusMiles: wholeNumber('Radius', RADIUS_MIN, RADIUS_MAX),
  weeklyCapacity: wholeNumber('Weekly capacity', 1, 500).optional(),
  paused: z.boolean({ error: 'Paused must be true or false' }).default(false),
  pausedUntil: isoDate('Paused until').nullish(),
});
export type ServiceAreaInput = z.infer<typeof serviceAreaInput>;

const site = {
  street: requiredText(SITE_RULES.street.required, SITE_RULES.street.max),
  city: requiredText(SITE_RULES.city.required, SITE_RULES.city.max),
  state: usState,
  zipCode: zipCode(),
  atticSqFt: wholeNumber(SITE_RULES.atticSqFt.label, SITE_RULES.atticSqFt.min, SITE_RULES.atticSqFt.max).optional(),
  fans: wholeNumber(SITE_RULES.fans.label, SITE_RULES.fans.min, SITE_RULES.fans.max).optional(),
  notes: z.string().trim().max(MAX_LONG_TEXT, notesTooLong).optional(),
};

const homeowner = z.object({
  fullName: requiredText('Homeowner name is required', 120),
  email: email('Homeowner email is required'),
  phone: phone('Homeowner phone is required'),
});

export const jobAmount = money({
  required: 'Amount is required',
  invalid: 'Amount must be dollars and cents, like 1234.50',
  min: 1n,
  max: MAX_ORDER_CENTS,
  tooSmall: 'Amount must be greater than 0',
});

export const registerJobInput = z.object({
  homeowner,
  ...site,
  amount: jobAmount.optional(),
  handOff: z.boolean({ error: 'Hand off must be true or false' }).optional(),
});
export type RegisterJobInput = z.infer<typeof registerJobInput>;

export const adminCreateJobInput = registerJobInput.omit({ handOff: true }).extend({ sellerId: uuid().optional() });
export type AdminCreateJobInput = z.infer<typeof adminCreateJobInput>;

export const quoteRequestInput = z.object({
  fullName: requiredText(QUOTE_RULES.fullName.required, QUOTE_RULES.fullName.max),
  email: email(QUOTE_RULES.email.required),
  phone: phone(),
  ...site,
  consent: z.literal(true, { error: CONSENT_REQUIRED }),
  /** The honeypot: a field people never see; a bot that fills it is answered as if it worked. */
  website: z.string().max(500).optional(),
  recruiterId: recruiterId().optional(),
});
export type QuoteRequestInput = z.infer<typeof quoteRequestInput>;

export const offerIdInput = z.object({ id: uuid('Offer id must be a valid id') });
export const declineOfferInput = offerIdInput.extend({
  reason: requiredText('Reason is required', 500),
});

export const jobStatusInput = z.discriminatedUnion(
  'status',
  [
    z.object({ id: uuid(), status: z.literal('scheduled'), scheduledFor: isoDate('Scheduled date') }),
    z.object({ id: uuid(), status: z.literal('installed'), amount: jobAmount.optional() }),
    z.object({ id: uuid(), status: z.literal('cancelled'), reason: requiredText('Reason is required', 500) }),
  ],
  { error: 'Status must be scheduled, installed or cancelled' },
);
export type JobStatusInput = z.infer<typeof jobStatusInput>;

export const adminJobsQuery = z.object({
  status: z.enum(JOB_STATUSES, { error: `Status must be one of ${JOB_STATUSES.join(', ')}` }).optional(),
  state: usState.optional(),
  page: pageNumber(),
});
export type AdminJobsQuery = z.infer<typeof adminJobsQuery>;

export const assignJobInput = z.object({
  id: uuid('Job id must be a valid id'),
  dealerId: uuid('Dealer id must be a valid id'),
});
export const routingInput = z.object({ offerHours: wholeNumber('Offer hours', 1, 168) });
export const jobStatusToken = z.object({ token: requiredText('Token is required', 200) });
export const jobIdInput = z.object({ id: uuid('Job id must be a valid id') });

/** The console's Jobs section search params (decision 0875): a refused status shows every job. */
export const adminJobsSearch = z.object({
  status: z.enum(JOB_STATUSES).optional().catch(undefined),
});
export type AdminJobsSearch = z.infer<typeof adminJobsSearch>;

// Issue 45 (decisions 1000-1002): amounts and commissions on evidence, installers re-checked.

/** A dealer who has not passed the installer gate registers a job to install it themselves. */
export const JOB_SELF_INSTALL_NOT_READY =
  'You can install your own jobs once your onboarding is done (agreement signed, insurance and licence current) and your account is approved. Until then, register the job with "hand off" so a network installer does it.';
/** An installer who is no longer eligible tries to accept an offer; the offer passed on. */
export const OFFER_NOT_ELIGIBLE = (why: string) =>
  `You can no longer take this offer (${why}); it was passed to another installer`;
export const INSTALLER_NOT_ELIGIBLE_WHY = {
  tier: 'your tier does not install jobs',
  status: 'your account is not approved or active',
  gate: 'your agreement, insurance or licence is not current',
} as const;
export const JOB_AMOUNT_NOT_PENDING = 'This job has no installed amount waiting for an owner';
export const JOB_COMMISSION_NOT_HELD = "No commission of this job is waiting for the homeowner's answer or an owner";
export const INSTALLATION_NOT_INSTALLED =
  'This installation is not marked installed yet (or its amount is being checked); you can answer once it is';
export const INSTALLATION_ALREADY_ANSWERED = 'This installation was already answered';
/** Why a job's commission is held (the ledger's audit row and the console). */
export const JOB_HELD_REASONS = {
  installation: 'Waiting for the homeowner to confirm the installation on their status page',
  selfDealing: 'The seller installed its own job (self-dealing): an owner releases it in Risk',
  disputed: 'The homeowner disputed the installation: an owner decides in Risk',
} as const;
/** What the installer reads when their installed amount is above the job's. */
export const JOB_AMOUNT_REVIEW_NOTE =
  "The installed amount is more than the job's registered amount: an owner checks the difference before the order is recorded";

export const installationAnswerInput = jobStatusToken.extend({
  confirmed: z.boolean({ error: 'Confirmed must be true or false' }),
});
export type InstallationAnswerInput = z.infer<typeof installationAnswerInput>;

export const jobAmountDecisionInput = jobIdInput.extend({
  decision: z.enum(['approve', 'reject'], { error: 'Decision must be approve or reject' }),
});
export type JobAmountDecisionInput = z.infer<typeof jobAmountDecisionInput>;
