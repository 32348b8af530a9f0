import { DATE_FORMAT } from '@dn/schema';
import { Badge, Table, Text } from '@mantine/core';
import dayjs from 'dayjs';
import type { OwnReferrals } from '../dashboard/types';

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
    <Table.ScrollContainer minWidth={720}>
      <Table striped aria-label="Your referrals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Referred by</Table.Th>
            <Table.Th>Tier</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Date</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {referrals.map((r) => (
            <Table.Tr key={r.id} data-testid="referral-row">
              <Table.Td>{r.fullName}</Table.Td>
              <Table.Td>{r.email}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={r.referralType === 'automatic' ? 'blue' : 'grape'}>
                  {TYPE_LABEL[r.referralType]}
                </Badge>
              </Table.Td>
              <Table.Td>{r.referredByName}</Table.Td>
              <Table.Td>{r.tier}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={STATUS_COLORS[r.status] ?? 'gray'} data-testid="referral-status">
                  {r.status}
                </Badge>
              </Table.Td>
              <Table.Td>{dayjs(r.createdAt).format(DATE_FORMAT)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
