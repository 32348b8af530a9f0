import { ACCESS_DENIED } from '@dn/schema/messages';
import { Container, Text } from '@mantine/core';
import { createFileRoute, Navigate, redirect } from '@tanstack/react-router';
import { PageLoader } from '../../components/PageLoader';
import { AdminConsole } from '../../features/admin/AdminConsole';
import { type AdminSearch, validateAdminSearch } from '../../features/admin/search';
import { useAuth } from '../../lib/auth';

// The component is code-split: the console's code loads only when /admin opens.
export const Route = createFileRoute('/admin/')({
  validateSearch: validateAdminSearch,
  beforeLoad: async ({ context }) => {
    // A courtesy (the server decides): nobody signed in goes to the admin login.
    if (!(await context.auth.user())) throw redirect({ to: '/admin/login', replace: true });
  },
  component: AdminPage,
});

function AdminPage() {
  const auth = useAuth();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  if (auth.isLoading) return <PageLoader />;
  // Signed out while the page is open.
  if (!auth.isAuthenticated) return <Navigate to="/admin/login" replace />;
  if (!auth.isAdmin) {
    return (
      <Container py="xl">
        <Text role="alert" fw={500}>
          {ACCESS_DENIED}
        </Text>
      </Container>
    );
  }
  // Each change is a history entry (Back returns to the previous view); the window stays put.
  const onSearch = (patch: AdminSearch) => navigate({ search: (prev) => ({ ...prev, ...patch }), resetScroll: false });
  return <AdminConsole search={search} onSearch={onSearch} />;
}
