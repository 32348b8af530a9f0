import { z } from 'zod';
import { scheduleCall } from './call';
import { CALL_TIMES } from './constants';
import { TOKEN_SHAPE } from './messages';

/**
 * Issue 38: the business's time zone (business days, the daily digest), the review promise, and the
 * free call's reschedule/cancel link (decisions 0941-0943).
 */

/** Business days are counted in this zone until an owner sets another. */
export const DEFAULT_BUSINESS_TIME_ZONE = 'America/New_York';
/** SPEC: "Application review within 2-3 business days": older than this many business days is overdue. */
export const REVIEW_BUSINESS_DAYS = 3;
/** The reviewers' digest goes out at this hour in the business's time zone. */
export const DIGEST_HOUR = 8;

const isTimeZone = (v: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
};
export const TIME_ZONE_INVALID = 'Time zone must be an IANA time zone such as America/New_York';

export const businessSettingsInput = z.object({
  timeZone: z
    .string({ error: TIME_ZONE_INVALID })
    .trim()
    .min(1, TIME_ZONE_INVALID)
    .max(64, TIME_ZONE_INVALID)
    .refine(isTimeZone, TIME_ZONE_INVALID),
});
export type BusinessSettingsInput = z.input<typeof businessSettingsInput>;

/** The Applications section's review queue: everything waiting, or only the overdue ones. */
export const reviewQueueQuery = z
  .object({
    overdue: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
        error: 'overdue must be true or false',
      })
      .optional(),
  })
  .default({});

export const CALL_LINK_NOT_FOUND =
  'This link has expired or was already used. You can book a new call from the Book a Call page.';
export const callManageToken = z.object({
  token: z.string().max(100, CALL_LINK_NOT_FOUND).regex(TOKEN_SHAPE, CALL_LINK_NOT_FOUND),
});
export const rescheduleCallInput = callManageToken.extend({
  // As the booking form's: a real date, not in the past (in the calls' zone).
  preferredDate: scheduleCall.shape.preferredDate,
  preferredTime: z.enum(CALL_TIMES, { error: 'Preferred time must be morning, afternoon or evening' }),
});
export type RescheduleCallInput = z.input<typeof rescheduleCallInput>;
export type RescheduleCall = z.output<typeof rescheduleCallInput>;
