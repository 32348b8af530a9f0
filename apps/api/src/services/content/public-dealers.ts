import { searchPublicDealers } from '@dn/db/queries/dealers';
import { PUBLIC_DEALER_SEARCH_LIMIT } from '@dn/schema';
import type { Context } from '../../context';
import { ipKey } from '../../lib/ip-key';
import { sealReferralRef } from '../../lib/referral-ref';
import { spend } from '../accounts/rate-limit';

/**
 * The referral picker (issue 15; issue 35, finding 8, decision 0885): `q` of 3+ characters, at most
 * 20 approved or active dealers in the picker whose name or company starts with it or has a word
 * starting with it, ranked. Only fullName, companyName and an opaque reference ever leave: the
 * reference is sealed anew for every answer and opens only in a signup (lib/referral-ref.ts), so
 * the answers carry no id to collect. Each address (/64) has a budget a typist never reaches, per
 * minute and per day, counted first in one statement: listing a network of thousands from one
 * address takes days.
 */
export async function publicDealers(ctx: Context, q: string) {
  const ip = ipKey(ctx.meta.ip);
  await spend(
    ctx.db,
    [`typeahead:ip:${ip}`, ctx.limits.typeaheadPerIp],
    [`typeahead:day:${ip}`, ctx.limits.typeaheadPerIpDaily],
  );
  const rows = await searchPublicDealers(ctx.db, q, PUBLIC_DEALER_SEARCH_LIMIT);
  const secret = ctx.config.sessionSecret;
  return rows.map((r) => ({ ref: sealReferralRef(secret, r.id), fullName: r.fullName, companyName: r.companyName }));
}
