export { AffiliateCard } from './AffiliateCard';
