import { z } from 'zod';
import { setCallStatus } from './call';
import { uuid } from './common';
import { dealerId, linkReferral, rejectDealer, setDealerStatus, upgradeDealerTier } from './dealer';

/** Admin inputs with the path's id merged in (REST params + body, tRPC one object). */
export const rejectDealerInput = dealerId.extend(rejectDealer.shape);
export const setDealerStatusInput = dealerId.extend(setDealerStatus.shape);
export const upgradeDealerTierInput = dealerId.extend(upgradeDealerTier.shape);
export const linkReferralInput = dealerId.extend(linkReferral.shape);
export const callId = z.object({ id: uuid('Unknown call request') });
export const setCallStatusInput = callId.extend(setCallStatus.shape);
export const dealerOptionsQuery = z.object({
  q: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  /** `referrers`: only dealers who may refer (approved or active), for the Link Referral picker (issue 36). */
  only: z.enum(['referrers'], { error: 'Unknown choice of dealers' }).optional(),
});
