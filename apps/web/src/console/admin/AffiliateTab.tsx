import { displayDateTime, POLL_MS } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../../shared/lib/trpc';
import classes from './admin.module.css';
import type { Tracking } from './types';

export function AffiliateTab() {
  const trpc = useTrpc();
  const tracking = useQuery(
    trpc.admin.affiliateTracking.queryOptions(undefined, { refetchInterval: POLL_MS.affiliateTracking }),
  );
  const data = tracking.data;
  if (tracking.isLoading || !data) {
    return <DataTable rows={[]} columns={[]} rowKey={String} query={tracking} />;
  }
  return (
    <Stack>
      <Card withBorder>
        <Title order={3} mb="sm">
          Referral funnel
        </Title>
        {data.recruiters.length === 0 ? (
          <Text c="dimmed">No affiliate links yet.</Text>
        ) : (
          <FunnelChart recruiters={data.recruiters.slice(0, 10)} />
        )}
      </Card>
      <Card withBorder>
        <Title order={3} mb="sm">
          Recent tracking events
        </Title>
        <DataTable
          rows={data.events.slice(0, 20)}
          rowKey={(e) => e.id}
          rowTestId="tracking-row"
          cards
          error={tracking.error}
          empty="No tracking events yet."
          columns={[
            { header: 'Event', cell: (e) => <Badge variant="light">{e.eventType}</Badge> },
            { header: 'Link', cell: (e) => e.recruiterId ?? '—' },
            { header: 'Message', cell: (e) => e.message },
            { header: 'Time', cell: (e) => displayDateTime(e.createdAt) },
          ]}
        />
      </Card>
    </Stack>
  );
}

const BAR = { visits: '#74c0fc', signups: '#4dabf7', approvals: '#1c7ed6' } as const;

/** Visits, signups and approvals per recruiter as grouped horizontal bars (plain SVG). */
function FunnelChart({ recruiters }: { recruiters: Tracking['recruiters'] }) {
  const max = Math.max(1, ...recruiters.flatMap((r) => [r.visits, r.signups, r.approvals]));
  const rowH = 42;
  const labelW = 150;
  const barW = 420;
  return (
    <Stack gap="xs">
      <Group gap="md">
        {(Object.keys(BAR) as (keyof typeof BAR)[]).map((k) => (
          <Group key={k} gap={4}>
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill={BAR[k]} />
            </svg>
            <Text size="xs">{k}</Text>
          </Group>
        ))}
      </Group>
      <svg
        className={classes.funnel}
        viewBox={`0 0 ${labelW + barW + 40} ${recruiters.length * rowH}`}
        role="img"
        aria-label="Referral funnel per recruiter"
      >
        {recruiters.map((r, i) => (
          <g key={r.recruiterId} transform={`translate(0 ${i * rowH})`}>
            <text x={0} y={16} fontSize={12}>
              {r.recruiterId}
            </text>
            <text x={0} y={30} fontSize={10} fill="#868e96">
              {r.fullName}
            </text>
            {(['visits', 'signups', 'approvals'] as const).map((k, j) => (
              <g key={k}>
                <rect x={labelW} y={4 + j * 11} height={9} width={Math.max(1, (r[k] / max) * barW)} fill={BAR[k]}>
                  <title>{`${k}: ${r[k]}`}</title>
                </rect>
                <text x={labelW + Math.max(1, (r[k] / max) * barW) + 4} y={12 + j * 11} fontSize={9}>
                  {r[k]}
                </text>
              </g>
            ))}
          </g>
        ))}
      </svg>
    </Stack>
  );
}
