import type { OnboardingFilter } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Badge, Button, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { DealerNameCell } from './DealerTable';

/** The dealer list filtered to "onboarding incomplete" or "overdue" (loaded lazily). */
export default function OnboardingDealerList({ filter }: { filter: OnboardingFilter }) {
  const trpc = useTrpc();
  const [page, setPage] = useState(1);
  const q = useQuery(trpc.onboarding.dealers.queryOptions({ filter, page }));
  const items = q.data?.items ?? [];
  return (
    <>
      <DataTable
        rows={items}
        rowKey={(d) => d.id}
        rowTestId="onboarding-row"
        query={q}
        empty={filter === 'overdue' ? 'No onboarding is overdue.' : 'Every approved dealer has completed onboarding.'}
        columns={[
          {
            header: 'Dealer',
            cell: (d) => <DealerNameCell d={d} />,
          },
          { header: 'Tier', cell: (d) => d.tier },
          { header: 'Approved', cell: (d) => d.approvalDate?.slice(0, 10) ?? '' },
          {
            header: 'Onboarding',
            cell: (d) => (
              <Badge color={d.overdue ? 'red' : 'gray'} variant="light">
                {d.done}/{d.total}
                {d.expired ? ' · expired document' : d.overdue ? ` · call overdue (due ${d.callDueBy})` : ''}
              </Badge>
            ),
          },
        ]}
      />
      <Group justify="flex-end">
        <Button variant="default" size="xs" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
          Previous
        </Button>
        <Button variant="default" size="xs" disabled={!q.data?.hasMore} onClick={() => setPage((p) => p + 1)}>
          Next
        </Button>
      </Group>
    </>
  );
}
