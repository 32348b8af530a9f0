import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../features/admin/AdminSection';
import { AccountTab } from '../../../features/admin-team/AccountTab';

export const Route = createFileRoute('/admin/_console/account')({ component: AccountPage });

function AccountPage() {
  return (
    <AdminSection title="Your account">
      <AccountTab />
    </AdminSection>
  );
}
