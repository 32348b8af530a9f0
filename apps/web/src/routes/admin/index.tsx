import { Container, Text } from '@mantine/core';
import { createFileRoute, Navigate } from '@tanstack/react-router';
import { PageLoader } from '../../components/PageLoader';
import { AdminConsole } from '../../features/admin/AdminConsole';
import { useAuth } from '../../lib/auth';

// The route is code-split: the console's code loads only when /admin opens.
export const Route = createFileRoute('/admin/')({ component: AdminPage });

function AdminPage() {
  const auth = useAuth();
  if (auth.isLoading) return <PageLoader />;
  if (!auth.isAuthenticated) return <Navigate to="/admin/login" replace />;
  if (!auth.isAdmin) {
    return (
      <Container py="xl">
        <Text role="alert" fw={500}>
          Access Denied: You need administrator privileges to access this page.
        </Text>
      </Container>
    );
  }
  return <AdminConsole />;
}
