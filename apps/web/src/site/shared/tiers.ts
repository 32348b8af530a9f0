import type { Tier } from '@dn/schema';

/** One line per tier, for the wizard's first step. */
export const TIER_SUMMARIES: Record<Tier, string> = {
  Affiliate: 'Sales only: sell at wholesale pricing; installation through the preferred dealer network.',
  Authorized: 'Sales and installation: wholesale dealer pricing, $5,000 initial inventory prepaid.',
  Preferred: 'Full network access: preferred pricing, affiliate network projects, $25,000 initial inventory.',
};

/** The tier cards of the landing page (SPEC section 2), every benefit listed. */
export const TIER_CARDS: { tier: Tier; tagline: string; benefits: string[]; popular?: boolean }[] = [
  {
    tier: 'Affiliate',
    tagline: 'Sales only',
    benefits: [
      'Wholesale pricing',
      'No installation required',
      'Installation via the preferred dealer network at preferred pricing',
      'Consistent margins and labor costs',
      'No upfront investment',
    ],
  },
  {
    tier: 'Authorized',
    tagline: 'Sales and installation',
    benefits: [
      'Wholesale dealer pricing',
      'Sells and installs',
      // Issue 47: "No upfront inventory required" beside the prepaid initial inventory read as a contradiction.
      'No stock to carry beyond the initial inventory',
      '$5,000 initial inventory prepaid',
      'Handles affiliate overflow work',
    ],
  },
  {
    tier: 'Preferred',
    tagline: 'Full network access',
    popular: true,
    benefits: [
      'Preferred dealer pricing',
      'Receives affiliate network projects',
      '$25,000 initial inventory with 50% upfront',
      'Network installation services',
    ],
  },
];
