import { DATE_FORMAT, displayMoney } from '@dn/schema';
import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTrpc } from '../../lib/trpc';
import { useAdminRole } from '../admin-team/role';
import { RecordOrderForm } from './RecordOrderForm';

/** A dealer's orders on the admin timeline: totals, history, record one, cancel or refund one (issue 13). */
export function DealerOrders({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const queryClient = useQueryClient();
  const orders = useQuery(trpc.orders.ofDealer.queryOptions({ id: dealerId }));
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
  };
  const setStatus = useMutation(
    trpc.orders.setStatus.mutationOptions({
      onSuccess: refresh,
      onError: (e) => notifications.show({ title: 'Failed to update order', message: e.message, color: 'red' }),
    }),
  );
  return (
    <Paper withBorder p="sm" mb="md" data-testid="dealer-orders">
      <Stack gap="xs">
        <Title order={4}>Orders</Title>
        {orders.data && (
          <Text size="sm">
            {orders.data.totals.totalOrders} orders · {displayMoney(orders.data.totals.totalRevenue)} revenue · average{' '}
            {displayMoney(orders.data.totals.averageOrderValue)}
            {orders.data.totals.lastOrderDate
              ? ` · last ${dayjs(orders.data.totals.lastOrderDate).format(DATE_FORMAT)}`
              : ''}
          </Text>
        )}
        {can('reviewer') && <RecordOrderForm dealerId={dealerId} />}
        {orders.data && orders.data.orders.length > 0 && (
          <Table>
            <Table.Tbody>
              {orders.data.orders.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>{dayjs(o.orderedAt).format(DATE_FORMAT)}</Table.Td>
                  <Table.Td>{o.orderId}</Table.Td>
                  <Table.Td>{displayMoney(o.amount)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={o.status === 'placed' ? 'green' : 'gray'}>
                      {o.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {o.status === 'placed' && can('reviewer') && (
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          onClick={() => setStatus.mutate({ id: o.id, status: 'cancelled' })}
                        >
                          Cancel
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          onClick={() => setStatus.mutate({ id: o.id, status: 'refunded' })}
                        >
                          Refund
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
