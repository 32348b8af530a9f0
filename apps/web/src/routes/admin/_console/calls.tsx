import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../features/admin/AdminSection';
import { CallsTab } from '../../../features/admin/CallsTab';

export const Route = createFileRoute('/admin/_console/calls')({ component: CallsPage });

function CallsPage() {
  return (
    <AdminSection title="Call schedules">
      <CallsTab />
    </AdminSection>
  );
}
