import { COMMISSIONS_PAGE_SIZE, DATE_FORMAT, displayMoney, POLL_MS } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Badge, Card, Group, Pagination, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { CommissionStatusBadge } from '../../shared/components/CommissionStatusBadge';
import { useTrpc } from '../../shared/lib/trpc';

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
            <DataTable
              rows={data.items}
              rowKey={(c) => c.id}
              rowTestId="commission-row"
              minWidth={760}
              columns={[
                { header: 'Order date', cell: (c) => (c.orderedAt ? dayjs(c.orderedAt).format(DATE_FORMAT) : '') },
                { header: 'Referred dealer', cell: (c) => c.referredName },
                { header: 'Email', cell: (c) => c.referredEmail },
                // The order and the rate the amount came from, so anyone can check it (issue 36).
                { header: 'Order amount', cell: (c) => (c.orderAmount ? displayMoney(c.orderAmount) : '') },
                { header: 'Rate', cell: (c) => c.rate ?? '' },
                { header: 'Amount', cell: (c) => displayMoney(c.amount) },
                {
                  header: 'Status',
                  cell: (c) =>
                    c.kind === 'clawback' ? (
                      <Badge color="orange">clawback</Badge>
                    ) : (
                      <CommissionStatusBadge status={c.status} />
                    ),
                },
              ]}
            />
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
