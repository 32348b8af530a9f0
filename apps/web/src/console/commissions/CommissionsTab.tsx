import {
  COMMISSION_STATUSES,
  COMMISSIONS_PAGE_SIZE,
  type CommissionStatus,
  type CommissionsSearch,
  DATE_FORMAT,
  displayDateTime,
  displayMoney,
  plural,
} from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Button, Checkbox, Group, Pagination, Select, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { CommissionStatusBadge } from '../../shared/components/CommissionStatusBadge';
import { useTrpc } from '../../shared/lib/trpc';
import { type DealerChoice, DealerPicker } from '../shared/DealerPicker';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { VoidDialog } from './VoidDialog';

export interface CommissionsTabProps {
  /** The filters and the page, from the URL (/admin/commissions). */
  search: CommissionsSearch;
  onSearch: (patch: CommissionsSearch) => void;
}

/** The commission ledger (issue 13) with its filters and page in the URL, totals, bulk approve and void. */
export function CommissionsTab({ search, onSearch }: CommissionsTabProps) {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  // The recruiter the admin picked, with its label; after a reload the URL has only its id.
  const [picked, setPicked] = useState<DealerChoice | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [voiding, setVoiding] = useState<string | null>(null);
  const page = search.page ?? 1;
  const input = {
    status: search.status,
    recruiterDealerId: search.recruiter,
    from: search.from,
    to: search.to,
    page,
    pageSize: COMMISSIONS_PAGE_SIZE,
  };
  const list = useQuery(trpc.commissions.list.queryOptions(input, { placeholderData: keepPreviousData }));
  const approve = useAdminMutation(ADMIN_MUTATIONS.approveCommissions, { onSuccess: () => setSelected([]) });
  /** A filter change shows its first page. */
  const filter = (patch: CommissionsSearch) => onSearch({ ...patch, page: undefined });
  const dateFilter = (label: string, value: string | undefined, key: 'from' | 'to') => (
    <TextInput
      label={label}
      type="date"
      value={value ?? ''}
      onChange={(e) => filter({ [key]: e.currentTarget.value || undefined })}
    />
  );
  const data = list.data;
  // Every row of a recruiter's filter names it: the label after a reload.
  const recruiter: DealerChoice | null = search.recruiter
    ? picked?.value === search.recruiter
      ? picked
      : { value: search.recruiter, label: data?.items[0]?.recruiterName ?? 'Selected recruiter' }
    : null;
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
            value={search.status ?? null}
            onChange={(v) => filter({ status: (v as CommissionStatus | null) ?? undefined })}
            w={160}
          />
          <DealerPicker
            label="Recruiter"
            value={recruiter}
            onChange={(choice) => {
              setPicked(choice);
              setSelected([]);
              filter({ recruiter: choice?.value });
            }}
            clearable
            w={340}
          />
          {dateFilter('From', search.from, 'from')}
          {dateFilter('To', search.to, 'to')}
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
            {displayMoney(data.totals.paid)} · Clawbacks {displayMoney(data.totals.clawbacks)} ·{' '}
            {plural(data.total, 'entry', 'entries')}
          </Text>
        )}
        <DataTable
          rows={data?.items ?? []}
          rowKey={(c) => c.id}
          rowTestId="admin-commission-row"
          minWidth={1000}
          cards
          query={list}
          empty="No commissions match."
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
                    onChange={(e) => {
                      // Read now: React clears currentTarget once the handler returns, before the updater runs.
                      const on = e.currentTarget.checked;
                      setSelected((s) => (on ? [...s, c.id] : s.filter((x) => x !== c.id)));
                    }}
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
                  {(c.voidReason ?? c.heldReason) && (
                    <Text size="xs" c="dimmed">
                      {c.voidReason ?? c.heldReason}
                    </Text>
                  )}
                </>
              ),
            },
            { header: 'Hold until', cell: (c) => (c.holdUntil ? displayDateTime(c.holdUntil) : '') },
            {
              header: '',
              cell: (c) =>
                (c.status === 'pending' || c.status === 'approved') &&
                !c.payoutId &&
                can('reviewer') && (
                  <Group gap={4} wrap="nowrap">
                    {/* One commission approved from its row (issue 36), as "Approve selected" does. */}
                    {c.status === 'pending' && c.kind === 'commission' && (
                      <Button
                        size="xs"
                        variant="light"
                        aria-label={`Approve commission on order ${c.orderId}`}
                        loading={
                          approve.isPending && approve.variables?.ids.length === 1 && approve.variables.ids[0] === c.id
                        }
                        onClick={() => approve.mutate({ ids: [c.id] })}
                      >
                        Approve
                      </Button>
                    )}
                    <Button size="xs" variant="subtle" color="red" onClick={() => setVoiding(c.id)}>
                      Void
                    </Button>
                  </Group>
                ),
            },
          ]}
        />
        {data && data.total > COMMISSIONS_PAGE_SIZE && (
          <nav aria-label="Commission pages">
            <Pagination
              total={Math.ceil(data.total / COMMISSIONS_PAGE_SIZE)}
              value={page}
              onChange={(p) => onSearch({ page: p > 1 ? p : undefined })}
            />
          </nav>
        )}
      </Stack>
      <VoidDialog id={voiding} onClose={() => setVoiding(null)} />
    </Stack>
  );
}
