import { createFileRoute } from '@tanstack/react-router';
import { CallsTab } from '../../../console/admin/CallsTab';
import { AdminSection } from '../../../console/shared/AdminSection';

export const Route = createFileRoute('/admin/_console/calls')({ component: CallsPage });

function CallsPage() {
  return (
    <AdminSection title="Call schedules">
      <CallsTab />
    </AdminSection>
  );
}
