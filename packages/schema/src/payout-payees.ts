import { z } from 'zod';
import { optionalText, uuid } from './common';

/** One payee of a payout batch (issue 39, decision 0965). */
export const payoutPayeesInput = z.object({ id: uuid('Unknown payout batch') });

/** POST /api/admin/payouts/{id}/payees/{recruiterId}/paid: that payee is paid as of today. */
export const markPayeePaidInput = z.object({
  id: uuid('Unknown payout batch'),
  recruiterId: uuid('Unknown recruiter'),
  reference: optionalText(200),
});

/** The console's words for paying one payee. */
export const PAYEE_PAID_WORDS = {
  button: 'Mark paid',
  title: 'Mark payee paid',
  body: (name: string, amount: string) =>
    `Marking ${name} paid (${amount}) as of today emails them their payout. It cannot be undone.`,
  confirm: (name: string) => `Mark paid and email ${name}`,
  reference: 'Payment reference (optional)',
  paid: (date: string) => `paid ${date}`,
  unpaid: 'not paid',
  show: 'Payees',
  hide: 'Hide payees',
} as const;
