import { ACTIVE_STATUSES } from '@dn/schema';

/**
 * Whether a dealer may earn, be earned on and be paid: approved or active (issue 35, finding 5).
 * Suspended, rejected and pending dealers' orders are recorded but earn nothing; a payout batch
 * holds a recruiter who is not in good standing.
 */
export const inGoodStanding = (status: string) => (ACTIVE_STATUSES as readonly string[]).includes(status);
