import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../console/shared/AdminSection';
import { useAdminRole } from '../../../console/shared/role';
// Personal API tokens (decision 0980): in this route's own chunk, loaded when the section opens.
import { ApiTokens } from '../../../console/team/ApiTokens';
import { TeamTab } from '../../../console/team/TeamTab';

export const Route = createFileRoute('/admin/_console/team')({ component: TeamPage });

// Owners only (decision 0610): the navigation hides it from the others, the server refuses them.
function TeamPage() {
  const { can } = useAdminRole();
  return (
    <AdminSection title="Team">
      {can('owner') ? (
        <>
          <TeamTab />
          <ApiTokens />
        </>
      ) : (
        <Text c="dimmed">Only owners manage the team.</Text>
      )}
    </AdminSection>
  );
}
