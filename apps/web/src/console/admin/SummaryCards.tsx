import { POLL_MS } from '@dn/schema';
import { Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../../shared/lib/trpc';

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
    // Two across on a phone, so the six cards take half a screen, not one and a half (issue 36); every
    // card as tall as the tallest of its row.
    <SimpleGrid cols={{ base: 2, lg: 3 }} spacing={{ base: 'xs', sm: 'md' }}>
      {cards.map((c) => (
        <Card key={c.title} withBorder padding="sm" h="100%" data-testid={`card-${c.title}`}>
          <Text size="sm" c="dimmed" fw={500}>
            {c.title}
          </Text>
          {c.value === undefined ? (
            <Skeleton h={32} mt={6} w={80} />
          ) : (
            <Text fz={{ base: 22, sm: 28 }} fw={700}>
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
