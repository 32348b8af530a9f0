import { DEALER_SORTS, DEALER_STATUSES, type DealerListQuery, type DealerStatus, TIERS, type Tier } from '@dn/schema';

export const ADMIN_TABS = [
  'dealers',
  'calls',
  'forms',
  'videos',
  'affiliates',
  'commissions',
  'activity',
  'team',
  'account',
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

/**
 * /admin's search params: the open tab and the dealer list's view, so a filtered view can be
 * bookmarked and Back returns to the previous one. Defaults stay out of the URL (plain /admin is
 * the Dealer Profiles tab, all statuses, newest first, page 1).
 */
export interface AdminSearch {
  tab?: Exclude<AdminTab, 'dealers'>;
  q?: string;
  status?: DealerStatus;
  tier?: Tier;
  sort?: Exclude<DealerListQuery['sort'], 'createdAt'>;
  page?: number;
  /** The Activity tab's filters (issue 14): actor, event type, dealer id, first and last day. */
  actor?: string;
  event?: string;
  dealer?: string;
  from?: string;
  to?: string;
}

const text = (v: unknown, max = 254): string | undefined =>
  (typeof v === 'string' || typeof v === 'number') && String(v).trim() ? String(v).trim().slice(0, max) : undefined;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const oneOf = <T extends string>(list: readonly T[], value: unknown): T | undefined =>
  (list as readonly unknown[]).includes(value) ? (value as T) : undefined;

/**
 * The route's validateSearch. A plain function over the shared schema's value lists, not
 * `dealerListQuery` itself: route options are in the app shell's first download, and zod there
 * costs 27 KB gzip of a 120 KB budget (docs/decisions/0600). An unknown value becomes undefined
 * (the default applies); every key is returned, as the router keeps the raw value of a key the
 * validator leaves out. The dealer list still parses its input with `dealerListQuery`
 * (DealersTab), which also holds the limits (search length, page range) and their words.
 */
export function validateAdminSearch(search: Record<string, unknown>): AdminSearch {
  const tab = oneOf(ADMIN_TABS, search.tab);
  const sort = oneOf(DEALER_SORTS, search.sort);
  const page = Number(search.page);
  // Values arrive JSON-parsed: ?q=123 is a number.
  const q = typeof search.q === 'string' || typeof search.q === 'number' ? String(search.q).trim() : '';
  return {
    tab: tab === 'dealers' ? undefined : tab,
    q: q || undefined,
    status: oneOf(DEALER_STATUSES, search.status),
    tier: oneOf(TIERS, search.tier),
    sort: sort === 'createdAt' ? undefined : sort,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    actor: text(search.actor),
    event: text(search.event, 100),
    dealer: UUID.test(String(search.dealer ?? '')) ? String(search.dealer) : undefined,
    from: DAY.test(String(search.from ?? '')) ? String(search.from) : undefined,
    to: DAY.test(String(search.to ?? '')) ? String(search.to) : undefined,
  };
}
