import type { ActivitySearch } from '@dn/schema';
import { activitySearch } from '@dn/schema';
import { Tabs } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { ActivityTab } from '../../../console/activity/ActivityTab';
import { AdminSection } from '../../../console/shared/AdminSection';
import { useSectionSearch } from '../../../console/shared/use-section-search';
import { searchAs } from '../../../shared/lib/route-search';

// The durable scheduler's tasks (issue 38, decision 0940), loaded when their tab opens.
const SchedulerTab = lazy(() => import('../../../console/scheduler/SchedulerTab'));

// The audit trail (issue 14); a dealer's timeline links here with its id.
export const Route = createFileRoute('/admin/_console/activity')({
  validateSearch: searchAs<ActivitySearch>(),
  component: ActivityPage,
});

function ActivityPage() {
  const [search, setSearch] = useSectionSearch(activitySearch);
  // System's "Scheduled tasks" link opens this tab (#scheduled-tasks, issue 47).
  const [tab, setTab] = useState<string | null>(() =>
    typeof window !== 'undefined' && window.location.hash === '#scheduled-tasks' ? 'tasks' : 'log',
  );
  return (
    <AdminSection title="Activity">
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="log">Audit trail</Tabs.Tab>
          <Tabs.Tab value="tasks">Scheduled tasks</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="log" pt="md">
          <ActivityTab filters={search} onFilters={setSearch} />
        </Tabs.Panel>
        <Tabs.Panel value="tasks" pt="md">
          <Suspense fallback={null}>
            <SchedulerTab />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </AdminSection>
  );
}
