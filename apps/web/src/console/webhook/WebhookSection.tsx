import { POLL_MS, WEBHOOK_WORDS as W } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Alert, Badge, Code, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTrpc } from '../../shared/lib/trpc';
import { useAdminRole } from '../shared/role';

/** Issue 36 (decision 0995): the orders webhook's URL, its secret's presence, and its newest deliveries. */
export function WebhookSection() {
  const { can } = useAdminRole();
  if (!can('owner')) return <Text c="dimmed">{W.ownersOnly}</Text>;
  return <WebhookStatus />;
}

function WebhookStatus() {
  const trpc = useTrpc();
  const q = useQuery(trpc.orders.webhookStatus.queryOptions(undefined, { refetchInterval: POLL_MS.adminWebhook }));
  const data = q.data;
  return (
    <Stack>
      <Text size="sm">{W.intro}</Text>
      {data && (
        <>
          <Text size="sm">
            URL: <Code data-testid="webhook-url">{data.url}</Code>
          </Text>
          <Alert color={data.secretSet ? 'green' : 'red'} variant="light" data-testid="webhook-secret">
            {data.secretSet ? W.secretSet : W.secretMissing}
          </Alert>
        </>
      )}
      <DataTable
        rows={data?.deliveries ?? []}
        rowKey={(d) => d.id}
        rowTestId="webhook-delivery"
        cards
        query={q}
        empty={W.none}
        columns={[
          { header: 'Received', cell: (d) => dayjs(d.receivedAt).format('MMM D, YYYY HH:mm:ss') },
          {
            header: 'Answer',
            cell: (d) => (
              <Badge color={d.statusCode < 300 ? 'green' : d.statusCode < 500 ? 'orange' : 'red'} variant="light">
                {d.statusCode}
              </Badge>
            ),
          },
          { header: 'Result', cell: (d) => d.result },
          { header: 'Order', cell: (d) => d.orderId ?? '' },
          { header: 'Webhook id', cell: (d) => d.webhookId ?? '' },
        ]}
      />
    </Stack>
  );
}
