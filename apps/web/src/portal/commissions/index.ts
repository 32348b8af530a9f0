export { EarningsCard } from './EarningsCard';
