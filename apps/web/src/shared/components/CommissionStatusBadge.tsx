import { StatusBadge } from '@dn/ui';

const COLORS: Record<string, string> = {
  clawback: 'orange',
  pending: 'yellow',
  approved: 'blue',
  paid: 'green',
  voided: 'gray',
  cancelled: 'gray',
};

export function CommissionStatusBadge({ status }: { status: string }) {
  return <StatusBadge status={status} colors={COLORS} />;
}
