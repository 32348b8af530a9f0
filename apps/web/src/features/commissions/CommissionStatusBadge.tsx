import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  clawback: 'orange',
  pending: 'yellow',
  approved: 'blue',
  paid: 'green',
  voided: 'gray',
  cancelled: 'gray',
};

export function CommissionStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light">
      {status}
    </Badge>
  );
}
