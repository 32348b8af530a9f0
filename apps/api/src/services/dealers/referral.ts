import { countReferralOnDealersLink, uncountReferralOnDealersLink } from '@dn/db/queries/affiliate-links';
import { findDealerForAdmin, setManualReferral } from '@dn/db/queries/dealers';
import { ACTIVE_STATUSES } from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError } from '../../lib/app-error';
import { lockApplication } from '../applications/review';
import { audit } from '../audit/audit';

const NOT_REFERRABLE = 'Only an approved or active dealer can be named as the referrer';

/**
 * Links a referral by hand: referredBy, referral type manual, and the recruiter's affiliate
 * link (if any) counts it; a link that counted the previous referrer gives it back.
 */
export async function linkDealerReferral(ctx: Context & { user: User }, id: string, referredBy: string) {
  if (id === referredBy) {
    throw new AppError('INVALID_INPUT', 'A dealer cannot be linked to themselves', {
      fieldErrors: { referredBy: 'A dealer cannot be linked to themselves' },
    });
  }
  await ctx.db.transaction().execute(async (trx) => {
    const before = await lockApplication(trx, id);
    const referrer = await findDealerForAdmin(trx, referredBy);
    if (!referrer) {
      throw new AppError('INVALID_INPUT', 'The referring dealer does not exist', {
        fieldErrors: { referredBy: 'The referring dealer does not exist' },
      });
    }
    // As the picker offers (issue 36): a rejected or pending applicant refers nobody.
    if (!ACTIVE_STATUSES.includes(referrer.status)) {
      throw new AppError('INVALID_INPUT', NOT_REFERRABLE, { fieldErrors: { referredBy: NOT_REFERRABLE } });
    }
    if (before.referredBy === referredBy && before.referralType === 'manual') return;
    await setManualReferral(trx, id, referredBy);
    if (before.referredBy !== referredBy && before.referredBy) {
      await uncountReferralOnDealersLink(trx, before.referredBy);
    }
    const link = before.referredBy !== referredBy ? await countReferralOnDealersLink(trx, referredBy) : undefined;
    await audit(trx, ctx, {
      eventType: 'dealer.referral_linked',
      category: 'admin',
      message: `${ctx.user.username} linked ${before.email} as referred by ${referrer.fullName}`,
      dealerId: id,
      recruiterId: link?.recruiterId ?? null,
      details: {
        before: { referredBy: before.referredBy, referralType: before.referralType },
        after: { referredBy, referralType: 'manual' },
        referrerName: referrer.fullName,
      },
    });
  });
  return { ok: true as const };
}
