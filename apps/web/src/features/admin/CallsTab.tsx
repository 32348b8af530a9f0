import { CALL_WINDOWS, DATE_FORMAT, POLL_MS } from '@dn/schema';
import { Badge, Button, Group, Skeleton, Table, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTrpc } from '../../lib/trpc';
import { useAdminRole } from '../admin-team/role';
import type { CallItem } from './types';
import { useAdminFeedback } from './use-admin-mutation';

/**
 * SPEC section 2/9: dates read 'MMM d, yyyy'. The preferred date is stored as the text the form sent
 * (YYYY-MM-DD from the date picker); anything else is shown as it is.
 */
const showDay = (day: string) => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? dayjs(day).format(DATE_FORMAT) : day);

/** SPEC badge styles: completed default, cancelled destructive, otherwise secondary. */
function StatusBadge({ status }: { status: CallItem['status'] }) {
  if (status === 'completed') return <Badge variant="filled">completed</Badge>;
  if (status === 'cancelled') return <Badge color="red">cancelled</Badge>;
  return (
    <Badge variant="light" color="gray">
      {status}
    </Badge>
  );
}

export function CallsTab() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const calls = useQuery(trpc.admin.callSchedules.queryOptions(undefined, { refetchInterval: POLL_MS.callSchedules }));
  const feedback = useAdminFeedback();
  const setStatus = useMutation(
    trpc.admin.setCallStatus.mutationOptions(feedback('Failed to update call status', 'Call status updated')),
  );
  if (calls.isLoading) return <Skeleton h={200} />;
  if (!calls.data?.length) return <Text c="dimmed">No call requests yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Phone</Table.Th>
            <Table.Th>Preferred Date</Table.Th>
            <Table.Th>Preferred Time</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {calls.data.map((c) => (
            <Table.Tr key={c.id} data-testid="call-row">
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{c.email}</Table.Td>
              <Table.Td>{c.phone}</Table.Td>
              <Table.Td>{showDay(c.preferredDate)}</Table.Td>
              <Table.Td>
                {CALL_WINDOWS[c.preferredTime].label} ({CALL_WINDOWS[c.preferredTime].range})
              </Table.Td>
              <Table.Td>
                <StatusBadge status={c.status} />
              </Table.Td>
              <Table.Td>{dayjs(c.createdAt).format(DATE_FORMAT)}</Table.Td>
              <Table.Td>
                {c.status === 'scheduled' && can('reviewer') && (
                  <Group gap={6} wrap="nowrap">
                    <Button
                      size="xs"
                      variant="light"
                      disabled={setStatus.isPending}
                      onClick={() => setStatus.mutate({ id: c.id, status: 'completed' })}
                    >
                      Mark Completed
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      disabled={setStatus.isPending}
                      onClick={() => setStatus.mutate({ id: c.id, status: 'cancelled' })}
                    >
                      Cancel Call
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
