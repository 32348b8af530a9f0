import { listPublicDealers, searchPublicDealers } from '@dn/db/queries/dealers';
import { PUBLIC_DEALER_SEARCH_LIMIT } from '@dn/schema';
import type { Context } from '../../context';
import { ipKey } from '../../lib/ip-key';
import { hit } from '../accounts/rate-limit';

/**
 * The referral picker (issue 15): with `q` (2+ characters), at most 20 approved or active dealers
 * whose name or company starts with it or has a word starting with it, ranked; without `q`, the
 * first 20 by name. Only id, fullName and companyName ever leave. Each IP has a budget a typist
 * never reaches (debounced keystrokes) and a scraper walking prefixes does.
 */
export async function publicDealers(ctx: Context, q?: string) {
  await hit(ctx.db, `typeahead:ip:${ipKey(ctx.meta.ip)}`, ctx.limits.typeaheadPerIp);
  const rows = q
    ? await searchPublicDealers(ctx.db, q, PUBLIC_DEALER_SEARCH_LIMIT)
    : await listPublicDealers(ctx.db, PUBLIC_DEALER_SEARCH_LIMIT);
  return rows.map((r) => ({ id: r.id, fullName: r.fullName, companyName: r.companyName }));
}
