/**
 * Links of the console's former tab bar (`/admin?tab=calls`, in bookmarks, tests and emails): the
 * section each tab became (issue 34) and the params it keeps. The Dealers section (/admin) sends
 * them on; not the route's beforeLoad, as route options are in the app shell's first download
 * (docs/decisions/0875).
 */
const DEALER_PARAMS = ['q', 'status', 'tier', 'sort', 'page'] as const;
const ACTIVITY_PARAMS = ['actor', 'event', 'dealer', 'from', 'to'] as const;

const TABS = {
  dealers: { to: '/admin', keep: DEALER_PARAMS },
  calls: { to: '/admin/calls', keep: [] },
  forms: { to: '/admin/content', keep: [] },
  videos: { to: '/admin/content', keep: [] },
  affiliates: { to: '/admin/commissions', keep: [] },
  commissions: { to: '/admin/commissions', keep: [] },
  activity: { to: '/admin/activity', keep: ACTIVITY_PARAMS },
  team: { to: '/admin/team', keep: [] },
  account: { to: '/admin/account', keep: [] },
} as const;

type Tab = keyof typeof TABS;
export type LegacyTarget = (typeof TABS)[Tab]['to'];

/**
 * Where an /admin URL with a `tab` goes (null: none, it is the Dealers section already). An
 * unknown tab is the Dealers section, as the tab bar showed it.
 */
export function legacyTabTarget(
  search: Record<string, unknown>,
): { to: LegacyTarget; search: Record<string, unknown> } | null {
  if (!('tab' in search)) return null;
  const tab = Object.hasOwn(TABS, String(search.tab)) ? TABS[search.tab as Tab] : TABS.dealers;
  const kept: readonly string[] = tab.keep;
  return { to: tab.to, search: Object.fromEntries(Object.entries(search).filter(([k]) => kept.includes(k))) };
}
