import {
  ADMIN_DEALERS_PAGE_SIZE,
  DEALER_STATUSES,
  type DealerListQuery,
  type DealerStatus,
  POLL_MS,
  TIERS,
  type Tier,
} from '@dn/schema';
import { Button, Group, Pagination, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { DealerTable } from './DealerTable';
import { ExportButton } from './ExportButton';

const ClearAllDialog = lazy(() => import('./ClearAllDialog'));

const SORTS: { value: DealerListQuery['sort']; label: string }[] = [
  { value: 'createdAt', label: 'Newest' },
  { value: 'fullName', label: 'Name' },
  { value: 'companyName', label: 'Company' },
  { value: 'email', label: 'Email' },
  { value: 'tier', label: 'Tier' },
  { value: 'status', label: 'Status' },
];

const label = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Dealer Profiles: server-side search, filters, sort and paging, with the status tabs' counts. */
export function DealersTab() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [status, setStatus] = useState<DealerStatus | 'all'>('all');
  const [tier, setTier] = useState<Tier | null>(null);
  const [sort, setSort] = useState<DealerListQuery['sort']>('createdAt');
  const [page, setPage] = useState(1);
  const [clearing, setClearing] = useState(false);

  const input = {
    ...(q ? { q } : {}),
    ...(tier ? { tier } : {}),
    ...(status !== 'all' ? { status } : {}),
    sort,
    dir: sort === 'createdAt' ? ('desc' as const) : ('asc' as const),
    page,
    pageSize: ADMIN_DEALERS_PAGE_SIZE,
  };
  const dealers = useQuery(
    trpc.admin.dealers.queryOptions(input, {
      refetchInterval: POLL_MS.adminDealers,
      placeholderData: keepPreviousData,
    }),
  );
  const data = dealers.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Group align="end">
          <TextInput
            label="Search"
            placeholder="Name, company or email"
            value={search}
            onChange={(e) => reset(setSearch)(e.currentTarget.value)}
            w={260}
          />
          <Select
            label="Tier"
            placeholder="All tiers"
            data={[...TIERS]}
            value={tier}
            onChange={(v) => reset(setTier)(v as Tier | null)}
            clearable
            w={160}
          />
          <Select
            label="Sort by"
            data={SORTS}
            value={sort}
            onChange={(v) => reset(setSort)((v ?? 'createdAt') as DealerListQuery['sort'])}
            allowDeselect={false}
            w={140}
          />
        </Group>
        <Group>
          <ExportButton />
          <Button variant="outline" color="red" onClick={() => setClearing(true)}>
            Clear All
          </Button>
        </Group>
      </Group>
      <Tabs value={status} onChange={(v) => reset(setStatus)((v ?? 'all') as DealerStatus | 'all')} variant="pills">
        <Tabs.List>
          {(['all', ...DEALER_STATUSES] as const).map((s) => (
            <Tabs.Tab key={s} value={s}>
              {label(s)} ({data?.counts[s] ?? 0})
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {data && data.items.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          No dealer profiles found. Users can register as dealers using the comprehensive application form.
        </Text>
      ) : (
        <DealerTable items={data?.items ?? []} loading={dealers.isLoading} />
      )}
      {data && data.total > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {data.total} dealer{data.total === 1 ? '' : 's'}
          </Text>
          <Pagination value={page} onChange={setPage} total={pages} />
        </Group>
      )}
      {clearing && (
        <Suspense fallback={null}>
          <ClearAllDialog onClose={() => setClearing(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
