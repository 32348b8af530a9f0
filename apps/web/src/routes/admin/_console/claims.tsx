import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../features/admin/AdminSection';
import { ClaimsSection } from '../../../features/admin-claims/ClaimsSection';

// Issue 37, "Homeowner truth" (decision 0930): claims and incentives, edited by owners, read by all admins.
export const Route = createFileRoute('/admin/_console/claims')({ component: ClaimsPage });

function ClaimsPage() {
  return (
    <AdminSection title="Claims & incentives">
      <ClaimsSection />
    </AdminSection>
  );
}
