import { DATE_FORMAT, COVERAGE_WORDS as W } from '@dn/schema';
import { DataTable } from '@dn/ui';
import { Alert, Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { geoAlbersUsa, geoPath } from 'd3-geo';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { useTrpc } from '../../shared/lib/trpc';

/** us-atlas's Albers USA frame (states-albers-10m): the same projection places the ZIP areas. */
const projection = geoAlbersUsa().scale(1300).translate([487.5, 305]);
/** Pixels per mile at that scale (1300 px per radian of a 3,958.8-mile earth). */
const PX_PER_MILE = 1300 / 3958.8;
const RED = '#c92a2a';
const BLUE = '#1971c2';
const GREEN = '#2b8a3e';

const place = (r: { cities: string[]; state: string }) =>
  `${r.cities.slice(0, 2).join(', ')}${r.cities.length > 2 ? ` and ${r.cities.length - 2} more` : ''}, ${r.state}`;

function Swatch({ kind }: { kind: 'waiting' | 'jobs' | 'reach' }) {
  return (
    <svg width="16" height="16" aria-hidden="true">
      {kind === 'reach' ? (
        <circle cx="8" cy="8" r="6" fill="rgba(43, 138, 62, 0.15)" stroke={GREEN} strokeWidth="1.5" />
      ) : (
        <circle cx="8" cy="8" r="6" fill={kind === 'waiting' ? RED : BLUE} fillOpacity="0.8" />
      )}
    </svg>
  );
}

/**
 * The coverage map (issues 37 and 47): where to recruit first, a ranked list of the ZIP areas (the
 * ZIP code's first three digits) with requests waiting and no installer in range, each with a
 * prefilled invitation; then the map (us-atlas states, projected in the browser: the jobs of each
 * area as a dot, red where requests wait, and each area's installers' reach as a ring) with its
 * legend, and the same figures by area as a table.
 */
export default function CoverageMap() {
  const trpc = useTrpc();
  const data = useQuery(trpc.jobs.coverage.queryOptions());
  const [states, setStates] = useState<{ id: string; d: string }[] | null>(null);
  useEffect(() => {
    void import('us-atlas/states-albers-10m.json').then((m) => {
      const topo = (m.default ?? m) as unknown as Topology<{ states: GeometryCollection }>;
      const path = geoPath();
      setStates(feature(topo, topo.objects.states).features.map((f) => ({ id: String(f.id), d: path(f) ?? '' })));
    });
  }, []);
  if (!data.data || !states) return <Skeleton h={320} />;
  const { recruit, areas, reach } = data.data;
  const most = Math.max(1, ...areas.map((a) => a.jobs));
  const origin = window.location.origin;
  const invitation = (r: (typeof recruit)[number]) => {
    const where = place(r);
    const subject = encodeURIComponent(W.inviteSubject(where));
    const body = encodeURIComponent(W.inviteBody(where, r.zipCodes.join(', '), r.requests, `${origin}/register`));
    return `mailto:?subject=${subject}&body=${body}`;
  };
  return (
    <Stack data-testid="coverage-map">
      <Stack gap={4}>
        <Title order={3} size="h4">
          {W.recruitTitle}
        </Title>
        <Text size="sm">{W.recruitIntro}</Text>
      </Stack>
      {recruit.length === 0 ? (
        <Alert
          color="green"
          title={W.allCovered}
          data-testid="all-covered"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          {W.allCoveredDetail}
        </Alert>
      ) : (
        <DataTable
          rows={recruit}
          rowKey={(r) => r.area}
          rowTestId="recruit-row"
          data-testid="recruit-here"
          aria-label={W.recruitTitle}
          cards
          columns={[
            { header: 'Rank', cell: (r) => recruit.indexOf(r) + 1 },
            {
              header: 'ZIP area',
              cell: (r) => (
                <Stack gap={0}>
                  <Text size="sm" fw={600}>
                    {W.area(r.area)} · {place(r)}
                  </Text>
                  <Text size="xs">ZIP {r.zipCodes.join(', ')}</Text>
                </Stack>
              ),
            },
            { header: 'Requests waiting', cell: (r) => r.requests },
            { header: 'Waiting since', cell: (r) => dayjs(r.waitingSince).format(DATE_FORMAT) },
            { header: 'Installers based there', cell: (r) => r.installers },
            {
              header: '',
              cell: (r) => (
                <Anchor href={invitation(r)} aria-label={W.inviteLabel(place(r))}>
                  {W.invite}
                </Anchor>
              ),
            },
          ]}
        />
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="xs">
          <svg viewBox="0 0 975 610" role="img" aria-label="Jobs and installers' reach by ZIP area">
            {states.map((s) => (
              <path key={s.id} d={s.d} fill="#f8f9fa" stroke="#adb5bd" strokeWidth={0.75} />
            ))}
            {reach.map((r) => {
              const at = projection([r.longitude, r.latitude]);
              return (
                at && (
                  <circle
                    key={`reach-${r.area}`}
                    cx={at[0]}
                    cy={at[1]}
                    r={Math.max(4, r.miles * PX_PER_MILE)}
                    fill="rgba(43, 138, 62, 0.15)"
                    stroke={GREEN}
                    strokeWidth={1.5}
                  >
                    <title>{`${W.area(r.area)}: ${r.installers} installers, reach up to ${r.miles} miles`}</title>
                  </circle>
                )
              );
            })}
            {areas.map((a) => {
              const at = projection([a.longitude, a.latitude]);
              return (
                at && (
                  <circle
                    key={`jobs-${a.area}`}
                    cx={at[0]}
                    cy={at[1]}
                    r={3 + 9 * Math.sqrt(a.jobs / most)}
                    fill={a.waiting > 0 ? RED : BLUE}
                    fillOpacity={0.8}
                  >
                    <title>{`${W.area(a.area)}, ${a.state}: ${a.jobs} jobs, ${a.waiting} waiting, ${a.installers} installers based there`}</title>
                  </circle>
                )
              );
            })}
          </svg>
          <Group gap="md" data-testid="coverage-legend">
            <Group gap={4} wrap="nowrap">
              <Swatch kind="waiting" />
              <Text size="xs">{W.legendWaiting}</Text>
            </Group>
            <Group gap={4} wrap="nowrap">
              <Swatch kind="jobs" />
              <Text size="xs">{W.legendJobs}</Text>
            </Group>
            <Group gap={4} wrap="nowrap">
              <Swatch kind="reach" />
              <Text size="xs">{W.legendReach}</Text>
            </Group>
          </Group>
        </Paper>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {W.areasTitle}
          </Title>
          <DataTable
            rows={areas.slice(0, 50)}
            rowKey={(a) => a.area}
            rowTestId="coverage-area-row"
            aria-label={W.areasTitle}
            cards
            empty="No jobs yet."
            columns={[
              { header: 'ZIP area', cell: (a) => `${W.area(a.area)}, ${a.state}` },
              { header: 'Jobs', cell: (a) => a.jobs },
              { header: 'Waiting', cell: (a) => a.waiting },
              { header: 'Installers based there', cell: (a) => a.installers },
            ]}
          />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
