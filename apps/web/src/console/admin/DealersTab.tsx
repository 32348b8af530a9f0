import {
  ADMIN_DEALERS_PAGE_SIZE,
  ADMIN_SEARCH_WINDOW,
  DEALER_STATUSES,
  type DealerListQuery,
  type DealerStatus,
  type DealersSearch,
  dealerListQuery,
  fieldErrorsOf,
  POLL_MS,
  TIERS,
  type Tier,
} from '@dn/schema';
import { Alert, Button, Group, Pagination, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { useAdminRole } from '../shared/role';
import { BulkBar } from './BulkBar';
import { DealerTable, type RowSelection } from './DealerTable';

/** The onboarding filters' list (issue 38), in its own chunk. */
const OnboardingDealerList = lazy(() => import('./OnboardingDealerList'));

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
const WINDOW = ADMIN_SEARCH_WINDOW.toLocaleString('en-US');

/** The list query for the URL's view, parsed by the shared schema (its limits and its words). */
function dealerListInput(search: DealersSearch) {
  const sort = search.sort ?? 'createdAt';
  return dealerListQuery.safeParse({
    q: search.q,
    tier: search.tier,
    status: search.status,
    sort,
    dir: sort === 'createdAt' ? 'desc' : 'asc',
    page: search.page ?? 1,
    pageSize: ADMIN_DEALERS_PAGE_SIZE,
  });
}

export interface DealersTabProps {
  search: DealersSearch;
  onSearch: (patch: DealersSearch) => void;
  /** The Applications section: the pending ones only, without the status tabs. */
  pendingOnly?: boolean;
}

/** The dealer list: server-side search, filters, sort and paging (in the URL), with the status tabs' counts. */
export function DealersTab({ search: urlSearch, onSearch, pendingOnly = false }: DealersTabProps) {
  const search: DealersSearch = pendingOnly ? { ...urlSearch, status: 'pending' } : urlSearch;
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const [clearing, setClearing] = useState(false);
  const [onboarding, setOnboarding] = useState<'incomplete' | 'overdue' | null>(null);
  // The box holds what is typed; the URL gets it trimmed, 250 ms after the last key.
  const [text, setText] = useState(search.q ?? '');
  const q = search.q ?? '';
  // Back, Forward or a link changed the URL: the box follows (unless it already says the same).
  useEffect(() => setText((typed) => (typed.trim() === q ? typed : q)), [q]);
  const pushQuery = useDebouncedCallback(
    (value: string) => onSearch({ q: value.trim() || undefined, page: undefined }),
    250,
  );
  // A filter or sort change starts again at page 1.
  const filter = (patch: DealersSearch) => onSearch({ ...patch, page: undefined });

  const input = dealerListInput(search);
  const dealers = useQuery(
    trpc.admin.dealers.queryOptions(input.success ? input.data : skipToken, {
      refetchInterval: POLL_MS.adminDealers,
      placeholderData: keepPreviousData,
    }),
  );
  const data = dealers.data;
  const page = input.success ? input.data.page : 1;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const sort = search.sort ?? 'createdAt';
  // A broad search is answered from its newest ADMIN_SEARCH_WINDOW matches (decision 0792): every
  // count is then a lower bound, shown with a '+'.
  const more = data?.capped ? '+' : '';

  // The bulk selection (issue 14): rows picked one by one, or all matching the filter; a new view clears it.
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const view = `${search.q ?? ''}|${search.tier ?? ''}|${search.status ?? ''}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the selection belongs to the view it was made in
  useEffect(() => {
    setPicked(new Set());
    setAllMatching(false);
  }, [view]);
  const pageItems = data?.items ?? [];
  const rowSelection: RowSelection = {
    isSelected: (id) => allMatching || picked.has(id),
    toggle: (id) => {
      setAllMatching(false);
      setPicked((prev) => {
        const next = new Set(allMatching ? pageItems.map((d) => d.id) : prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    togglePage: (checked) => {
      setAllMatching(false);
      setPicked(checked ? new Set(pageItems.map((d) => d.id)) : new Set());
    },
  };

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Group align="end">
          <TextInput
            label="Search"
            placeholder="Name, company or email"
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              pushQuery(e.currentTarget.value);
            }}
            error={input.success ? undefined : fieldErrorsOf(input.error).q}
            w={260}
          />
          <Select
            label="Tier"
            placeholder="All tiers"
            data={[...TIERS]}
            value={search.tier ?? null}
            onChange={(v) => filter({ tier: (v as Tier | null) ?? undefined })}
            clearable
            w={160}
          />
          <Select
            label="Sort by"
            data={SORTS}
            value={sort}
            onChange={(v) => {
              const next = (v ?? 'createdAt') as DealerListQuery['sort'];
              filter({ sort: next === 'createdAt' ? undefined : next });
            }}
            allowDeselect={false}
            w={140}
          />
          {!pendingOnly && (
            <Select
              label="Onboarding"
              placeholder="Any"
              data={[
                { value: 'incomplete', label: 'Onboarding incomplete' },
                { value: 'overdue', label: 'Onboarding overdue' },
              ]}
              value={onboarding}
              onChange={(v) => setOnboarding(v as 'incomplete' | 'overdue' | null)}
              clearable
              w={210}
            />
          )}
        </Group>
        <Group>
          {/* Roles (issue 14): no export of personal data for a viewer; clear-all is the owner's. */}
          {/* The search box as typed: the URL gets it 250 ms later, an export clicked sooner means it too. */}
          {can('reviewer') && <ExportButton search={{ ...search, q: text.trim() || undefined }} />}
        </Group>
      </Group>
      {!pendingOnly && (
        <Tabs
          value={search.status ?? 'all'}
          onChange={(v) => filter({ status: v === 'all' || v === null ? undefined : (v as DealerStatus) })}
          variant="pills"
        >
          <Tabs.List>
            {(['all', ...DEALER_STATUSES] as const).map((s) => (
              <Tabs.Tab key={s} value={s}>
                {label(s)} ({data?.counts[s] ?? 0}
                {more})
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
      {can('reviewer') && (
        <BulkBar
          selection={allMatching ? { all: true, total: data?.total ?? 0 } : { all: false, ids: [...picked] }}
          filter={{ q: search.q, tier: search.tier, status: search.status }}
          // Past the window the number of matches is not known: no "select all" (narrow the search).
          matching={data?.capped ? 0 : (data?.total ?? 0)}
          pageCount={pageItems.length}
          onSelectAll={() => setAllMatching(true)}
          onClear={() => {
            setPicked(new Set());
            setAllMatching(false);
          }}
        />
      )}
      {data?.capped && (
        <Alert variant="light" title={`More than ${WINDOW} dealers match this search`} data-testid="search-capped">
          The list, its counts and its pages cover the newest {WINDOW}. Narrow the search (a full name, a company or an
          email) to find older dealers or to select all matches.
        </Alert>
      )}
      {onboarding ? (
        <Suspense fallback={null}>
          <OnboardingDealerList filter={onboarding} />
        </Suspense>
      ) : (
        <DealerTable
          items={data?.items ?? []}
          query={dealers}
          empty={
            pendingOnly
              ? 'No applications are waiting for a decision.'
              : 'No dealer profiles found. Users can register as dealers using the comprehensive application form.'
          }
          selection={can('reviewer') ? rowSelection : undefined}
        />
      )}
      {data && data.total > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {data.total}
            {more} dealer{data.total === 1 && !more ? '' : 's'}
          </Text>
          <Pagination value={page} onChange={(p) => onSearch({ page: p > 1 ? p : undefined })} total={pages} />
        </Group>
      )}
      {/* Issue 47: away from "Export CSV" (one slip apart), under the list where nothing else is clicked. */}
      {can('owner') && (
        <Group justify="flex-end" mt="xl">
          <Button variant="outline" color="red" onClick={() => setClearing(true)}>
            Clear All
          </Button>
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
