import { displayDateTime, eventLabel } from '@dn/schema';
import { Badge, Drawer, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTrpc } from '../../shared/lib/trpc';
import { DealerOrders } from '../commissions';
import { StatusLinkControl } from './StatusLinkControl';
import type { DecisionDealer } from './types';

const COLORS = { audit: 'blue', call: 'teal', email: 'grape' } as const;

/** A dealer's history: application, approvals, tier and status changes, referrals, calls, emails. */
export default function TimelineDrawer({
  dealer,
  onClose,
}: {
  dealer: Pick<DecisionDealer, 'id' | 'fullName'>;
  onClose: () => void;
}) {
  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={`History of ${dealer.fullName}`}>
      <StatusLinkControl dealerId={dealer.id} />
      <DealerOrders dealerId={dealer.id} />
      <DealerTimeline dealerId={dealer.id} />
      <Text mt="md" size="sm">
        <Link to="/admin/dealers/$id" params={{ id: dealer.id }} onClick={onClose}>
          The whole application
        </Link>
        {' · '}
        <Link to="/admin/activity" search={{ dealer: dealer.id }} onClick={onClose}>
          All activity of this dealer
        </Link>
      </Text>
    </Drawer>
  );
}

/** The timeline itself: in the History drawer and on the dealer's detail view (issue 36). */
export function DealerTimeline({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const timeline = useQuery(trpc.admin.dealerTimeline.queryOptions({ id: dealerId }));
  return (
    <>
      {timeline.isLoading && <Loader />}
      {timeline.isError && <Text c="red">{timeline.error.message}</Text>}
      {timeline.data && (
        <Timeline bulletSize={14} lineWidth={2}>
          {timeline.data.entries.map((e) => (
            <Timeline.Item key={`${e.source}-${String(e.at)}-${e.eventType}-${e.message}`} color={COLORS[e.source]}>
              <Stack gap={2}>
                <Group gap="xs">
                  <Badge size="xs" variant="light" color={COLORS[e.source]} tt="none" title={e.eventType}>
                    {eventLabel(e.eventType)}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {displayDateTime(String(e.at))}
                  </Text>
                </Group>
                <Text size="sm">{e.message}</Text>
              </Stack>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
      {timeline.data?.entries.length === 0 && <Text c="dimmed">Nothing recorded yet.</Text>}
    </>
  );
}
