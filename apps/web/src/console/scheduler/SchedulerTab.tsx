import type { AppRouter } from '@dn/api';
import { displayDateTime, POLL_MS } from '@dn/schema';
import { type DataColumn, DataTable } from '@dn/ui';
import { Badge, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useTrpc } from '../../shared/lib/trpc';
import { BusinessTimeZone } from './BusinessTimeZone';

type SweepRow = inferRouterOutputs<AppRouter>['scheduler']['sweeps'][number];

const at = (d: Date | string | null) => (d ? displayDateTime(d, undefined, true) : '—');

function state(r: SweepRow) {
  if (r.running) return <Badge color="blue">Running</Badge>;
  if (r.failures > 0) return <Badge color="red">Failing</Badge>;
  if (r.due) return <Badge color="yellow">Due</Badge>;
  return <Badge color="green">OK</Badge>;
}

const COLUMNS: DataColumn<SweepRow>[] = [
  { header: 'Task', cell: (r) => r.name },
  { header: 'State', cell: state },
  { header: 'Every', cell: (r) => `${r.everySeconds} s` },
  { header: 'Next run', cell: (r) => at(r.nextRunAt) },
  { header: 'Last run', cell: (r) => at(r.lastFinishedAt ?? r.lastStartedAt) },
  { header: 'Handled', cell: (r) => (r.lastHandled === null ? '—' : String(r.lastHandled)) },
  { header: 'Failures', cell: (r) => String(r.failures) },
  {
    header: 'Last error',
    cell: (r) =>
      r.lastError ? (
        <Text size="sm" c="red">
          {at(r.lastErrorAt)}: {r.lastError}
        </Text>
      ) : (
        '—'
      ),
  },
];

/** The durable scheduler's sweeps (issue 38, decision 0940): what is due, what ran, what failed. */
export default function SchedulerTab() {
  const trpc = useTrpc();
  const sweeps = useQuery({ ...trpc.scheduler.sweeps.queryOptions(), refetchInterval: POLL_MS.adminScheduler });
  return (
    <Stack>
      <BusinessTimeZone />
      <DataTable
        rows={sweeps.data ?? []}
        columns={COLUMNS}
        rowKey={(r) => r.name}
        rowTestId="sweep-row"
        minWidth={900}
        cards
        query={sweeps}
        empty="No periodic tasks are registered."
      />
    </Stack>
  );
}
