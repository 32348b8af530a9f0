import { Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { geoPath } from 'd3-geo';
import { useEffect, useState } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { useTrpc } from '../../lib/trpc';

/** FIPS state codes of us-atlas to the postal codes the jobs carry. */
const POSTAL: Record<string, string> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
  '72': 'PR',
};

interface StateShape {
  id: string;
  d: string;
}

/**
 * The coverage map (issue 37): the states drawn in the browser from us-atlas (already projected to
 * Albers USA, so d3-geo only draws), shaded by demand (jobs), outlined where installers are; the
 * ZIP codes with requests and no installer in range, and the same figures as a table.
 */
export default function CoverageMap() {
  const trpc = useTrpc();
  const data = useQuery(trpc.jobs.coverage.queryOptions());
  const [states, setStates] = useState<StateShape[] | null>(null);
  useEffect(() => {
    void import('us-atlas/states-albers-10m.json').then((m) => {
      const topo = (m.default ?? m) as unknown as Topology<{ states: GeometryCollection }>;
      const path = geoPath();
      const shapes = feature(topo, topo.objects.states).features.map((f) => ({
        id: String(f.id),
        d: path(f) ?? '',
      }));
      setStates(shapes);
    });
  }, []);
  if (!data.data || !states) return <Skeleton h={320} />;
  const jobs = new Map(data.data.demand.map((r) => [r.state, r.jobs]));
  const installers = new Map(data.data.installers.map((r) => [r.state, r.installers]));
  const most = Math.max(1, ...jobs.values());
  const rows = [...new Set([...jobs.keys(), ...installers.keys()])].sort();
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="coverage-map">
      <Paper withBorder p="xs">
        <svg viewBox="0 0 975 610" role="img" aria-label="Demand and installers by state">
          {states.map((s) => {
            const code = POSTAL[s.id.padStart(2, '0')] ?? '';
            const n = jobs.get(code) ?? 0;
            return (
              <path
                key={s.id}
                d={s.d}
                fill={n ? `rgba(224, 49, 49, ${0.15 + (0.75 * n) / most})` : '#f1f3f5'}
                stroke={installers.has(code) ? '#2f9e44' : '#adb5bd'}
                strokeWidth={installers.has(code) ? 2.5 : 0.75}
              >
                <title>{`${code}: ${n} jobs, ${installers.get(code) ?? 0} installers`}</title>
              </path>
            );
          })}
        </svg>
        <Group gap="md">
          <Text size="xs" c="red">
            Shade: jobs and requests
          </Text>
          <Text size="xs" c="green">
            Green outline: installers based there
          </Text>
        </Group>
      </Paper>
      <Stack>
        <Title order={3} size="h5">
          ZIP codes with requests and no installer in range
        </Title>
        <Table data-testid="uncovered-zips">
          <Table.Tbody>
            {data.data.uncovered.map((z) => (
              <Table.Tr key={z.zipCode}>
                <Table.Td>{z.zipCode}</Table.Td>
                <Table.Td>
                  {z.city}, {z.state}
                </Table.Td>
                <Table.Td>{z.requests}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>State</Table.Th>
              <Table.Th>Jobs</Table.Th>
              <Table.Th>Installers</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((s) => (
              <Table.Tr key={s}>
                <Table.Td>{s}</Table.Td>
                <Table.Td>{jobs.get(s) ?? 0}</Table.Td>
                <Table.Td>{installers.get(s) ?? 0}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </SimpleGrid>
  );
}
