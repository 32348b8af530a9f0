import { z } from 'zod';
import { COMMISSION_STATUSES } from './commissions';
import { DEALER_SORTS, DEALER_STATUSES, TIERS } from './constants';

/**
 * The admin console's search params, one schema per section (issue 34): every filter, sort and
 * page of a section is in its URL. A value the schema refuses becomes undefined (the default
 * applies) rather than an error: a hand-edited or stale bookmark still opens. Defaults stay out of
 * the URL (page 1, newest first), so their keys are undefined too. The lists' own input schemas
 * (dealerListQuery, commissionListQuery) still parse what is sent, with their limits and words.
 */

/** Values arrive JSON-parsed: ?q=123 is a number. Trimmed, blank is none. */
const text = (max: number) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim().slice(0, max) || undefined)
    .optional()
    .catch(undefined);
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().catch(undefined);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);
const id = z.uuid().optional().catch(undefined);
/** Page 1 is the default: only 2 and up are written. */
const page = z.coerce.number().int().min(2).max(100_000).optional().catch(undefined);

const DEALER_SORTS_BUT_NEWEST = DEALER_SORTS.filter((s) => s !== 'createdAt') as [
  Exclude<(typeof DEALER_SORTS)[number], 'createdAt'>,
  ...Exclude<(typeof DEALER_SORTS)[number], 'createdAt'>[],
];

/** /admin (Dealers): search, status, tier, sort (newest first when absent), page. */
export const dealersSearch = z.object({
  q: text(254),
  status: oneOf(DEALER_STATUSES),
  tier: oneOf(TIERS),
  sort: oneOf(DEALER_SORTS_BUT_NEWEST),
  page,
});
export type DealersSearch = z.output<typeof dealersSearch>;

/** /admin/applications: the pending applications, with the dealer list's search, tier, sort and page. */
export const applicationsSearch = dealersSearch.omit({ status: true });
export type ApplicationsSearch = z.output<typeof applicationsSearch>;

/** /admin/commissions: the ledger's status, recruiter (a dealer id), first and last day, page. */
export const commissionsSearch = z.object({
  status: oneOf(COMMISSION_STATUSES),
  recruiter: id,
  from: day,
  to: day,
  page,
});
export type CommissionsSearch = z.output<typeof commissionsSearch>;

/** /admin/activity: actor, event type, dealer id, first and last day (issue 14). */
export const activitySearch = z.object({
  actor: text(254),
  event: text(100),
  dealer: id,
  from: day,
  to: day,
});
export type ActivitySearch = z.output<typeof activitySearch>;
