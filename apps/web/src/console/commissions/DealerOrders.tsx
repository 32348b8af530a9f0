import { DATE_FORMAT, displayMoney, plural } from '@dn/schema';
import { DataTable, RowActions, StatusBadge } from '@dn/ui';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { RecordOrderForm } from './RecordOrderForm';

/** A dealer's orders on the admin timeline: totals, history, record one, cancel or refund one (issue 13). */
export function DealerOrders({ dealerId }: { dealerId: string }) {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const orders = useQuery(trpc.orders.ofDealer.queryOptions({ id: dealerId }));
  // A cancelled or refunded order voids its commission or adds a clawback (the spec refreshes the ledger).
  const setStatus = useAdminMutation(ADMIN_MUTATIONS.setOrderStatus);
  return (
    <Paper withBorder p="sm" mb="md" data-testid="dealer-orders">
      <Stack gap="xs">
        <Title order={4}>Orders</Title>
        {orders.data && (
          <Text size="sm">
            {plural(orders.data.totals.totalOrders, 'order')} · {displayMoney(orders.data.totals.totalRevenue)} revenue
            · average {displayMoney(orders.data.totals.averageOrderValue)}
            {orders.data.totals.lastOrderDate
              ? ` · last ${dayjs(orders.data.totals.lastOrderDate).format(DATE_FORMAT)}`
              : ''}
          </Text>
        )}
        {can('reviewer') && <RecordOrderForm dealerId={dealerId} />}
        <DataTable
          rows={orders.data?.orders ?? []}
          rowKey={(o) => o.id}
          rowTestId="dealer-order-row"
          striped={false}
          cards
          query={orders}
          empty="No orders yet."
          columns={[
            { header: 'Date', cell: (o) => dayjs(o.orderedAt).format(DATE_FORMAT) },
            { header: 'Order', cell: (o) => o.orderId },
            { header: 'Amount', cell: (o) => displayMoney(o.amount) },
            { header: 'Status', cell: (o) => <StatusBadge status={o.status} colors={{ placed: 'green' }} /> },
            {
              header: '',
              cell: (o) =>
                o.status === 'placed' &&
                can('reviewer') && (
                  <RowActions
                    size="compact-xs"
                    actions={[
                      {
                        label: 'Cancel',
                        variant: 'subtle',
                        onClick: () => setStatus.mutate({ id: o.id, status: 'cancelled' }),
                      },
                      {
                        label: 'Refund',
                        variant: 'subtle',
                        color: 'red',
                        onClick: () => setStatus.mutate({ id: o.id, status: 'refunded' }),
                      },
                    ]}
                  />
                ),
            },
          ]}
        />
      </Stack>
    </Paper>
  );
}
