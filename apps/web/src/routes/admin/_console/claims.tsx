import { createFileRoute } from '@tanstack/react-router';
import { ClaimsSection } from '../../../console/claims/ClaimsSection';
import { AdminSection } from '../../../console/shared/AdminSection';

// Issue 37, "Homeowner truth" (decision 0930): claims and incentives, edited by owners, read by all admins.
export const Route = createFileRoute('/admin/_console/claims')({ component: ClaimsPage });

function ClaimsPage() {
  return (
    <AdminSection title="Claims & incentives">
      <ClaimsSection />
    </AdminSection>
  );
}
