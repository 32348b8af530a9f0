import { randomBytes } from 'node:crypto';
import { prepareQuery, sql } from '@dn/db';
import { type createAffiliateLink, RECENT_REFERRALS } from '@dn/schema';
import type { z } from 'zod';
import { AppError, isUniqueViolation } from '../lib/app-error';
import type { Context, User } from '../trpc/context';
import { audit } from './audit';

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
      const existing = await trx
        .selectFrom('affiliateLinks')
        .select('id')
        .where('dealerId', '=', dealerId)
        .executeTakeFirst();
      if (existing) throw new AppError('CONFLICT', LINK_EXISTS);
      const row = await trx
        .insertInto('affiliateLinks')
        .values({ recruiterId: input.recruiterId, dealerId, affiliateCode: affiliateCode(), updatedAt: new Date() })
        .returning(['recruiterId', 'affiliateCode', 'createdAt'])
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('dealers')
        .set({ recruiterId: row.recruiterId, updatedAt: new Date() })
        .where('id', '=', dealerId)
        .execute();
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

/** j***@example.com: enough for a recruiter to recognise a referral, not to harvest addresses. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * The dealer's link, their referral count and their most recent referrals in one statement
 * (polled every 5 s by every dashboard): one row per recent referral, or one row with empty
 * referral columns when there is none.
 */
const statsQuery = prepareQuery(['dealerId'], (db, p) =>
  db
    .selectFrom(sql<{ me: string }>`(select ${p.dealerId}::uuid as me)`.as('m'))
    .leftJoin('affiliateLinks as l', 'l.dealerId', 'm.me')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('dealers')
          .select(['id', 'fullName', 'email', 'referralType', 'tier', 'createdAt'])
          .whereRef('referredBy', '=', 'm.me')
          .orderBy('createdAt', 'desc')
          .orderBy('id', 'desc')
          .limit(RECENT_REFERRALS)
          .as('r'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      'l.recruiterId',
      'l.affiliateCode',
      eb.selectFrom('dealers').select(eb.fn.countAll<string>().as('n')).whereRef('referredBy', '=', 'm.me').as('total'),
      'r.id',
      'r.fullName',
      'r.email',
      'r.referralType',
      'r.tier',
      'r.createdAt',
    ]),
);

/** The signed-in dealer's link and their most recent referrals; nothing of anyone else's. */
export async function affiliateStats(ctx: DealerContext) {
  const { rows } = await statsQuery(ctx.db, { dealerId: ctx.user.id });
  const link = rows[0]?.recruiterId ? rows[0] : null;
  return {
    hasAffiliateLink: Boolean(link),
    recruiterId: link?.recruiterId ?? null,
    affiliateCode: link?.affiliateCode ?? null,
    shareUrl: link?.recruiterId ? shareUrl(ctx.config.publicUrl, link.recruiterId) : null,
    totalReferrals: Number(rows[0]?.total ?? 0),
    // Every row is referred by the signed-in dealer, so the referrer's name is the session user's.
    referrals: rows.flatMap((r) =>
      r.id === null
        ? []
        : [
            {
              id: r.id,
              fullName: r.fullName,
              email: maskEmail(r.email!),
              referralType: r.referralType ?? 'manual',
              referredByName: ctx.user.fullName,
              tier: r.tier,
              createdAt: r.createdAt,
            },
          ],
    ),
  };
}
