import { DATE_FORMAT } from '@dn/schema';
import { Badge, Table, Text } from '@mantine/core';
import dayjs from 'dayjs';
import type { AffiliateStats } from '../dashboard/types';

/** Automatic referrals came through the link, manual ones named the recruiter (SPEC section 2). */
const TYPE_LABEL = { automatic: 'Link', manual: 'Name' } as const;

export function ReferralsTable({ referrals }: { referrals: AffiliateStats['referrals'] }) {
  if (referrals.length === 0) {
    return <Text c="dimmed">No referrals yet. Share your link to get started.</Text>;
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label="Recent referrals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Referred by</Table.Th>
            <Table.Th>Tier</Table.Th>
            <Table.Th>Date</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {referrals.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{r.fullName}</Table.Td>
              <Table.Td>{r.email}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={r.referralType === 'automatic' ? 'blue' : 'grape'}>
                  {TYPE_LABEL[r.referralType]}
                </Badge>
              </Table.Td>
              <Table.Td>{r.referredByName}</Table.Td>
              <Table.Td>{r.tier}</Table.Td>
              <Table.Td>{dayjs(r.createdAt).format(DATE_FORMAT)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
