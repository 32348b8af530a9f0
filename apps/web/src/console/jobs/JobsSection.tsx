import { adminJobsSearch, TIER_REVIEW_WORDS } from '@dn/schema';
import { Button, Card, Collapse, Group, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { AdminSection } from '../shared/AdminSection';
import { useAdminRole } from '../shared/role';
import { useSectionSearch } from '../shared/use-section-search';
import { JobsTab } from './JobsTab';

// Issue 50: the monthly tier review, its own chunk (the shell's budget is nearly full).
const TierReviews = lazy(() => import('./TierReviews'));
/** Installers' scorecards (issue 50), in their own chunk, loaded when opened. */
const ScorecardTable = lazy(() => import('./ScorecardTable'));

export default function JobsSection() {
  const [search, setSearch] = useSectionSearch(adminJobsSearch);
  const { can } = useAdminRole();
  const [reviews, setReviews] = useState(false);
  const [scorecards, setScorecards] = useState(false);
  return (
    <AdminSection title="Jobs">
      {can('reviewer') && (
        <Group justify="flex-end" mb="sm">
          <Button variant="light" onClick={() => setReviews(!reviews)} aria-expanded={reviews}>
            {reviews ? TIER_REVIEW_WORDS.hide : TIER_REVIEW_WORDS.open}
          </Button>
        </Group>
      )}
      {reviews && (
        <Suspense fallback={null}>
          <TierReviews />
        </Suspense>
      )}
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
