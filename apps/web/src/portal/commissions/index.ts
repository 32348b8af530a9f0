export { CommissionStatusBadge } from '../../shared/components/CommissionStatusBadge';
export { EarningsCard } from './EarningsCard';
