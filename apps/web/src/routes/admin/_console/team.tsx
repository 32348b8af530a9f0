import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../features/admin/AdminSection';
import { useAdminRole } from '../../../features/admin-team/role';
import { TeamTab } from '../../../features/admin-team/TeamTab';

export const Route = createFileRoute('/admin/_console/team')({ component: TeamPage });

// Owners only (decision 0610): the navigation hides it from the others, the server refuses them.
function TeamPage() {
  const { can } = useAdminRole();
  return (
    <AdminSection title="Team">
      {can('owner') ? <TeamTab /> : <Text c="dimmed">Only owners manage the team.</Text>}
    </AdminSection>
  );
}
