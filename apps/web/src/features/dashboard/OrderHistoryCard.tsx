import { DATE_FORMAT, displayMoney } from '@dn/schema';
import { Badge, Card, Group, Pagination, Table, Text, Title } from '@mantine/core';
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
      <Table.ScrollContainer minWidth={480}>
        <Table striped aria-label="Order history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Order</Table.Th>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.items.map((o) => (
              <Table.Tr key={o.id} data-testid="order-row">
                <Table.Td>{dayjs(o.orderedAt).format(DATE_FORMAT)}</Table.Td>
                <Table.Td>{o.orderId}</Table.Td>
                <Table.Td>{displayMoney(o.amount)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={STATUS_COLORS[o.status] ?? 'gray'}>
                    {o.status}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="flex-end" mt="sm">
          <Pagination total={pages} value={page} onChange={onPage} aria-label="Order pages" />
        </Group>
      )}
    </Card>
  );
}
