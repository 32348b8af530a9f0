import { DATE_FORMAT, displayMoney } from '@dn/schema';
import { DataTable, StatusBadge } from '@dn/ui';
import { Card, Group, Pagination, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import type { OwnOrders } from './types';

const STATUS_COLORS: Record<string, string> = { placed: 'green', cancelled: 'gray', refunded: 'orange' };

/**
 * Once a dealer has a first order it replaces the first-order card (issue 13, decision 0720):
 * the first order's date and the dealer's own orders, newest first, paged.
 */
export function OrderHistoryCard({
  orders,
  page,
  onPage,
}: {
  orders: OwnOrders & { firstOrderAt: string };
  page: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.ceil(orders.total / orders.pageSize);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="order-history">
      <Title order={2} size="h3" mb="xs">
        Your Orders
      </Title>
      <Text mb="sm" data-testid="first-order-date">
        First order placed on {dayjs(orders.firstOrderAt).format(DATE_FORMAT)}
      </Text>
      <DataTable
        aria-label="Order history"
        rows={orders.items}
        rowKey={(o) => o.id}
        rowTestId="order-row"
        minWidth={480}
        columns={[
          { header: 'Date', cell: (o) => dayjs(o.orderedAt).format(DATE_FORMAT) },
          { header: 'Order', cell: (o) => o.orderId },
          { header: 'Amount', cell: (o) => displayMoney(o.amount) },
          { header: 'Status', cell: (o) => <StatusBadge status={o.status} colors={STATUS_COLORS} /> },
        ]}
      />
      {pages > 1 && (
        <Group justify="flex-end" mt="sm">
          <Pagination total={pages} value={page} onChange={onPage} aria-label="Order pages" />
        </Group>
      )}
    </Card>
  );
}
