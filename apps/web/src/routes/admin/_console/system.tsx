import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../console/shared/AdminSection';
import { SystemTab } from '../../../console/system/SystemTab';

// The operator's figures for people (issue 40): the same as GET /metrics, with a 24-hour chart.
export const Route = createFileRoute('/admin/_console/system')({ component: SystemPage });

function SystemPage() {
  return (
    <AdminSection title="System">
      <SystemTab />
    </AdminSection>
  );
}
