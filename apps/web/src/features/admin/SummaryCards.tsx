import { POLL_MS } from '@dn/schema';
import { Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../../lib/trpc';

export function SummaryCards() {
  const trpc = useTrpc();
  const metrics = useQuery(trpc.admin.dealerMetrics.queryOptions(undefined, { refetchInterval: POLL_MS.adminMetrics }));
  const m = metrics.data;
  const cards = [
    {
      title: 'Total Dealers',
      value: m?.totalDealers,
      note: m
        ? `Preferred ${m.byTier.Preferred} · Authorized ${m.byTier.Authorized} · Affiliate ${m.byTier.Affiliate}`
        : '',
    },
    { title: 'Applications', value: m?.pendingApplications, note: 'Awaiting approval' },
    { title: 'Approved Dealers', value: m?.approvedDealers, note: 'Active dealer accounts' },
    { title: 'Call Requests', value: m?.scheduledCalls, note: 'Scheduled calls' },
    // Issue 13 (decision 0720): approved -> active, and how long a first order takes.
    {
      title: 'Activation Rate',
      value: m ? (m.activationRate === null ? '—' : `${m.activationRate}%`) : undefined,
      note: m ? `${m.activeDealers} of ${m.approvedDealers} approved dealers are active` : '',
    },
    {
      title: 'Days to First Order',
      value: m ? (m.medianDaysToFirstOrder === null ? '—' : m.medianDaysToFirstOrder) : undefined,
      note: 'Median from approval',
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {cards.map((c) => (
        <Card key={c.title} withBorder padding="md" data-testid={`card-${c.title}`}>
          <Text size="sm" c="dimmed" fw={500}>
            {c.title}
          </Text>
          {c.value === undefined ? (
            <Skeleton h={32} mt={6} w={80} />
          ) : (
            <Text fz={28} fw={700}>
              {c.value}
            </Text>
          )}
          <Group gap={4}>
            <Text size="xs" c="dimmed">
              {c.note}
            </Text>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
