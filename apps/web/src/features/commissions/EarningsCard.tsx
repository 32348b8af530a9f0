import { COMMISSIONS_PAGE_SIZE, DATE_FORMAT, displayMoney, POLL_MS } from '@dn/schema';
import { Badge, Card, Group, Pagination, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { CommissionStatusBadge } from './CommissionStatusBadge';

/** The recruiter's earnings (issue 13): summary by status and their commissions, paged. */
export function EarningsCard() {
  const trpc = useTrpc();
  const [page, setPage] = useState(1);
  const q = useQuery(trpc.commissions.own.queryOptions({ page }, { refetchInterval: POLL_MS.affiliateStats }));
  const data = q.data;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="earnings">
      <Title order={2} size="h3" mb="sm">
        Your Earnings
      </Title>
      {!data ? (
        <Skeleton height={120} />
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Figure label="Pending" value={data.summary.pending} testId="earnings-pending" />
            <Figure label="Approved" value={data.summary.approved} testId="earnings-approved" />
            <Figure label="Paid" value={data.summary.paid} testId="earnings-paid" />
            <Figure label="This month" value={data.summary.thisMonth} testId="earnings-month" />
          </SimpleGrid>
          {data.items.length === 0 ? (
            <Text c="dimmed" size="sm">
              No commissions yet. You earn one when a dealer you referred places an order.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={600}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Order date</Table.Th>
                    <Table.Th>Referred dealer</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Amount</Table.Th>
                    <Table.Th>Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((c) => (
                    <Table.Tr key={c.id} data-testid="commission-row">
                      <Table.Td>{c.orderedAt ? dayjs(c.orderedAt).format(DATE_FORMAT) : ''}</Table.Td>
                      <Table.Td>{c.referredName}</Table.Td>
                      <Table.Td>{c.referredEmail}</Table.Td>
                      <Table.Td>{displayMoney(c.amount)}</Table.Td>
                      <Table.Td>
                        {c.kind === 'clawback' ? (
                          <Badge color="orange">clawback</Badge>
                        ) : (
                          <CommissionStatusBadge status={c.status} />
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {data.total > COMMISSIONS_PAGE_SIZE && (
            <Group justify="flex-end">
              <Pagination total={Math.ceil(data.total / COMMISSIONS_PAGE_SIZE)} value={page} onChange={setPage} />
            </Group>
          )}
        </Stack>
      )}
    </Card>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {displayMoney(value)}
      </Text>
    </Paper>
  );
}
