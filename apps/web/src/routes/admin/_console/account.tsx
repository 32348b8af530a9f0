import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../console/shared/AdminSection';
import { AccountTab } from '../../../console/team/AccountTab';

export const Route = createFileRoute('/admin/_console/account')({ component: AccountPage });

function AccountPage() {
  return (
    <AdminSection title="Your account">
      <AccountTab />
    </AdminSection>
  );
}
