export { CommissionStatusBadge } from './CommissionStatusBadge';
export { EarningsCard } from './EarningsCard';
