import type { AppRouter } from '@dn/api';
import { plural, SCORECARD_DAYS, SCORECARD_FIGURES, SCORECARD_LABELS, type ScorecardSort } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Button, Group, Pagination, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { figure } from '../../shared/jobs/ScorecardView';
import { useTrpc } from '../../shared/lib/trpc';

type Row = inferRouterOutputs<AppRouter>['scorecards']['list']['items'][number];
type Figure = keyof typeof SCORECARD_LABELS;

const PAGE = 50;
const FIGURES: readonly Figure[] = SCORECARD_FIGURES;
const SHORT: Record<Figure, string> = {
  averageRating: 'Rating (of 5)',
  reviewCount: 'Reviews',
  received: 'Offers',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
  acceptanceRate: 'Acceptance',
  medianAnswerMinutes: 'Answers in',
  jobsCompleted: 'Completed',
};

/**
 * The console's installer scorecards (issue 50, decision 1101), in the Jobs section's own chunk:
 * every installer's figures, sorted on the server by any column (a header toggles the direction),
 * with each tier's medians above.
 */
export default function ScorecardTable() {
  const trpc = useTrpc();
  const [sort, setSort] = useState<ScorecardSort>('averageRating');
  const [dir, setDir] = useState<'asc' | 'desc'>('desc');
  const [page, setPage] = useState(1);
  const list = useQuery(trpc.scorecards.list.queryOptions({ sort, dir, page }, { placeholderData: keepPreviousData }));
  const by = (key: ScorecardSort) => {
    if (key === sort) setDir(dir === 'asc' ? 'desc' : 'asc');
    else {
      setSort(key);
      setDir(key === 'name' || key === 'tier' || key === 'medianAnswerMinutes' ? 'asc' : 'desc');
    }
    setPage(1);
  };
  // The visible word is the button's name (with the sort state for screen readers); the full name is its title.
  const header = (key: ScorecardSort, label: string, full = label) => (
    <UnstyledButton
      onClick={() => by(key)}
      title={`Sort by ${full}`}
      data-testid={`sort-${key}`}
      fw={600}
      fz="sm"
      style={{ whiteSpace: 'nowrap' }}
    >
      {label}
      {sort === key && (
        <>
          <span aria-hidden="true">{dir === 'asc' ? ' ▲' : ' ▼'}</span>
          <VisuallyHidden>{dir === 'asc' ? ', sorted ascending' : ', sorted descending'}</VisuallyHidden>
        </>
      )}
    </UnstyledButton>
  );
  const data = list.data;
  return (
    <Stack gap="sm" data-testid="scorecard-table">
      <Text size="sm" c="dimmed">
        Homeowners' ratings (all time) and offers in the last {SCORECARD_DAYS} days. Acceptance: accepted of the offers
        accepted, declined or expired. Tier medians:
      </Text>
      {data && (
        <Stack gap={2}>
          {(['Preferred', 'Authorized'] as const).map((t) => (
            <Text key={t} size="sm" data-testid={`tier-median-${t}`}>
              <b>{t}</b> ({plural(data.tierMedians[t].installers, 'installer')}): rating{' '}
              {figure('averageRating', data.tierMedians[t])}, acceptance {figure('acceptanceRate', data.tierMedians[t])}
              , answers in {figure('medianAnswerMinutes', data.tierMedians[t])},{' '}
              {SCORECARD_LABELS.jobsCompleted.toLowerCase()} {figure('jobsCompleted', data.tierMedians[t])}
            </Text>
          ))}
        </Stack>
      )}
      <DataTable<Row>
        rows={data?.items ?? []}
        rowKey={(r) => r.dealerId}
        rowTestId="scorecard-row"
        query={list}
        cards
        minWidth={1100}
        empty="No installers yet."
        aria-label="Installer scorecards"
        columns={[
          {
            header: header('name', 'Installer'),
            cell: (r) => (
              <Link to="/admin/dealers/$id" params={{ id: r.dealerId }}>
                {r.companyName ?? r.fullName}
              </Link>
            ),
          },
          { header: header('tier', 'Tier'), cell: (r) => r.tier },
          ...FIGURES.map((f) => ({
            header: header(f, SHORT[f], SCORECARD_LABELS[f]),
            // The table's rating is the number alone ("4.33"): the column says what it is out of.
            cell: (r: Row) => (f === 'averageRating' ? (r.averageRating?.toFixed(2) ?? '—') : figure(f, r)),
          })),
        ]}
      />
      {data && data.total > PAGE && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {plural(data.total, 'installer')}
          </Text>
          <Pagination value={page} onChange={setPage} total={Math.ceil(data.total / PAGE)} size="sm" />
        </Group>
      )}
      {data && data.total <= PAGE && (
        <Text size="sm" c="dimmed">
          {plural(data.total, 'installer')}
        </Text>
      )}
      <Button variant="subtle" size="xs" onClick={() => void list.refetch()} w="fit-content">
        Refresh
      </Button>
    </Stack>
  );
}
