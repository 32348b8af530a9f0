import { CALL_WINDOWS, DATE_FORMAT, POLL_MS } from '@dn/schema';
import { DataTable, RowActions } from '@dn/ui';
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';
import type { CallItem } from './types';

/**
 * SPEC section 2/9: dates read 'MMM d, yyyy'. The preferred date is stored as the text the form sent
 * (YYYY-MM-DD from the date picker); anything else is shown as it is.
 */
const showDay = (day: string) => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? dayjs(day).format(DATE_FORMAT) : day);

/** SPEC badge styles: completed default, cancelled destructive, otherwise secondary. */
function StatusBadge({ status }: { status: CallItem['status'] }) {
  if (status === 'completed') return <Badge variant="filled">completed</Badge>;
  if (status === 'cancelled') return <Badge color="red">cancelled</Badge>;
  if (status === 'no_show') return <Badge color="orange">no-show</Badge>;
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
  const setStatus = useAdminMutation(ADMIN_MUTATIONS.setCallStatus);
  return (
    <DataTable
      rows={calls.data ?? []}
      rowKey={(c) => c.id}
      rowTestId="call-row"
      minWidth={900}
      cards
      query={calls}
      empty="No call requests yet."
      columns={[
        { header: 'Name', cell: (c) => c.name },
        { header: 'Email', cell: (c) => c.email },
        { header: 'Phone', cell: (c) => c.phone },
        { header: 'Preferred Date', cell: (c) => showDay(c.preferredDate) },
        {
          header: 'Preferred Time',
          cell: (c) => `${CALL_WINDOWS[c.preferredTime].label} (${CALL_WINDOWS[c.preferredTime].range})`,
        },
        { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
        { header: 'Created', cell: (c) => dayjs(c.createdAt).format(DATE_FORMAT) },
        {
          header: '',
          cell: (c) =>
            c.status === 'scheduled' &&
            can('reviewer') && (
              <RowActions
                actions={[
                  {
                    label: 'Mark Completed',
                    disabled: setStatus.isPending,
                    onClick: () => setStatus.mutate({ id: c.id, status: 'completed' }),
                  },
                  {
                    // Issue 38: the caller did not answer in their window.
                    label: 'Mark No-show',
                    variant: 'subtle',
                    disabled: setStatus.isPending,
                    onClick: () => setStatus.mutate({ id: c.id, status: 'no_show' }),
                  },
                  {
                    label: 'Cancel Call',
                    variant: 'subtle',
                    color: 'red',
                    disabled: setStatus.isPending,
                    onClick: () => setStatus.mutate({ id: c.id, status: 'cancelled' }),
                  },
                ]}
              />
            ),
        },
      ]}
    />
  );
}
