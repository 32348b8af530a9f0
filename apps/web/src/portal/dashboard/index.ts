export { DealerInfoCard } from './DealerInfoCard';
export { FirstOrderCard } from './FirstOrderCard';
export { AnchorLink, ButtonLink } from './links';
export { OrderHistoryCard } from './OrderHistoryCard';
export { showsFirstOrderCard } from './rules';
export type { AffiliateStats, DealerInfo, FirstOrderForm, OwnOrders, OwnReferrals, ReferralFunnel } from './types';
