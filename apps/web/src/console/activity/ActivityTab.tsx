import type { AppRouter } from '@dn/api';
import { type ActivitySearch, displayDateTime, eventLabel } from '@dn/schema';
import { type DataColumn, DataTable } from '@dn/ui';
import { Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { useTrpc } from '../../shared/lib/trpc';
import { useAdminRole } from '../shared/role';

/** The Activity section's filters, kept in the URL so a dealer's timeline can link to its entries. */
export type ActivityFilters = ActivitySearch;

type ActivityRow = inferRouterOutputs<AppRouter>['activity']['list']['items'][number];

const COLUMNS: DataColumn<ActivityRow>[] = [
  { header: 'Time', cell: (r) => displayDateTime(r.createdAt, undefined, true) },
  { header: 'Actor', cell: (r) => r.actor ?? '—' },
  {
    header: 'Event',
    cell: (r) => (
      <Badge variant="light" color={r.success ? 'blue' : 'red'} tt="none" title={r.eventType ?? undefined}>
        {eventLabel(r.eventType ?? '')}
      </Badge>
    ),
  },
  { header: 'Message', cell: (r) => r.message },
  {
    header: 'Dealer',
    // The dealer's detail view (issue 36).
    cell: (r) =>
      r.dealerId ? (
        <Link to="/admin/dealers/$id" params={{ id: r.dealerId }}>
          {r.dealerName ?? r.dealerId}
        </Link>
      ) : (
        ''
      ),
  },
  { header: 'IP', cell: (r) => r.ipAddress },
  {
    header: 'Browser',
    cell: (r) => {
      const ua = r.userAgentParsed as { browser?: string; os?: string } | null;
      return ua ? `${ua.browser} / ${ua.os}` : '';
    },
    td: (r) => ({ title: r.userAgent ?? '' }),
  },
];

const clean = (f: ActivityFilters) => ({
  ...(f.actor ? { actor: f.actor } : {}),
  ...(f.event ? { eventType: f.event } : {}),
  ...(f.dealer ? { dealerId: f.dealer } : {}),
  ...(f.from ? { from: f.from } : {}),
  ...(f.to ? { to: f.to } : {}),
});

/** The audit trail (issue 14): filtered and paged on the server ("Load more" follows the keyset). */
export function ActivityTab({
  filters,
  onFilters,
}: {
  filters: ActivityFilters;
  onFilters: (f: ActivityFilters) => void;
}) {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const input = clean(filters);
  const types = useQuery(trpc.activity.eventTypes.queryOptions());
  const pages = useInfiniteQuery(
    trpc.activity.list.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  const rows = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const exportUrl = `/api/admin/activity/export?${new URLSearchParams(input as Record<string, string>)}`;
  const set = (patch: ActivityFilters) => onFilters({ ...filters, ...patch });
  return (
    <Stack>
      <Group align="end">
        <TextInput
          label="Actor"
          // Back or a link changes the URL: the box shows it (a new box for a new value).
          key={`actor-${filters.actor ?? ''}`}
          defaultValue={filters.actor ?? ''}
          onBlur={(e) => set({ actor: e.currentTarget.value.trim() || undefined })}
        />
        <Select
          label="Event"
          clearable
          searchable
          data={(types.data ?? []).map((t) => ({ value: t, label: eventLabel(t) }))}
          value={filters.event ?? null}
          onChange={(v) => set({ event: v ?? undefined })}
        />
        <TextInput
          label="Dealer ID"
          key={`dealer-${filters.dealer ?? ''}`}
          defaultValue={filters.dealer ?? ''}
          onBlur={(e) => set({ dealer: e.currentTarget.value.trim() || undefined })}
        />
        <TextInput
          label="From"
          type="date"
          value={filters.from ?? ''}
          onChange={(e) => set({ from: e.currentTarget.value || undefined })}
        />
        <TextInput
          label="To"
          type="date"
          value={filters.to ?? ''}
          onChange={(e) => set({ to: e.currentTarget.value || undefined })}
        />
        {can('reviewer') && (
          <Button component="a" href={exportUrl} variant="default">
            Export CSV
          </Button>
        )}
      </Group>
      <DataTable
        rows={rows}
        columns={COLUMNS}
        rowKey={(r) => r.id}
        rowTestId="activity-row"
        minWidth={900}
        cards
        query={pages}
        empty="No activity matches these filters."
      />
      {pages.hasNextPage && (
        <Group>
          <Button variant="default" loading={pages.isFetchingNextPage} onClick={() => pages.fetchNextPage()}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
