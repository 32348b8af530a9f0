import type { AdminRoleName } from '@dn/schema';
import type { LinkOptions } from '@tanstack/react-router';

/**
 * One entry of the console's navigation: a child route of routes/admin/_console/. Its `to` is checked
 * against the routes the app registers (app.tsx), not imported from routeTree.gen.ts: the generated
 * tree imports the console's layout, which imports this file (an import circle, decision 1141).
 */
export interface AdminSectionLink {
  to: NonNullable<LinkOptions['to']> & `/admin${string}`;
  label: string;
  /** The least role that sees it (the server refuses the others anyway). */
  needs?: AdminRoleName;
}

/**
 * The admin console's sections, in the navigation's order (issue 34). Adding one is an entry
 * here and a child route under routes/admin/_console/ (docs/architecture.md).
 */
export const ADMIN_SECTIONS: readonly AdminSectionLink[] = [
  { to: '/admin', label: 'Dealers' },
  { to: '/admin/applications', label: 'Applications' },
  { to: '/admin/calls', label: 'Calls' },
  { to: '/admin/jobs', label: 'Jobs' },
  { to: '/admin/commissions', label: 'Orders & commissions' },
  { to: '/admin/payouts', label: 'Payouts' },
  { to: '/admin/activity', label: 'Activity' },
  { to: '/admin/team', label: 'Team', needs: 'owner' },
  { to: '/admin/content', label: 'Content' },
  { to: '/admin/claims', label: 'Claims & incentives' },
  { to: '/admin/webhook', label: 'Orders webhook', needs: 'owner' },
  { to: '/admin/system', label: 'System' },
  { to: '/admin/account', label: 'Your account' },
];
