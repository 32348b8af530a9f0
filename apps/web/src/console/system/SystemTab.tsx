import type { AppRouter } from '@dn/api';
import { displayDateTime, POLL_MS } from '@dn/schema';
import { type DataColumn, DataTable } from '@dn/ui';
import { Alert, Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { inferRouterOutputs } from '@trpc/server';
import { useTrpc } from '../../shared/lib/trpc';
import { SampleChart } from './SampleChart';
import classes from './system.module.css';

type Overview = inferRouterOutputs<AppRouter>['system']['overview'];

const when = (iso: string) => displayDateTime(iso);

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

const FAILURE_COLUMNS: DataColumn<Overview['failures'][number]>[] = [
  { header: 'Given up', cell: (r) => when(r.failedAt) },
  { header: 'Email', cell: (r) => r.kind },
  { header: 'To', cell: (r) => r.toAddress },
  { header: 'Attempts', cell: (r) => r.attempts },
  { header: 'Error', cell: (r) => <span className={classes.error}>{r.error}</span> },
];

const BACKUP_COLUMNS: DataColumn<Overview['backups'][number]>[] = [
  { header: 'Started', cell: (r) => when(r.startedAt) },
  { header: 'How', cell: (r) => (r.trigger === 'scheduled' ? 'Scheduled' : 'pnpm db:backup') },
  { header: 'File', cell: (r) => r.file },
  { header: 'Size', cell: (r) => (r.bytes === null ? '' : size(r.bytes)) },
  { header: 'Result', cell: (r) => (r.error ? <span className={classes.error}>{r.error}</span> : 'OK') },
  { header: 'Verified', cell: (r) => verification(r) },
];

/** A file's size for people. */
function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** How reading a backup back went (issue 46): every chunk authenticated, every table counted. */
function verification(r: Overview['backups'][number]) {
  if (r.verifyError) return <span className={classes.error}>Failed: {r.verifyError}</span>;
  if (!r.verifiedAt) return r.error ? '' : 'Not checked';
  return `OK, ${when(r.verifiedAt)}${r.encrypted ? ', encrypted' : ''}`;
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder p="sm" data-testid="system-figure">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={600}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

const count = (v: number | null) => (v === null ? '—' : String(v));

/** The System section (issue 40): queue depths, failures with their errors, backups, the last 24 hours. */
export function SystemTab() {
  const trpc = useTrpc();
  const overview = useQuery({ ...trpc.system.overview.queryOptions(), refetchInterval: POLL_MS.adminSystem });
  const o = overview.data;
  if (!o) {
    return <DataTable rows={[]} columns={FAILURE_COLUMNS} rowKey={(r) => r.id} query={overview} empty="Loading…" />;
  }
  const q = o.queues;
  const lastBackup = o.backups[0];
  const series = (key: string) =>
    o.samples.map((s) => ({ at: s.at, value: Number((s as Record<string, unknown>)[key] ?? 0) }));
  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Emails waiting" value={String(q.mailWaiting)} />
        <Figure label="Oldest waiting email" value={q.mailWaiting ? duration(q.mailOldestSeconds) : '—'} />
        <Figure label="Emails given up on" value={String(q.mailFailed)} />
        <Figure
          label="Last backup"
          value={lastBackup?.finishedAt ? when(lastBackup.finishedAt) : 'Never'}
          hint={lastBackup?.error ? 'It failed: see below' : undefined}
        />
        <Figure
          label="Last backup verified"
          value={
            !lastBackup || lastBackup.error
              ? '—'
              : lastBackup.verifyError
                ? 'Failed'
                : lastBackup.verifiedAt
                  ? when(lastBackup.verifiedAt)
                  : 'Not checked'
          }
          hint={
            lastBackup && !lastBackup.error && lastBackup.verifiedAt && !lastBackup.verifyError
              ? `OK, ${lastBackup.bytes === null ? '' : `${size(lastBackup.bytes)}, `}${lastBackup.encrypted ? 'encrypted' : 'not encrypted'}`
              : undefined
          }
        />
        <Figure label="Scheduled tasks due" value={count(q.tasksDue)} />
        <Figure label="Scheduled tasks overdue" value={count(q.tasksOverdue)} />
        <Figure label="Scheduled tasks failed" value={count(q.tasksFailed)} />
        <Figure
          label="Jobs waiting for an installer"
          value={count(q.jobsWaiting)}
          hint={q.jobsOldestSeconds ? `oldest ${duration(q.jobsOldestSeconds)}` : undefined}
        />
      </SimpleGrid>
      {/* The tasks behind the three figures above (issue 47): their list is in Activity. */}
      <Anchor component={Link} to="/admin/activity" hash="scheduled-tasks" size="sm" data-testid="system-tasks-link">
        See the scheduled tasks: when each runs next, its last run and failures
      </Anchor>
      {lastBackup?.error && (
        <Alert color="red" title="The last backup failed">
          {lastBackup.error}
        </Alert>
      )}
      {lastBackup?.verifyError && (
        <Alert color="red" title="The last backup was written but does not verify">
          {lastBackup.verifyError}
        </Alert>
      )}
      <Title order={3} size="h4">
        Last 24 hours
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SampleChart title="Emails waiting" points={series('mailWaiting')} now={o.now} />
        <SampleChart title="Oldest waiting email" points={series('mailOldestSeconds')} now={o.now} format={duration} />
      </SimpleGrid>
      <Title order={3} size="h4">
        Emails given up on
      </Title>
      <DataTable
        rows={o.failures}
        columns={FAILURE_COLUMNS}
        rowKey={(r) => r.id}
        rowTestId="system-failure"
        cards
        query={overview}
        empty="No email has been given up on."
      />
      <Title order={3} size="h4">
        Backups
      </Title>
      <DataTable
        rows={o.backups}
        columns={BACKUP_COLUMNS}
        rowKey={(r) => r.id}
        cards
        query={overview}
        empty="No backup yet: run pnpm db:backup, or set BACKUP_DIR for a daily one."
      />
    </Stack>
  );
}
