import { DATE_FORMAT } from '@dn/schema';
import { DataTable, StatusBadge } from '@dn/ui';
import { Badge, Text } from '@mantine/core';
import dayjs from 'dayjs';
import type { OwnReferrals } from '../dashboard';

/** Automatic referrals came through the link, manual ones named the recruiter (SPEC section 2). */
const TYPE_LABEL = { automatic: 'Link', manual: 'Name' } as const;

/** A referral's status as the recruiter sees it (decision 0720). */
const STATUS_COLORS: Record<string, string> = {
  applied: 'yellow',
  approved: 'blue',
  active: 'green',
  declined: 'red',
  inactive: 'gray',
};

export function ReferralsTable({ referrals }: { referrals: OwnReferrals['items'] }) {
  if (referrals.length === 0) {
    return <Text c="dimmed">No referrals yet. Share your link to get started.</Text>;
  }
  return (
    <DataTable
      aria-label="Your referrals"
      rows={referrals}
      rowKey={(r) => r.id}
      rowTestId="referral-row"
      minWidth={720}
      columns={[
        { header: 'Name', cell: (r) => r.fullName },
        { header: 'Email', cell: (r) => r.email },
        {
          header: 'Type',
          cell: (r) => (
            <Badge variant="light" color={r.referralType === 'automatic' ? 'blue' : 'grape'}>
              {TYPE_LABEL[r.referralType]}
            </Badge>
          ),
        },
        { header: 'Referred by', cell: (r) => r.referredByName },
        { header: 'Tier', cell: (r) => r.tier },
        {
          header: 'Status',
          cell: (r) => <StatusBadge status={r.status} colors={STATUS_COLORS} data-testid="referral-status" />,
        },
        { header: 'Date', cell: (r) => dayjs(r.createdAt).format(DATE_FORMAT) },
      ]}
    />
  );
}
