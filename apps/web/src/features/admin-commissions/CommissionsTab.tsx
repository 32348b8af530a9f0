import {
  COMMISSION_STATUSES,
  COMMISSIONS_PAGE_SIZE,
  type CommissionStatus,
  DATE_FORMAT,
  displayMoney,
} from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Button, Checkbox, Group, Pagination, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import { type DealerChoice, DealerPicker } from '../admin/DealerPicker';
import { useAdminRole } from '../admin-team/role';
import { CommissionStatusBadge } from '../commissions';
import { ImportOrders } from './ImportOrders';
import { PayoutsPanel } from './PayoutsPanel';
import { RulesPanel } from './RulesPanel';
import { VoidDialog } from './VoidDialog';

/** The admin's Commissions tab (issue 13): the ledger with filters and totals, bulk approve, void, payouts, rules. */
export function CommissionsTab() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<CommissionStatus | undefined>();
  const [recruiter, setRecruiter] = useState<DealerChoice | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [voiding, setVoiding] = useState<string | null>(null);
  const input = {
    status,
    recruiterDealerId: recruiter?.value,
    from: from || undefined,
    to: to || undefined,
    page,
    pageSize: COMMISSIONS_PAGE_SIZE,
  };
  const list = useQuery(trpc.commissions.list.queryOptions(input));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.commissions.pathKey() });
  const approve = useMutation(
    trpc.commissions.approve.mutationOptions({
      onSuccess: async (r) => {
        notifications.show({
          title: `${r.approved.length} commission${r.approved.length === 1 ? '' : 's'} approved`,
          message: r.skipped.length ? `${r.skipped.length} skipped: ${r.skipped[0]?.reason}` : '',
          color: 'green',
        });
        setSelected([]);
        await refresh();
      },
      onError: (e) => notifications.show({ title: 'Failed to approve commissions', message: e.message, color: 'red' }),
    }),
  );
  /** A date filter; a new date shows its first page. */
  const dateFilter = (label: string, value: string, set: (v: string) => void) => (
    <TextInput
      label={label}
      type="date"
      value={value}
      onChange={(e) => {
        set(e.currentTarget.value);
        setPage(1);
      }}
    />
  );
  const data = list.data;
  const pendingIds =
    data?.items.filter((c) => c.status === 'pending' && c.kind === 'commission').map((c) => c.id) ?? [];
  return (
    <Stack gap="xl">
      <Stack>
        <Group align="flex-end">
          <Select
            label="Status"
            placeholder="All"
            clearable
            data={COMMISSION_STATUSES.map((s) => ({ value: s, label: s }))}
            value={status ?? null}
            onChange={(v) => {
              setStatus((v as CommissionStatus | null) ?? undefined);
              setPage(1);
            }}
            w={160}
          />
          <DealerPicker
            label="Recruiter"
            value={recruiter}
            onChange={(choice) => {
              setRecruiter(choice);
              setSelected([]);
              setPage(1);
            }}
            clearable
            w={340}
          />
          {dateFilter('From', from, setFrom)}
          {dateFilter('To', to, setTo)}
          {can('reviewer') && (
            <Button
              disabled={selected.length === 0}
              loading={approve.isPending}
              onClick={() => approve.mutate({ ids: selected })}
            >
              Approve selected ({selected.length})
            </Button>
          )}
        </Group>
        {data && (
          <Text size="sm" data-testid="commission-totals">
            Pending {displayMoney(data.totals.pending)} · Approved {displayMoney(data.totals.approved)} · Paid{' '}
            {displayMoney(data.totals.paid)} · Clawbacks {displayMoney(data.totals.clawbacks)} · {data.total} entries
          </Text>
        )}
        {!data ? (
          <Skeleton h={200} />
        ) : data.items.length === 0 ? (
          <Text c="dimmed">No commissions match.</Text>
        ) : (
          <DataTable
            rows={data.items}
            rowKey={(c) => c.id}
            rowTestId="admin-commission-row"
            minWidth={1000}
            columns={[
              {
                header: (
                  <Checkbox
                    aria-label="Select all pending"
                    checked={pendingIds.length > 0 && pendingIds.every((id) => selected.includes(id))}
                    onChange={(e) => setSelected(e.currentTarget.checked ? pendingIds : [])}
                  />
                ),
                cell: (c) =>
                  c.status === 'pending' &&
                  c.kind === 'commission' && (
                    <Checkbox
                      aria-label={`Select commission on order ${c.orderId}`}
                      checked={selected.includes(c.id)}
                      onChange={(e) =>
                        setSelected((s) => (e.currentTarget.checked ? [...s, c.id] : s.filter((x) => x !== c.id)))
                      }
                    />
                  ),
              },
              { header: 'Created', cell: (c) => dayjs(c.createdAt).format(DATE_FORMAT) },
              { header: 'Recruiter', cell: (c) => c.recruiterName },
              { header: 'Referred dealer', cell: (c) => c.referredName },
              {
                header: 'Order',
                cell: (c) => `${c.orderId} (${c.orderAmount ? displayMoney(c.orderAmount) : ''})`,
              },
              { header: 'Amount', cell: (c) => displayMoney(c.amount) },
              {
                header: 'Status',
                cell: (c) => (
                  <>
                    <CommissionStatusBadge status={c.kind === 'clawback' ? 'clawback' : c.status} />
                    {c.voidReason && (
                      <Text size="xs" c="dimmed">
                        {c.voidReason}
                      </Text>
                    )}
                  </>
                ),
              },
              { header: 'Hold until', cell: (c) => (c.holdUntil ? dayjs(c.holdUntil).format(DATE_FORMAT) : '') },
              {
                header: '',
                cell: (c) =>
                  (c.status === 'pending' || c.status === 'approved') &&
                  !c.payoutId &&
                  can('reviewer') && (
                    <Button size="xs" variant="subtle" color="red" onClick={() => setVoiding(c.id)}>
                      Void
                    </Button>
                  ),
              },
            ]}
          />
        )}
        {data && data.total > COMMISSIONS_PAGE_SIZE && (
          <Pagination total={Math.ceil(data.total / COMMISSIONS_PAGE_SIZE)} value={page} onChange={setPage} />
        )}
      </Stack>
      <VoidDialog id={voiding} onClose={() => setVoiding(null)} onDone={refresh} />
      <Title order={3}>Payout batches</Title>
      <PayoutsPanel onChange={refresh} />
      <Title order={3}>Commission rules</Title>
      <RulesPanel />
      <Title order={3}>Import orders</Title>
      {can('reviewer') && <ImportOrders />}
    </Stack>
  );
}
