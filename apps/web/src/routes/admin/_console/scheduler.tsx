import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { AdminSection } from '../../../features/admin/AdminSection';

// The durable scheduler's periodic tasks (issue 38): loaded only when the section opens.
const SchedulerTab = lazy(() => import('../../../features/scheduler/SchedulerTab'));

export const Route = createFileRoute('/admin/_console/scheduler')({
  component: SchedulerPage,
});

function SchedulerPage() {
  return (
    <AdminSection title="Scheduled tasks">
      <Suspense fallback={null}>
        <SchedulerTab />
      </Suspense>
    </AdminSection>
  );
}
