export { DealerInfoCard } from './DealerInfoCard';
export { FirstOrderCard } from './FirstOrderCard';
export { AnchorLink, ButtonLink } from './links';
export { showsFirstOrderCard } from './rules';
export type { AffiliateStats, DealerInfo, FirstOrderForm } from './types';
