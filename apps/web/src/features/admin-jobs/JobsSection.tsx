import { adminJobsSearch } from '@dn/schema';
import { Button, Card, Collapse, Group, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { AdminSection } from '../admin/AdminSection';
import { useSectionSearch } from '../admin/use-section-search';
import { JobsTab } from './JobsTab';

/** Installers' scorecards (issue 50), in their own chunk, loaded when opened. */
const ScorecardTable = lazy(() => import('./ScorecardTable'));

export default function JobsSection() {
  const [search, setSearch] = useSectionSearch(adminJobsSearch);
  const [scorecards, setScorecards] = useState(false);
  return (
    <AdminSection title="Jobs">
      <JobsTab status={search.status} onStatus={(status) => setSearch({ status })} />
      <Card withBorder>
        <Group justify="space-between">
          <Title order={3} size="h4">
            Installer scorecards
          </Title>
          <Button variant="light" onClick={() => setScorecards(!scorecards)} aria-expanded={scorecards}>
            {scorecards ? 'Hide scorecards' : 'Show scorecards'}
          </Button>
        </Group>
        <Collapse expanded={scorecards}>
          <Suspense fallback={null}>{scorecards && <ScorecardTable />}</Suspense>
        </Collapse>
      </Card>
    </AdminSection>
  );
}
