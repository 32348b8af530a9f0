export { DealerInfoCard } from './DealerInfoCard';
export { FirstOrderCard, showsFirstOrderCard } from './FirstOrderCard';
export { AnchorLink, ButtonLink } from './links';
export type { AffiliateStats, DealerInfo, FirstOrderForm } from './types';
