import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { AdminSection } from '../../../features/admin/AdminSection';
import { useAdminRole } from '../../../features/admin-team/role';
import { TeamTab } from '../../../features/admin-team/TeamTab';

export const Route = createFileRoute('/admin/_console/team')({ component: TeamPage });

// Personal API tokens (decision 0980): their own chunk, fetched when an owner opens the section.
const ApiTokens = lazy(() => import('../../../features/admin-team/ApiTokens'));

// Owners only (decision 0610): the navigation hides it from the others, the server refuses them.
function TeamPage() {
  const { can } = useAdminRole();
  return (
    <AdminSection title="Team">
      {can('owner') ? (
        <>
          <TeamTab />
          <Suspense fallback={null}>
            <ApiTokens />
          </Suspense>
        </>
      ) : (
        <Text c="dimmed">Only owners manage the team.</Text>
      )}
    </AdminSection>
  );
}
