import { z } from 'zod';
import { requiredText, uuid } from './common';
import { tier } from './dealer';
import { money, parseCents } from './money';

/** Commissions, their rules and payouts (issue 13). Money is text with two decimals. */

export const COMMISSION_STATUSES = ['pending', 'held', 'approved', 'paid', 'voided'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];
export const DEFAULT_HOLD_DAYS = 30;
export const DEFAULT_PAYOUT_MINIMUM = '50.00';
export const COMMISSIONS_PAGE_SIZE = 20;

const holdDays = z.coerce
  .number({ error: 'Holding period must be a number of days' })
  .int('Holding period must be a whole number of days')
  .min(0, 'Holding period cannot be negative')
  .max(365, 'Holding period must be at most 365 days');

/** PUT /api/admin/commission-rules/{tier} */
export const commissionRuleInput = z
  .object({
    tier,
    type: z.enum(['percent', 'fixed'], { error: 'Type must be percent or fixed' }),
    value: money({
      required: 'Value is required',
      invalid: 'Value must be a number with at most two decimals, like 10.00',
      max: 1_000_000_00n,
    }),
    appliesTo: z.enum(['first', 'all'], { error: 'Applies to must be first or all' }),
    months: z.coerce
      .number({ error: 'Months must be a number' })
      .int('Months must be a whole number')
      .min(1, 'Months must be at least 1')
      .max(120, 'Months must be at most 120')
      .nullish()
      .transform((v) => v ?? null),
    holdDays: holdDays.default(DEFAULT_HOLD_DAYS),
  })
  .refine((r) => r.type !== 'percent' || (parseCents(r.value) ?? 0n) <= 100_00n, {
    message: 'A percentage must be at most 100.00',
    path: ['value'],
  })
  .refine((r) => r.appliesTo === 'all' || r.months === null, {
    message: 'Months apply only to rules on all orders',
    path: ['months'],
  });
export type CommissionRuleInput = z.infer<typeof commissionRuleInput>;

const isoDate = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), message)
    .optional();

const page = z.coerce.number().int().min(1).max(100_000).default(1);

/** GET /api/admin/commissions */
export const commissionListQuery = z.object({
  status: z.enum(COMMISSION_STATUSES, { error: 'Unknown status' }).optional(),
  recruiterDealerId: uuid('Unknown recruiter').optional(),
  from: isoDate('From must be a date like 2026-11-24'),
  to: isoDate('To must be a date like 2026-11-24'),
  page,
  pageSize: z.coerce.number().int().min(1).max(200).default(COMMISSIONS_PAGE_SIZE),
});
export type CommissionListQuery = z.infer<typeof commissionListQuery>;

/** GET /api/affiliate/commissions (the signed-in recruiter's own) */
export const ownCommissionsQuery = z.object({ page });

export const approveCommissionsInput = z.object({
  ids: z
    .array(uuid('Unknown commission'), { error: 'Choose the commissions to approve' })
    .min(1, 'Choose the commissions to approve')
    .max(500, 'Approve at most 500 commissions at a time'),
});

export const voidCommissionInput = z.object({
  id: uuid('Unknown commission'),
  reason: requiredText('Please give a reason', 500),
});

export const createPayoutInput = z.object({
  minimum: money({
    required: 'Minimum is required',
    invalid: 'Minimum must be dollars and cents, like 50.00',
    max: 1_000_000_00n,
  }).default(DEFAULT_PAYOUT_MINIMUM),
});

export const payoutId = z.object({ id: uuid('Unknown payout batch') });
/** POST /api/admin/referral-flags/{id}/clear and /void (issue 35, finding 6): an owner decides a flagged referral. */
export const referralFlagInput = z.object({ id: uuid('Unknown referral flag') });
export const markPayoutPaidInput = payoutId.extend({ reference: requiredText('Payment reference is required', 200) });
