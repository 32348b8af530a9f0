import { randomBytes } from 'node:crypto';
import { findLinkIdOfDealer, insertAffiliateLink } from '@dn/db/queries/affiliate-links';
import { setDealerRecruiterId } from '@dn/db/queries/dealers';
import type { createAffiliateLink } from '@dn/schema';
import type { z } from 'zod';
import type { Context, User } from '../../context';
import { AppError, isUniqueViolation } from '../../lib/app-error';
import { audit } from '../audit/audit';

type DealerContext = Context & { user: User };

export const RECRUITER_ID_TAKEN = 'That recruiter ID is already taken. Please choose another one.';
export const LINK_EXISTS = 'You already have an affiliate link.';

/** Unambiguous capitals and digits (no 0/O, 1/I): the code may be read out on the phone. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function affiliateCode(): string {
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

export const shareUrl = (publicUrl: string, recruiterId: string) =>
  `${publicUrl}/?r=${encodeURIComponent(recruiterId)}`;

/**
 * Creates the signed-in dealer's one affiliate link. Recruiter ids are unique across dealers
 * regardless of case (a unique index on lower(recruiter_id)); the dealer's own row carries the
 * id too, which is what makes them a recruiter.
 */
export async function createLink(ctx: DealerContext, input: z.output<typeof createAffiliateLink>) {
  const dealerId = ctx.user.id;
  try {
    const link = await ctx.db.transaction().execute(async (trx) => {
      if (await findLinkIdOfDealer(trx, dealerId)) throw new AppError('CONFLICT', LINK_EXISTS);
      const row = await insertAffiliateLink(trx, {
        recruiterId: input.recruiterId,
        dealerId,
        affiliateCode: affiliateCode(),
      });
      await setDealerRecruiterId(trx, dealerId, row.recruiterId);
      await audit(trx, ctx, {
        eventType: 'affiliate_link.created',
        category: 'affiliate',
        message: `Dealer ${ctx.user.email} created affiliate link ${row.recruiterId}`,
        dealerId,
        recruiterId: row.recruiterId,
      });
      return row;
    });
    return { ...link, shareUrl: shareUrl(ctx.config.publicUrl, link.recruiterId) };
  } catch (err) {
    if (isUniqueViolation(err)) {
      const constraint = (err as { constraint?: string }).constraint ?? '';
      // Two tabs creating at once: the second meets the one-link-per-dealer constraint.
      throw new AppError('CONFLICT', constraint.includes('dealer_id') ? LINK_EXISTS : RECRUITER_ID_TAKEN);
    }
    throw err;
  }
}
